"""Trigonometric equations through their general solution: ``sin x = c`` → every solution as a
family indexed by an integer k, then (on an interval) the members that lie in it.

>>> x = sp.Symbol("x", real=True)
>>> k = sp.Symbol("k", real=True)
>>> target = sp.And(sp.Eq(x, sp.pi / 2 + k * sp.pi), sp.Contains(k, sp.S.Integers))
>>> p = Problem(sp.Eq(sp.cos(x), 0), target, x)
>>> [m.operation for m in periodic_moves(sp.Eq(sp.cos(x), 0), p)]
['write $0$ as $\\\\cos{\\\\left(\\\\frac{\\\\pi}{2} \\\\right)}$']
>>> [m.name for m in periodic_moves(sp.Eq(sp.cos(x), sp.cos(sp.pi / 2, evaluate=False)), p)]
['general-solution']
"""

from __future__ import annotations

import sympy as sp

from veristep.grounding.checks.periodic_family import family_of, members_within
from veristep.propose.symbolic.moves import Move, Problem, bare_tex, math, tex

_TRIG = (sp.sin, sp.cos, sp.tan)


def is_family(state: sp.Basic, x: sp.Symbol | None) -> bool:
    return x is not None and family_of(state, x) is not None


def periodic_moves(state: sp.Basic, p: Problem) -> list[Move]:
    """The family moves at ``state``: pick the members inside its bounds, or write the general
    solution when the target is a family. [] when neither applies."""
    x = p.var
    if x is None:
        return []
    fam = family_of(state, x)
    if fam is not None:
        pick = pick_members_move(state, x)
        return [pick] if pick is not None else []
    # A family is written when the target is one, or when a goal-only task solves an equation
    # with no bounds (its finished form is the general solution).
    wants_family = p.target is not None and family_of(p.target, x) is not None
    if wants_family or (p.target is None and p.goal == "solve"):
        principal = principal_value_move(state, x)
        if principal is not None:
            return [principal]  # the angle first, as a teacher reads it off; then the families
        move = general_solution_move(state, [], x, _index(p))
        return [move] if move is not None else []
    return []


_INVERSE = {sp.sin: sp.asin, sp.cos: sp.acos, sp.tan: sp.atan}


def principal_value_move(state: sp.Basic, x: sp.Symbol) -> Move | None:
    """``sin x = 1/2`` → ``sin x = sin(π/6)``: the value written as the function of a known angle
    (left unevaluated), when that angle is a rational multiple of π."""
    if not (isinstance(state, sp.Eq) and isinstance(state.lhs, _TRIG) and state.lhs.args[0] == x):
        return None
    c = state.rhs
    if c.free_symbols or isinstance(c, _TRIG):
        return None
    func = type(state.lhs)
    alpha = _INVERSE[func](c)
    ratio = sp.nsimplify(alpha / sp.pi) if alpha.is_number else None
    if ratio is None or not ratio.is_Rational or alpha.has(*_INVERSE.values()):
        return None
    new = sp.Eq(state.lhs, func(alpha, evaluate=False))
    why = f"{tex(func(alpha, evaluate=False))} $= {bare_tex(c)}$: a known angle"
    return Move("principal-value", f"write {tex(c)} as {tex(func(alpha, evaluate=False))}", why,
                "rewrite", new)  # fmt: skip


def _index(p: Problem) -> sp.Symbol:
    named = [s for s in (p.target.free_symbols if p.target is not None else ()) if s.name == "k"]
    return named[0] if named else sp.Symbol("k", real=True)


def general_solution_move(
    main: sp.Basic, bounds: list[sp.Basic], x: sp.Symbol, k: sp.Symbol
) -> Move | None:
    """``trig(x) = c`` → ``(x = f₁(k) ∨ …) ∧ k ∈ ℤ`` (∧ the bounds, kept as they were)."""
    if not (isinstance(main, sp.Eq) and isinstance(main.lhs, _TRIG) and main.lhs.args[0] == x):
        return None
    if main.rhs.free_symbols:
        return None
    solutions = sp.solveset(main.lhs - main.rhs, x, sp.S.Reals)
    pieces = solutions.args if isinstance(solutions, sp.Union) else (solutions,)
    branches = []
    for piece in pieces:
        if not (isinstance(piece, sp.ImageSet) and piece.base_sets == (sp.S.Integers,)):
            return None
        (n,) = piece.lamda.variables
        branches.append(piece.lamda.expr.subs(n, k))
    if not branches:
        return None
    branches = _merged(branches, k)
    family = sp.Or(*[sp.Eq(x, b) for b in branches])
    new = sp.And(family, sp.Contains(k, sp.S.Integers), *bounds)
    period = "\\pi" if isinstance(main.lhs, sp.tan) else "2\\pi"
    integers = math(bare_tex(k) + r" \in \mathbb{Z}")
    why = (
        f"{tex(main.lhs)} repeats every ${period}$: all its solutions, "
        f"one family per solution in a period, with {integers}"
    )
    return Move(
        "general-solution", f"write the general solution of {tex(main)}", why, "rewrite", new
    )


def _merged(branches: list[sp.Basic], k: sp.Symbol) -> list[sp.Basic]:
    """Two families of period P whose offsets are P/2 apart are one family of period P/2
    (``π/2 + 2kπ`` and ``3π/2 + 2kπ`` are ``π/2 + kπ``), as a teacher writes it."""
    if len(branches) != 2:
        return branches
    (a, b) = branches
    period = a.diff(k)
    if b.diff(k) != period or not period.is_number:
        return branches
    a0, b0 = a.subs(k, 0), b.subs(k, 0)
    gap = sp.simplify((b0 - a0) / period)
    if gap not in (sp.Rational(1, 2), sp.Rational(-1, 2)):
        return branches
    start = a0 if gap > 0 else b0
    return [start + period / 2 * k]


def pick_members_move(state: sp.Basic, x: sp.Symbol) -> Move | None:
    """A family with bounds → the members inside them, listed."""
    fam = family_of(state, x)
    if fam is None or not fam.bounds:
        return None
    members = members_within(fam, x)
    if members is None:
        return None
    ordered = sorted(set(members), key=float)
    new = sp.Or(*[sp.Eq(x, v) for v in ordered]) if ordered else sp.false
    where = ", ".join(math(bare_tex(b)) for b in sorted(fam.bounds, key=str))
    listed = ", ".join(math(bare_tex(v)) for v in ordered) or "none"
    why = f"the members with {where} are {listed}"
    return Move("pick-members", f"keep the values of {tex(fam.index)} that satisfy the bounds",
                why, "rewrite", new)  # fmt: skip
