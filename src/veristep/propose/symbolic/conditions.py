"""Equations that carry their conditions: ``equation ∧ x ≥ 3`` or ``equation ∧ 0 ≤ x < 2π``.

Writing the condition into the state keeps every step an equivalence: squaring
``\\sqrt{u} = v`` gives ``u = v^2 ∧ v ≥ 0`` (not a widening), a trigonometric equation keeps its
interval, and the last move keeps exactly the values that meet the conditions, naming the ones that
fail. The equation itself is worked by the one-unknown moves, the conditions carried unchanged.

>>> x = sp.Symbol("x", real=True)
>>> s = sp.And(sp.Or(sp.Eq(x, 1), sp.Eq(x, 6)), x - 3 >= 0)
>>> [m.operation for m in condition_moves(s, Problem(s, None, x), lambda e, p: [])]
['keep the solutions that satisfy $x - 3 \\\\geq 0$']
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from veristep.propose.symbolic.goals import solved_values
from veristep.propose.symbolic.moves import Move, Problem, bare_tex, math, tex
from veristep.propose.symbolic.periodic import general_solution_move
from veristep.propose.symbolic.printer import to_latex

OneUnknown = Callable[[sp.Basic, Problem], list[Move]]
_TRIG = (sp.sin, sp.cos, sp.tan)


def split(state: sp.Basic, x: sp.Symbol | None) -> tuple[sp.Basic, list[sp.Basic]] | None:
    """(equation, conditions) for ``equation ∧ conditions`` in the one unknown x, else None."""
    if x is None or not isinstance(state, sp.And) or x not in state.free_symbols:
        return None
    mains = [a for a in state.args if _is_equation(a)]
    conds = [a for a in state.args if a not in mains]
    if len(mains) != 1 or not conds or not all(isinstance(c, sp.Rel) for c in conds):
        return None
    if any(c.free_symbols != {x} for c in conds):
        return None  # the conditions bound the unknown; the equation may carry parameters
    if state.free_symbols != {x} and not _sign_condition(conds, x):
        return None  # with parameters, only a sign condition (r > 0) is carried along here
    return mains[0], conds


def _sign_condition(conds: list[sp.Basic], x: sp.Symbol) -> bool:
    """The conditions are exactly ``x > 0`` or ``x ≥ 0``."""
    if len(conds) != 1:
        return False
    cond = conds[0]
    return isinstance(cond, (sp.Gt, sp.Ge)) and cond.lhs == x and cond.rhs == 0


def _positive_root_move(main: sp.Basic, conds: list[sp.Basic], x: sp.Symbol) -> Move | None:
    """``r² = c ∧ r > 0`` → ``r = √c``: the condition picks the root (c free of r)."""
    if not (isinstance(main, sp.Eq) and main.lhs == x**2 and _sign_condition(conds, x)):
        return None
    c, cond = main.rhs, conds[0]
    if c.has(x):
        return None
    roots = math("\\pm\\sqrt{" + bare_tex(c) + "}")
    why = f"of the two roots {roots} only the positive one satisfies {math(bare_tex(cond))}"
    new = sp.Eq(x, sp.sqrt(c))
    return Move("positive-root", "take the positive square root", why, "solve", new)


def _isolate_square_move(main: sp.Basic, conds: list[sp.Basic], x: sp.Symbol) -> Move | None:
    """Toward ``x² = c`` under a sign condition: ``A = πr²`` → ``πr² = A`` → ``r² = A/π``."""
    if not (isinstance(main, sp.Eq) and _sign_condition(conds, x)):
        return None
    lhs, rhs = main.lhs, main.rhs
    if not lhs.has(x) and rhs.has(x):
        new = sp.And(sp.Eq(rhs, lhs), *conds)
        return Move("swap", "swap the two sides", "equality is symmetric", "rewrite", new)
    k = sp.simplify(lhs / x**2)
    if rhs.has(x) or k.has(x) or k in (0, 1):
        return None
    new = sp.And(sp.Eq(x**2, sp.expand(rhs / k)), *conds)
    why = "the coefficient is non-zero"
    if k.free_symbols:  # a parameter: the step holds where it is nonzero, and says so
        why += " (assuming " + math(bare_tex(k) + " \\ne 0") + ")"
    kind = "solve" if k.free_symbols else "rewrite"
    return Move("divide", f"divide both sides by {tex(k)}", why, kind, new)


def _is_equation(s: sp.Basic) -> bool:
    return isinstance(s, sp.Eq) or (
        isinstance(s, sp.Or) and all(isinstance(c, sp.Eq) for c in s.args)
    )


def condition_moves(state: sp.Basic, p: Problem, one: OneUnknown) -> list[Move]:
    found = split(state, p.var)
    if found is None:
        return []
    main, conds = found
    root = _positive_root_move(main, conds, p.var) or _isolate_square_move(main, conds, p.var)
    if root is not None:
        return [root]
    values = solved_values(main, p.var)
    if values is not None:
        return _filter(values, conds, p.var)
    interval = _interval(conds, p.var)
    if interval is not None:
        angles = _basic_angles(main, interval, p.var)
        if angles is not None and angles.state == angles.state.doit():
            # Nothing to read off a reference angle (sin x = 0): write the general solution,
            # then keep its members in the interval, as a teacher shows the k that fit.
            k = sp.Symbol("k", real=True)
            general = general_solution_move(main, conds, p.var, k)
            if general is not None:
                return [general]
        if angles is not None:
            return [angles]
    cases = main.args if isinstance(main, sp.Or) else (main,)
    new_cases, used = [], []
    for case in cases:
        if solved_values(case, p.var) is not None or _trig_solved(case, p.var):
            new_cases.append(case)
            continue
        moves = one(case, p)  # the planner's one-unknown moves solve for sin x too
        if not moves:
            return []
        new_cases.append(moves[0].state)
        used.append(moves[0])
    if not used:
        return []
    words = list(dict.fromkeys(m.operation for m in used))
    op = words[0] if len(words) == 1 else "; ".join(words)
    new = sp.And(sp.Or(*new_cases) if len(new_cases) > 1 else new_cases[0], *conds)
    why = used[0].justification
    if used[0].name == "clear-denominators" and len(cases) == 1:
        why = _denominators_ruled_out(cases[0], conds, p.var) or why
    return [Move(used[0].name, op, why, "rewrite", new)]


def _denominators_ruled_out(case: sp.Basic, conds: list[sp.Basic], x: sp.Symbol) -> str | None:
    """Clearing denominators beside a condition that already rules out their zeros (``r^2``
    beside ``r > 0``): nothing is left to check at the end, and the line says why."""
    if not isinstance(case, sp.Eq):
        return None
    den = sp.fraction(sp.together(case.lhs - case.rhs))[1]
    zeros = sp.solveset(den, x, sp.S.Reals)
    if not isinstance(zeros, sp.FiniteSet) or not zeros:
        return None
    if not all(any(c.subs(x, z) is sp.false for c in conds) for z in zeros):
        return None
    shown = ", ".join(math(f"{bare_tex(x)} \\ne {bare_tex(z)}") for z in sorted(zeros, key=str))
    given = " and ".join(math(bare_tex(c)) for c in conds)
    return f"clear the denominators; they are non-zero, as {given} gives {shown}"


def _filter(values: list[sp.Basic], conds: list[sp.Basic], x: sp.Symbol) -> list[Move]:
    keep, notes = [], []
    for v in values:
        failed = [c for c in conds if c.subs(x, v) is sp.false]
        if any(c.subs(x, v) not in (sp.true, sp.false) for c in conds):
            return []  # undecidable here: claim nothing
        if failed:
            notes.append(f"{math(bare_tex(x) + ' = ' + bare_tex(v))} fails "
                         f"{math(bare_tex(failed[0]))}")  # fmt: skip
        else:
            keep.append(v)
    shown = " and ".join(math(bare_tex(c)) for c in conds)
    why = "; ".join(notes) + ", so it is rejected" if notes else "every value satisfies it"
    new = sp.Or(*[sp.Eq(x, v) for v in keep]) if keep else sp.false
    return [
        Move("apply-condition", f"keep the solutions that satisfy {shown}", why, "rewrite", new)
    ]


def _interval(conds: list[sp.Basic], x: sp.Symbol) -> sp.Interval | None:
    try:
        found = sp.And(*conds).as_set()
    except (NotImplementedError, TypeError, ValueError):
        return None
    return found if isinstance(found, sp.Interval) and found.measure.is_finite else None


def _basic_angles(main: sp.Basic, interval: sp.Interval, x: sp.Symbol) -> Move | None:
    """``\\sin x = c`` (or a ∨ of such) on a bounded interval: the angles there, listed."""
    cases = main.args if isinstance(main, sp.Or) else (main,)
    if not all(_trig_solved(c, x) for c in cases):
        return None
    values: set[sp.Basic] = set()
    for case in cases:
        found = sp.solveset(case, x, interval)
        if not isinstance(found, sp.FiniteSet) and found is not sp.S.EmptySet:
            return None
        values |= set(found)
    ordered = sorted(values, key=float)
    alpha = _reference_angle(cases[0]) if len(cases) == 1 else None
    shown = [_from_reference(v, alpha) for v in ordered]
    new = sp.Or(*[sp.Eq(x, v, evaluate=False) for v in shown]) if ordered else sp.false
    where = math(f"{bare_tex(x)} \\in {sp.latex(interval)}")
    listed = ", ".join(math(bare_tex(v)) for v in shown) or "none"
    why = f"the angles with {where} that solve it are {listed}"
    if alpha is not None and alpha != 0:
        why = f"reference angle {math(bare_tex(alpha))}; " + why
    return Move("basic-angles", f"list the angles with {where}", why, "rewrite", new)


def _reference_angle(case: sp.Eq) -> sp.Basic | None:
    inverse = {sp.sin: sp.asin, sp.cos: sp.acos, sp.tan: sp.atan}[type(case.lhs)]
    alpha = inverse(abs(case.rhs))
    return alpha if alpha.is_number and not alpha.has(inverse) else None


def _from_reference(v: sp.Basic, alpha: sp.Basic | None) -> sp.Basic:
    """``5π/6`` written as ``π - π/6`` from the reference angle, as a teacher reads it off."""
    if alpha is None or alpha == 0 or v == alpha:
        return v
    for k in (1, 2):
        for sign in (-1, 1):
            if sp.simplify(k * sp.pi + sign * alpha - v) == 0:
                return sp.Add(k * sp.pi, sign * alpha, evaluate=False)
    return v


def _trig_solved(case: sp.Basic, x: sp.Symbol) -> bool:
    return (
        isinstance(case, sp.Eq)
        and isinstance(case.lhs, _TRIG)
        and case.lhs.args[0].is_polynomial(x)
        and sp.degree(case.lhs.args[0], x) == 1
        and not case.rhs.has(x)
    )


def trig_in_one_function(case: sp.Basic, p: Problem, one: OneUnknown) -> list[Move]:
    """An equation in ``\\sin x`` alone: solve for ``\\sin x`` as if it were the unknown."""
    if not isinstance(case, sp.Eq) or _trig_solved(case, p.var):
        return []
    atoms = [a for a in case.atoms(*_TRIG) if a.has(p.var)]
    if len(atoms) != 1:
        return []
    return _in_terms_of(case, p, one, atoms[0], {atoms[0]: 1})


def trig_product_moves(case: sp.Basic, x: sp.Symbol) -> list[Move]:
    """An equation in several trigonometric functions of x (``2 \\sin x \\cos x = \\sin x``):
    everything to the left, factor out what the terms share, then each factor equal to zero; each
    factor is then an equation in one function, solved by the moves above."""
    if not isinstance(case, sp.Eq):
        return []
    atoms = sorted((a for a in case.atoms(*_TRIG) if a.has(x)), key=sp.default_sort_key)
    if len(atoms) < 2:
        return []
    stand_ins = {a: sp.Dummy(f"t{i}") for i, a in enumerate(atoms)}
    lhs, rhs = case.lhs.xreplace(stand_ins), case.rhs.xreplace(stand_ins)
    if lhs.has(x) or rhs.has(x) or not (lhs - rhs).is_polynomial(*stand_ins.values()):
        return []
    if rhs != 0:
        why = f"subtract {tex(case.rhs)} from both sides"
        new = sp.Eq(sp.expand(case.lhs - case.rhs), 0)
        return [Move("standard-form", "bring every term to the left side", why, "rewrite", new)]
    if isinstance(case.lhs, sp.Mul):
        factors = [f for f in sp.Mul.make_args(case.lhs) if f.has(x)]
        if len(factors) < 2:
            return []
        cases = sp.Or(*[sp.Eq(f.base if isinstance(f, sp.Pow) else f, 0) for f in factors])
        why = "a product is zero exactly when one of its factors is zero"
        return [Move("zero-product", "set each factor equal to zero", why, "rewrite", cases)]
    back = {v: a for a, v in stand_ins.items()}
    factored = sp.factor(lhs).xreplace(back)
    if not isinstance(factored, sp.Mul) or len([f for f in factored.args if f.has(x)]) < 2:
        return []
    return [Move("factor", "factor the left side", "factorisation", "rewrite",
                 sp.Eq(factored, 0))]  # fmt: skip


# The stand-in unknown: a name no wording contains, so it can be replaced back in the words.
_U = sp.Symbol("standinunknown", real=True)


def _in_terms_of(
    case: sp.Eq, p: Problem, one: OneUnknown, g: sp.Basic, powers: dict[sp.Basic, int]
) -> list[Move]:
    """Solve ``case`` for ``g`` (each atom a = g^k): the one-unknown moves on ``u``, mapped back."""
    replaced = case.xreplace({a: _U**k for a, k in powers.items()})
    if replaced.has(p.var):
        return []
    moves = one(replaced, Problem(replaced, None, _U))
    if not moves:
        return []
    shown = (
        bare_tex(g)
        if g.is_Function and not isinstance(g, sp.exp)
        else (f"\\left({bare_tex(g)}\\right)")
    )
    back = {_U: g}
    out = []
    for m in moves:
        words = m.operation.replace(bare_tex(_U), shown)
        why = m.justification.replace(bare_tex(_U), shown)  # the stand-in never reaches a reader
        out.append(Move(m.name, words, why, m.change_type, m.state.xreplace(back)))
    if any(k > 1 for k in powers.values()) and out:
        first = out[0]
        line = to_latex(replaced).replace(bare_tex(_U), shown)
        op = f"write the equation in terms of {math(bare_tex(g))}"
        why = "; ".join(math(f"{bare_tex(a)} = {shown}^{{{k}}}") for a, k in powers.items()
                        if k > 1) + f": a quadratic in {math(bare_tex(g))}"  # fmt: skip
        out[0] = Move(first.name, first.operation, first.justification, first.change_type,
                      first.state, before=((op, why, line),))  # fmt: skip
    return out


def exponential_as_unknown(case: sp.Basic, p: Problem, one: OneUnknown) -> list[Move]:
    """``e^{2x} - 5e^x + 6 = 0`` or ``4^x - 3 \\cdot 2^x + 2 = 0``: a polynomial in ``e^x``
    (or ``2^x``), solved for it."""
    x = p.var
    if x is None or not isinstance(case, sp.Eq):
        return []
    atoms = [a for a in case.atoms(sp.exp, sp.Pow) if a.has(x) and _exp_atom(a, x)]
    if not atoms:
        return []
    if len(atoms) == 1 and _solved_for(case, atoms[0]):
        return []
    bases = {_base(a) for a in atoms}
    b = min(bases, key=lambda v: float(v))
    powers = {}
    for a in atoms:
        k = sp.nsimplify(sp.log(_base(a)) / sp.log(b) * _rate(a, x))
        if not (k.is_Integer and k > 0):
            return []
        powers[a] = int(k)
    g = sp.exp(x) if b == sp.E else sp.Pow(b, x)
    return _in_terms_of(case, p, one, g, powers)


def _exp_atom(a: sp.Basic, x: sp.Symbol) -> bool:
    expo = a.args[0] if isinstance(a, sp.exp) else a.exp
    base_ok = isinstance(a, sp.exp) or (a.base.is_Integer and a.base > 1)
    return base_ok and (expo / x).is_Integer is True


def _base(a: sp.Basic) -> sp.Basic:
    return sp.E if isinstance(a, sp.exp) else a.base


def _rate(a: sp.Basic, x: sp.Symbol) -> sp.Basic:
    return (a.args[0] if isinstance(a, sp.exp) else a.exp) / x


def _solved_for(case: sp.Eq, a: sp.Basic) -> bool:
    return (case.lhs == a and not case.rhs.has(a)) or (case.rhs == a and not case.lhs.has(a))
