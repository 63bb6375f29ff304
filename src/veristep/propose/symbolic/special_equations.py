"""Equations that need one preparatory move before the polynomial moves apply.

Rational equations (multiply by the common denominator), radical equations (isolate, square),
absolute values (split into cases), exponential and logarithmic equations, and the final check of
candidate roots against the original equation, which rejects extraneous roots explicitly.

>>> x = sp.Symbol("x")
>>> p = Problem(start=sp.Eq(sp.Abs(2 * x - 1), 5), target=None, var=x)
>>> to_latex(special_moves(p.start, p)[0].state)
'2 x - 1 = -5 \\\\lor 2 x - 1 = 5'
"""

from __future__ import annotations

from itertools import pairwise

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem, bare_tex, math, subtract_words, tex
from veristep.propose.symbolic.printer import to_latex


def special_moves(state: sp.Basic, p: Problem) -> list[Move]:
    if p.var is None or not isinstance(state, sp.Eq):
        return []
    strategies = (_absolute_moves, _odd_root_moves, _radical_moves, _rational_moves, _exp_moves,
                  _log_moves, _double_angle_equation)  # fmt: skip
    for strategy in strategies:
        moves = strategy(state, p.var)
        if moves:
            return moves
    return []


def _double_angle_equation(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    """An equation with a double angle beside the single one (``cos 2x = sin x``): the double
    angle written in the function already there, so one function of x is left to solve for."""
    singles = state.atoms(sp.sin, sp.cos)
    doubles = [f for f in singles if f.args[0] / 2 in {g.args[0] for g in singles}
               and f.args[0] != f.args[0] / 2]  # fmt: skip
    if not doubles:
        return []
    f = doubles[0]
    u = f.args[0] / 2
    if isinstance(f, sp.sin):
        rule, value = "\\sin 2u = 2 \\sin u \\cos u", 2 * sp.sin(u) * sp.cos(u)
    elif state.has(sp.sin(u)):
        rule, value = "\\cos 2u = 1 - 2 \\sin^2 u", 1 - 2 * sp.sin(u) ** 2
    else:
        rule, value = "\\cos 2u = 2 \\cos^2 u - 1", 2 * sp.cos(u) ** 2 - 1
    new = state.xreplace({f: value})
    return [Move("double-angle", f"use {math(rule)}", "the double-angle formula", "rewrite", new)]


def _relation(x: sp.Basic, rel: str, value: sp.Basic) -> str:
    return math(f"{bare_tex(x)} {rel} {bare_tex(value)}")


def _absolute_moves(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    lhs, rhs = state.lhs, state.rhs
    if isinstance(rhs, sp.Abs) and not isinstance(lhs, sp.Abs):
        lhs, rhs = rhs, lhs
    if not isinstance(lhs, sp.Abs):
        abs_terms = [t for t in sp.Add.make_args(lhs) if t.has(sp.Abs) and t.has(x)]
        coeff, rest_of_term = lhs.as_independent(x, as_Add=False)
        if isinstance(rest_of_term, sp.Abs) and coeff.is_number and coeff != 1:
            new = sp.Eq(rest_of_term, rhs / coeff)
            op = f"divide both sides by {tex(coeff)}"
            return [Move("divide", op, "isolate the absolute value", "rewrite", new)]
        if len(abs_terms) >= 2 and not rhs.has(x):
            return _absolute_intervals(lhs, rhs, abs_terms, x)
        if len(abs_terms) == 1 and lhs != abs_terms[0]:
            rest = lhs - abs_terms[0]
            new = sp.Eq(abs_terms[0], rhs - rest)
            op = f"subtract {tex(rest)} from both sides"
            return [Move("isolate-abs", op, "isolate the absolute value", "rewrite", new)]
        return []
    inner = lhs.args[0]
    if rhs.is_number and rhs.is_negative:
        return [
            Move(
                "abs-negative",
                "note that an absolute value is never negative",
                math(f"|u| \\ge 0 > {bare_tex(rhs)}"),
                "rewrite",
                sp.false,
            )
        ]
    if isinstance(rhs, sp.Abs):
        other = rhs.args[0]
        cases = sp.Or(sp.Eq(inner, other), sp.Eq(inner, -other))
        why = "$|u| = |v|$ means $u = v$ or $u = -v$"
        op = "split into the two cases of equal absolute values"
        return [Move("abs-cases", op, why, "rewrite", cases)]
    cases = sp.Or(sp.Eq(inner, rhs), sp.Eq(inner, -rhs))
    why = "$|u| = k$ means $u = k$ or $u = -k$"
    op = "split into the two cases of the absolute value"
    if rhs.has(x):
        # |u| = v exactly when (u = v or u = -v) and v ≥ 0: the condition keeps it an equivalence.
        cond = sp.GreaterThan(rhs, 0)
        why = "$|u| = v$ means $u = v$ or $u = -v$, with $v \\ge 0$"
        op += f", keeping the condition {math(bare_tex(cond))}"
        return [Move("abs-cases", op, why, "rewrite", sp.And(cases, cond))]
    return [Move("abs-cases", op, why, "rewrite", cases)]


def _absolute_intervals(lhs, rhs, abs_terms, x) -> list[Move]:
    """Several absolute values of linear expressions (``|x + 2| + |x - 3| = 7``): the critical
    points cut the line into intervals; on each one every absolute value has one sign, so the
    equation is written without them, solved, and its solution kept only inside its interval."""
    points = _critical_points(abs_terms, x)
    if points is None:
        return []
    edges = [-sp.oo, *points, sp.oo]
    split, solved, kept = [], [], []
    for low, high in pairwise(edges):
        plain = _signs_on(lhs, x, _inside(low, high))
        bounds = ([x >= low] if low.is_finite else []) + ([x < high] if high.is_finite else [])
        equation = sp.Eq(plain, rhs, evaluate=False)
        split.append(sp.And(equation, *bounds, evaluate=False))
        difference = sp.expand(plain - rhs)
        if not difference.has(x):
            if difference == 0:
                return []  # a whole interval solves it: not a list of roots
            solved.append(split[-1])
            continue
        value = sp.solve(difference, x)[0]
        solved.append(sp.And(sp.Eq(x, value), *bounds, evaluate=False))
        if all(b.subs(x, value) for b in bounds):
            kept.append(sp.Eq(x, value))
    names = ", ".join(math(f"{bare_tex(x)} = {bare_tex(c)}") for c in points)
    why = f"each absolute value changes sign only at its zero ({names}); on each interval it is "
    why += math("u") + " or " + math("-u")
    before = (
        ("split at the critical points into intervals", why,
         bare_tex(sp.Or(*split, evaluate=False))),
        ("solve the equation on each interval", "a linear equation in each case",
         bare_tex(sp.Or(*solved, evaluate=False))),
    )  # fmt: skip
    new = sp.Or(*kept) if kept else sp.false
    op = "keep each solution that lies in its interval"
    return [Move("abs-intervals", op, "a solution outside its interval is not one", "solve", new,
                 before=before)]  # fmt: skip


def _critical_points(abs_terms, x) -> list[sp.Basic] | None:
    """The zeros of the absolute values' insides, increasing; None unless each is linear."""
    points = set()
    for term in abs_terms:
        for bar in (a for a in sp.preorder_traversal(term) if isinstance(a, sp.Abs)):
            inner = bar.args[0]
            if not inner.is_polynomial(x) or sp.degree(inner, x) != 1:
                return None
            points.add(sp.solve(inner, x)[0])
    return sorted(points)


def _inside(low: sp.Basic, high: sp.Basic) -> sp.Basic:
    """A point strictly inside the interval from low to high (either may be infinite)."""
    if low.is_finite and high.is_finite:
        return (low + high) / 2
    return high - 1 if low is -sp.oo else low + 1


def _signs_on(e: sp.Basic, x: sp.Symbol, probe: sp.Basic) -> sp.Basic:
    """``e`` with each |u| written as u or -u, by the sign u has at ``probe``."""

    def signed(bar: sp.Abs) -> sp.Basic:
        return bar.args[0] if bar.args[0].subs(x, probe) >= 0 else -bar.args[0]

    return e.replace(lambda a: isinstance(a, sp.Abs), signed)


def odd_root_of(e: sp.Basic) -> tuple[sp.Basic, int] | None:
    """(u, n) when ``e`` is the real n-th root of u, n odd (sgn(u)·|u|^(1/n), as the reader
    builds \\sqrt[3]{u}, or u^(1/n) of a u never negative, where both roots agree); else None.
    A power u^(1/3) of a u that may be negative is SymPy's principal root: not this."""
    if isinstance(e, sp.Pow) and e.exp.is_Rational and e.exp.p == 1 and e.exp.q % 2 == 1:
        return (e.base, int(e.exp.q)) if e.exp.q > 1 and e.base.is_nonnegative else None
    if not (isinstance(e, sp.Mul) and len(e.args) == 2):
        return None
    for f, g in (e.args, e.args[::-1]):
        if isinstance(f, sp.sign) and isinstance(g, sp.Pow) and g.base == sp.Abs(f.args[0]):
            n = g.exp
            if n.is_Rational and n.p == 1 and n.q % 2 == 1:
                return f.args[0], int(n.q)
    return None


def _odd_root_moves(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    """\\sqrt[3]{u} = v: the root isolated (a constant term moved, a number factor divided),
    then both sides cubed. t ↦ t^n is one-to-one for odd n, so no root is gained or lost and no
    check of the candidates is needed (unlike squaring)."""
    lhs, rhs = state.lhs, state.rhs
    if odd_root_of(rhs) is not None and not any(odd_root_of(t) for t in sp.Add.make_args(lhs)):
        return [Move("swap", "swap the two sides", "equality is symmetric", "rewrite",
                     sp.Eq(rhs, lhs))]  # fmt: skip
    found = odd_root_of(lhs)
    if found is not None and not any(odd_root_of(t) for t in sp.Add.make_args(rhs)):
        u, n = found
        power = {3: "cube both sides", 5: "raise both sides to the fifth power"}.get(
            n, f"raise both sides to the power {n}"
        )
        one_to_one = math(f"t \\mapsto t^{{{n}}}")
        why = f"{one_to_one} is one-to-one for odd {n}: no root is gained or lost"
        cubed = rhs**n if not isinstance(rhs, sp.Add) else sp.Pow(rhs, n)
        return [Move("odd-power", power, why, "rewrite", sp.Eq(u, cubed))]
    terms = sp.Add.make_args(lhs)
    roots = [t for t in terms if _scaled_odd_root(t) is not None]
    if len(roots) != 1 or any(odd_root_of(t) for t in sp.Add.make_args(rhs)):
        return []
    (term,) = roots
    rest = lhs - term
    if rest != 0 and not rest.has(x):
        new = sp.Eq(term, rhs - rest)
        return [Move("isolate-root", subtract_words(rest), "isolate the root", "rewrite", new)]
    coeff = _scaled_odd_root(term)
    if rest == 0 and coeff is not None and coeff != 1:
        new = sp.Eq(term / coeff, sp.expand(rhs / coeff))
        op = f"divide both sides by {tex(coeff)}"
        return [Move("divide", op, "isolate the root", "rewrite", new)]
    return []


def _scaled_odd_root(term: sp.Basic) -> sp.Basic | None:
    """c for a term c·∛u with a number c (1 for the root alone); else None."""
    if odd_root_of(term) is not None:
        return sp.S.One
    coeff, rest = term.as_coeff_Mul()
    return coeff if coeff != 1 and odd_root_of(rest) is not None else None


def _radicals(expr: sp.Basic, x: sp.Symbol) -> list[sp.Basic]:
    return [a for a in expr.atoms(sp.Pow) if a.exp == sp.Rational(1, 2) and a.base.has(x)]


def _radical_moves(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    lhs, rhs = state.lhs, state.rhs
    if not _radicals(lhs, x) and _radicals(rhs, x):
        return [
            Move("swap", "swap the two sides", "equality is symmetric", "rewrite", sp.Eq(rhs, lhs))
        ]
    if not _radicals(lhs, x):
        return []
    squared = [p for p in (lhs, rhs) if _square_of_radical_sum(p, x)]
    if squared:
        new = sp.Eq(sp.expand(lhs), sp.expand(rhs))
        return [
            Move("expand", "expand the square", "$(a + b)^2 = a^2 + 2ab + b^2$", "rewrite", new)
        ]
    rad_terms = [t for t in sp.Add.make_args(lhs) if _radicals(t, x)]
    others = lhs - rad_terms[0]
    if others != 0:
        new = sp.Eq(rad_terms[0], rhs - others)
        op = (
            f"add {tex(-others)} to both sides"
            if others.could_extract_minus_sign()
            else (f"subtract {tex(others)} from both sides")
        )
        return [Move("isolate-root", op, "isolate one square root", "rewrite", new)]
    coeff, root = lhs.as_independent(x, as_Add=False)
    if coeff != 1 and coeff.is_number:
        new = sp.Eq(root, sp.expand(rhs / coeff))
        op = f"divide both sides by {tex(coeff)}"
        return [Move("divide", op, "isolate the square root", "rewrite", new)]
    return _square_moves(lhs, rhs, x)


def _square_of_radical_sum(side: sp.Basic, x: sp.Symbol) -> bool:
    return any(isinstance(t, sp.Pow) and t.exp == 2 and isinstance(t.base, sp.Add)
               and _radicals(t.base, x) for t in sp.preorder_traversal(side))  # fmt: skip


def _square_moves(lhs: sp.Basic, rhs: sp.Basic, x: sp.Symbol) -> list[Move]:
    """``\\sqrt{u} = v``: square, writing the condition ``v ≥ 0`` when v can be negative."""
    if rhs.is_number and rhs.is_negative:
        why = math(f"\\sqrt{{u}} \\ge 0 > {bare_tex(rhs)}")
        return [Move("no-real-root", "note that a square root is never negative", why, "rewrite",
                     sp.false)]  # fmt: skip
    new = sp.Eq(sp.expand(lhs**2), sp.Pow(rhs, 2) if isinstance(rhs, sp.Add) else rhs**2)
    if rhs.has(x):
        # √u = v exactly when u = v² and v ≥ 0: with the condition written, no root is added.
        cond = sp.GreaterThan(rhs, 0)
        why = math("\\sqrt{u} = v") + " means " + math("u = v^2") + " with " + math("v \\ge 0")
        op = f"square both sides, keeping the condition {math(bare_tex(cond))}"
        return [Move("square", op, why, "rewrite", sp.And(new, cond))]
    if rhs.free_symbols:
        # A formula's parameter (T in √(l/g) = T/2π): squaring also admits T < 0, which the
        # square root excluded. The step keeps every solution and says what it may add.
        why = (
            "squaring keeps every solution; it would also admit "
            + math(bare_tex(rhs) + " < 0")
            + ", which the square root excludes"
        )
        return [Move("square", "square both sides", why, "solve", new)]
    why = "both sides are non-negative, so squaring keeps exactly the same solutions"
    return [Move("square", "square both sides", why, "rewrite", new)]


def _rational_moves(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    terms = sp.Add.make_args(state.lhs) + sp.Add.make_args(state.rhs)
    dens = [sp.fraction(sp.together(t))[1] for t in terms]
    if not any(d.has(x) for d in dens):
        return []
    lcd = sp.factor(sp.lcm(dens))  # numeric denominators too: no fraction survives the move
    excluded = sorted(sp.solve(lcd, x), key=sp.default_sort_key)
    shown = ", ".join(_relation(x, "\\ne", v) for v in excluded) or "none"
    new = sp.Eq(sp.expand(sp.cancel(state.lhs * lcd)), sp.expand(sp.cancel(state.rhs * lcd)))
    why = (
        f"clear the denominators; valid only where they are non-zero ({shown}), "
        "so those excluded values are checked at the end"
    )
    return [Move("clear-denominators", f"multiply both sides by {tex(lcd)}", why, "solve", new)]


def _exp_moves(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    lhs, rhs = state.lhs, state.rhs
    if isinstance(rhs, sp.Pow | sp.exp) and rhs.has(x) and not lhs.has(x):
        return [
            Move("swap", "swap the two sides", "equality is symmetric", "rewrite", sp.Eq(rhs, lhs))
        ]
    if isinstance(lhs, sp.exp) and not rhs.has(x):
        if not (rhs.is_positive):
            return []
        new = sp.Eq(lhs.args[0], sp.log(rhs))
        return [
            Move(
                "take-ln",
                "take the natural logarithm of both sides",
                "$\\ln$ is the inverse of $e^u$ on positive numbers",
                "rewrite",
                new,
            )
        ]
    if not (isinstance(lhs, sp.Pow) and lhs.base.is_number and lhs.exp.has(x)):
        return []
    base, expo = lhs.base, lhs.exp
    if rhs.has(x):
        return _common_base_moves(lhs, rhs, x)
    if isinstance(rhs, sp.Pow) and rhs.base == base:
        new = sp.Eq(expo, rhs.exp)
        return [
            Move(
                "equate-exponents",
                "equate the exponents",
                math(f"u \\mapsto {bare_tex(base)}^u") + " is one-to-one",
                "rewrite",
                new,
            )
        ]
    if not rhs.is_positive:
        return []
    take_ln = Move(
        "take-ln",
        "take the natural logarithm of both sides",
        "$\\ln(b^u) = u \\ln b$",
        "rewrite",
        sp.Eq(expo * sp.log(base), sp.log(rhs)),
    )
    k = sp.simplify(sp.log(rhs) / sp.log(base))
    if k.is_Rational:
        new = sp.Eq(lhs, sp.Pow(base, k, evaluate=False))
        same_base = Move(
            "same-base",
            f"write {tex(rhs)} as a power of {tex(base)}",
            math(f"{bare_tex(rhs)} = {bare_tex(base)}^{{{bare_tex(k)}}}"),
            "rewrite",
            new,
        )
        return [same_base, take_ln]
    return [take_ln]


def _common_base_moves(lhs: sp.Basic, rhs: sp.Basic, x: sp.Symbol) -> list[Move]:
    """``a^u = b^v``: equate exponents for one base, or first write both over a common base."""
    if not (isinstance(rhs, sp.Pow) and rhs.base.is_Integer and lhs.base.is_Integer):
        return []
    if rhs.base == lhs.base:
        why = math(f"t \\mapsto {bare_tex(lhs.base)}^t") + " is one-to-one"
        return [Move("equate-exponents", "equate the exponents", why, "rewrite",
                     sp.Eq(lhs.exp, rhs.exp))]  # fmt: skip
    b = _common_base(int(lhs.base), int(rhs.base))
    if b is None:
        return _logs_of_both_sides(lhs, rhs, x)
    m, n = sp.log(lhs.base, b), sp.log(rhs.base, b)
    new = sp.Eq(sp.Pow(b, sp.Mul(m, lhs.exp, evaluate=False), evaluate=False),
                sp.Pow(b, sp.Mul(n, rhs.exp, evaluate=False), evaluate=False))  # fmt: skip
    why = f"{math(f'{lhs.base} = {b}^{{{m}}}')} and {math(f'{rhs.base} = {b}^{{{n}}}')}"
    return [Move("common-base", f"write both sides as powers of {tex(b)}", why, "rewrite", new)]


def _logs_of_both_sides(lhs: sp.Pow, rhs: sp.Pow, x: sp.Symbol) -> list[Move]:
    """``a^u = b^v`` with no common base (``3^{x-1} = 2^x``), both exponents linear in x: the
    natural logarithm of both sides brings each exponent down (``u ln a = v ln b``), then the
    linear equation is solved line by line: expand, collect the x terms, factor x, divide."""
    (p1, q1), (p2, q2) = _linear(lhs.exp, x), _linear(rhs.exp, x)
    if None in (p1, p2) or p1 * sp.log(lhs.base) == p2 * sp.log(rhs.base):
        return []
    la, lb = (f"\\ln {bare_tex(e.base)}" for e in (lhs, rhs))
    taken = f"{_times_log(lhs.exp, la, x)} = {_times_log(rhs.exp, lb, x)}"
    expanded = f"{_terms([(p1, bare_tex(x) + ' ' + la), (q1, la)])} = "
    expanded += _terms([(p2, bare_tex(x) + " " + lb), (q2, lb)])
    # The x terms go to the side where their coefficient is positive, as a teacher does.
    xa, xb = bare_tex(x) + " " + la, bare_tex(x) + " " + lb
    if (p1 * sp.log(lhs.base) - p2 * sp.log(rhs.base)).evalf() > 0:
        side, coeff, rest = "left", _terms([(p1, la), (-p2, lb)]), _terms([(q2, lb), (-q1, la)])
        gathered = f"{_terms([(p1, xa), (-p2, xb)])} = {rest}"
        factored = f"{bare_tex(x)} \\left({coeff}\\right) = {rest}"
    else:
        side, coeff, rest = "right", _terms([(p2, lb), (-p1, la)]), _terms([(q1, la), (-q2, lb)])
        gathered = f"{rest} = {_terms([(p2, xb), (-p1, xa)])}"
        factored = f"{rest} = {bare_tex(x)} \\left({coeff}\\right)"
    value = (q2 * sp.log(rhs.base) - q1 * sp.log(lhs.base)) / (
        p1 * sp.log(lhs.base) - p2 * sp.log(rhs.base)
    )
    why = "both sides are positive and $\\ln(b^u) = u \\ln b$"
    before = (
        ("take the natural logarithm of both sides", why, taken),
        ("expand the brackets", "distributive law", expanded),
        (f"bring the terms in {math(bare_tex(x))} to the {side} side and the rest to the other",
         "the same term added to or subtracted from both sides", gathered),
        (f"take out the common factor {math(bare_tex(x))}", math("ab + ac = a(b + c)"), factored),
    )  # fmt: skip
    return [Move("take-ln", f"divide both sides by {math(coeff)}", "its value is not zero",
                 "solve", sp.Eq(x, value), before=before)]  # fmt: skip


def _linear(e: sp.Basic, x: sp.Symbol) -> tuple[sp.Basic | None, sp.Basic | None]:
    """``e = p x + q`` with rational p ≠ 0 and q: (p, q), else (None, None)."""
    poly = sp.Poly(e, x) if e.is_polynomial(x) else None
    if poly is None or poly.degree() != 1 or not all(c.is_Rational for c in poly.all_coeffs()):
        return None, None
    return poly.all_coeffs()[0], poly.all_coeffs()[1]


def _times_log(exponent: sp.Basic, log_tex: str, x: sp.Symbol) -> str:
    """``(x - 1) \\ln 3``, ``x \\ln 2``, ``2x \\ln 6``: the exponent brought down before its log."""
    if isinstance(exponent, sp.Add):
        return f"\\left({bare_tex(exponent)}\\right) {log_tex}"
    return f"{bare_tex(exponent)} {log_tex}"


def _terms(parts: list[tuple[sp.Basic, str]]) -> str:
    """Coefficients times written factors, joined with their signs; zero terms left out."""
    out = ""
    for c, text in ((c, text) for c, text in parts if c != 0):
        size = abs(c)
        piece = text if size == 1 else f"{bare_tex(size)} {text}"
        if not out:
            out = ("-" if c < 0 else "") + piece
        else:
            out += (" - " if c < 0 else " + ") + piece
    return out or "0"


def _common_base(a: int, c: int) -> int | None:
    for b in range(2, min(a, c) + 1):
        ka, kc = sp.log(a, b), sp.log(c, b)
        if ka.is_Integer and kc.is_Integer:
            return b
    return None


def _log_terms(expr: sp.Basic, x: sp.Symbol) -> list[sp.Basic]:
    return [t for t in sp.Add.make_args(expr) if t.has(sp.log) and t.has(x)]


def _log_moves(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    lhs, rhs = state.lhs, state.rhs
    left, right = _log_terms(lhs, x), _log_terms(rhs, x)
    same = _equal_logs(state, x)
    if same:
        return same
    if len(left) == 1 and len(right) == 1 and not (lhs - left[0]) and not (rhs - right[0]):
        power = _power_into_log(state, x)
        if power:
            return power
    if right and left:
        moved = sp.Add(*right)
        new = sp.Eq(lhs - moved, rhs - moved)
        why = "subtract the same logarithm from both sides"
        return [Move("collect-logs", "bring the logarithms to the left side", why, "rewrite", new)]
    others = lhs - sp.Add(*left)
    if left and others != 0 and not others.has(x):
        new = sp.Eq(sp.Add(*left), rhs - others)
        if others.could_extract_minus_sign():
            op = f"add {tex(-others)} to both sides"
        else:
            op = f"subtract {tex(others)} from both sides"
        return [Move("move-constant", op, "isolate the logarithms", "rewrite", new)]
    if len(left) >= 2 and not rhs.has(x):
        combined = _combine_logs(left, x)
        moves = _natural_log_moves(state, left, x)
        if combined is not None:
            conds = _positive_arguments(left, x)
            why = (
                "$\\log u + \\log v = \\log(uv)$ and $\\log u - \\log v = \\log(u/v)$ "
                "where the arguments are positive, so those conditions are kept"
            )
            shown = " and ".join(math(bare_tex(c)) for c in conds)
            op = f"combine the logarithms, keeping {shown}"
            moves.append(Move("combine-logs", op, why, "rewrite",
                              sp.And(sp.Eq(combined, rhs), *conds)))  # fmt: skip
        if moves:
            return moves
    return _single_log_moves(state, x)


def _positive_arguments(terms: list[sp.Basic], x: sp.Symbol) -> list[sp.Basic]:
    args = [a.args[0] for t in terms for a in t.atoms(sp.log) if a.has(x)]
    return [sp.StrictGreaterThan(a, 0) for a in dict.fromkeys(args)]


def _equal_logs(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    """``\\ln A = \\ln B`` ⇔ ``A = B ∧ A > 0``: the logarithm is one-to-one on positive numbers."""
    lhs, rhs = state.lhs, state.rhs
    if not (isinstance(lhs, sp.log) and isinstance(rhs, sp.log) and state.has(x)):
        return []
    a, b = lhs.args[0], rhs.args[0]
    cond = sp.StrictGreaterThan(a, 0)
    why = "$\\ln$ is one-to-one on positive numbers, so the arguments are equal and positive"
    op = f"equate the arguments, keeping {math(bare_tex(cond))}"
    return [Move("equate-arguments", op, why, "rewrite", sp.And(sp.Eq(a, b), cond))]


def _power_into_log(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    """``k \\ln u`` → ``\\ln u^k`` (for u > 0, written as a condition)."""
    for side, other, put in ((state.lhs, state.rhs, 0), (state.rhs, state.lhs, 1)):
        k, rest = side.as_independent(x, as_Add=False)
        if isinstance(rest, sp.log) and k.is_Integer and k > 1:
            cond = sp.StrictGreaterThan(rest.args[0], 0)
            power = sp.log(rest.args[0] ** k)
            new_eq = sp.Eq(power, other) if put == 0 else sp.Eq(other, power)
            why = "$k \\ln u = \\ln u^k$ for $u > 0$"
            op = f"write {tex(side)} as {tex(power)}, keeping {math(bare_tex(cond))}"
            return [Move("power-into-log", op, why, "rewrite", sp.And(new_eq, cond))]
    return []


def _natural_log_moves(state: sp.Eq, terms: list[sp.Basic], x: sp.Symbol) -> list[Move]:
    """Logarithms in base b carry 1/ln b: multiplying it away leaves natural logarithms."""
    size = abs(terms[0].as_independent(x, as_Add=False)[0])
    if size == 1 or size.free_symbols:
        return []
    # expand_mul, not expand: expand would also split log(2x) into log 2 + log x (x > 0 only).
    new = sp.Eq(sp.expand_mul(state.lhs / size), sp.expand_mul(state.rhs / size))
    why = "$\\log_b u = \\frac{\\ln u}{\\ln b}$: write the logarithms as natural logarithms"
    return [Move("natural-logs", f"multiply both sides by {tex(1 / size)}", why, "rewrite", new)]


def _combine_logs(terms: list[sp.Basic], x: sp.Symbol) -> sp.Basic | None:
    """k log u ± k log v → k log(u v^{±1}) when every term carries the same |k| (the same base)."""
    parts = [t.as_independent(x, as_Add=False) for t in terms]
    if not all(isinstance(rest, sp.log) for _, rest in parts):
        return None
    size = abs(parts[0][0])
    if any(sp.simplify(abs(k) - size) != 0 for k, _ in parts):
        return None
    argument = sp.Mul(*[rest.args[0] ** sp.sign(k) for k, rest in parts])
    combined = sp.log(sp.factor(sp.together(argument)))
    return combined if size == 1 else sp.Mul(size, combined, evaluate=False)


def _single_log_moves(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    lhs, rhs = state.lhs, state.rhs
    coeff, rest = lhs.as_independent(x, as_Add=False)
    if isinstance(rest, sp.log) and not rhs.has(x) and coeff != 1:
        base = sp.exp(1 / coeff)
        base = sp.nsimplify(base) if base.is_number else base
        if base.is_Integer:
            new = sp.Eq(rest.args[0], sp.Pow(base, rhs, evaluate=False))
            b = bare_tex(base)
            why = f"$\\log_{{{b}}} u = k$ means $u = {b}^k$"
            return [Move("exp-form", "rewrite in exponential form", why, "rewrite", new)]
        return [_scale_log(state, coeff)]
    if isinstance(lhs, sp.log) and not rhs.has(x):
        new = sp.Eq(lhs.args[0], sp.exp(rhs) if rhs.free_symbols or rhs != 0 else sp.S.One)
        why = "$\\ln u = k$ means $u = e^k$"
        return [Move("exp-form", "exponentiate both sides", why, "rewrite", new)]
    return []


def _scale_log(state: sp.Eq, coeff: sp.Basic) -> Move:
    new = sp.Eq(sp.expand_mul(state.lhs / coeff), sp.expand_mul(state.rhs / coeff))
    return Move(
        "divide", f"divide both sides by {tex(coeff)}", "isolate the logarithm", "rewrite", new
    )


def evaluate_power_move(state: sp.Basic) -> list[Move]:
    """Evaluate what a previous move left unevaluated (2^3 → 8, ln 2 / ln 4 → 1/2)."""
    cases = state.args if isinstance(state, sp.Or) else (state,)
    if not all(isinstance(c, sp.Eq) for c in cases):
        return []
    done = [sp.Eq(c.lhs, _tidy(c.rhs.doit())) for c in cases]
    new = sp.Or(*done) if len(done) > 1 else done[0]
    if to_latex(new) == to_latex(state):
        return []
    return [Move("evaluate", "simplify the value", "arithmetic", "rewrite", new)]


def _tidy(value: sp.Basic) -> sp.Basic:
    simpler = sp.simplify(value)
    return simpler if sp.count_ops(simpler) < sp.count_ops(value) else value


def candidate_check_moves(state: sp.Basic, p: Problem, values: list[sp.Basic]) -> list[Move]:
    """Reject the candidates that do not satisfy the original equation (extraneous roots)."""
    x, original = p.var, p.start
    if not isinstance(original, sp.Eq) or not values:
        return []
    keep, notes = [], []
    for v in values:
        verdict = _satisfies(original, x, v)
        if verdict is None:
            return []  # cannot decide: claim nothing
        if verdict:
            keep.append(v)
        else:
            notes.append(f"{_relation(x, '=', v)} does not satisfy {math(to_latex(original))}")
    if not notes:
        return []
    new = sp.Or(*[sp.Eq(x, v) for v in keep]) if keep else sp.false
    why = "; ".join(notes) + ", so it is an extraneous root and is rejected"
    return [
        Move(
            "reject-extraneous", "check the candidates in the original equation", why, "solve", new
        )
    ]


def confirm_candidates_move(state: sp.Basic, p: Problem, values: list[sp.Basic]) -> Move | None:
    """The explicit check a teacher writes when no candidate had to be rejected.

    Only for equations whose moves could add roots (denominators, radicals, logarithms, absolute
    values): the state does not change, the words record that the check was made.
    """
    x, original = p.var, p.start
    if not isinstance(original, sp.Eq) or not values or not _can_add_roots(original, x):
        return None
    if any(_satisfies(original, x, v) is not True for v in values):
        return None
    shown = ", ".join(_relation(x, "=", v) for v in values)
    why = f"each candidate ({shown}) satisfies {math(to_latex(original))}: none is extraneous"
    return Move(
        "confirm-candidates", "check the candidates in the original equation", why, "rewrite", state
    )


def _can_add_roots(original: sp.Eq, x: sp.Symbol) -> bool:
    # Cubing adds no root: an odd root counts as its radicand (which may still hold a radical).
    expr = _odd_roots_opened(original.lhs - original.rhs)
    if any(d.has(x) for d in (sp.fraction(sp.together(t))[1] for t in sp.Add.make_args(expr))):
        return True
    # |u| = k with k free of x splits into an equivalent pair; x outside the bars can add roots.
    outside_abs = expr.replace(sp.Abs, lambda *args: sp.S.Zero).has(x)
    return any(
        (isinstance(a, sp.Pow) and a.exp.is_Rational and not a.exp.is_Integer and a.has(x))
        or (isinstance(a, sp.log) and a.has(x))
        or (isinstance(a, sp.Abs) and a.has(x) and outside_abs)
        for a in sp.preorder_traversal(expr)
    )


def _odd_roots_opened(e: sp.Basic) -> sp.Basic:
    """Each real odd root sgn(u)·|u|^(1/n) in ``e`` replaced by u."""

    def opened(m: sp.Basic) -> sp.Basic:
        for f in m.args:
            found = odd_root_of(sp.Mul(*(g for g in m.args if g is f or _pairs_with(g, f))))
            if isinstance(f, sp.sign) and found is not None:
                rest = [g for g in m.args if g is not f and not _pairs_with(g, f)]
                return sp.Mul(*rest, found[0])
        return m

    e = e.replace(lambda m: isinstance(m, sp.Mul) and m.has(sp.sign), opened)
    return e.replace(lambda p: odd_root_of(p) is not None, lambda p: odd_root_of(p)[0])


def _pairs_with(g: sp.Basic, f: sp.Basic) -> bool:
    return isinstance(g, sp.Pow) and isinstance(f, sp.sign) and g.base == sp.Abs(f.args[0])


def _satisfies(original: sp.Eq, x: sp.Symbol, v: sp.Basic) -> bool | None:
    try:
        left = original.lhs.subs(x, v)
        right = original.rhs.subs(x, v)
    except (TypeError, ValueError, ZeroDivisionError):
        return False
    if any(e.has(sp.zoo, sp.nan, sp.oo, -sp.oo) for e in (left, right)):
        return False
    if any(e.is_real is False for e in (left, right)):
        return False
    diff = sp.simplify(left - right)
    if diff.is_zero:
        return True
    if diff.is_number:
        return bool(abs(sp.N(diff, 30)) < 1e-20) if diff.is_real is not False else False
    return None


def out_of_range_moves(case: sp.Basic) -> list[Move]:
    """sin u = c or cos u = c with |c| > 1: no real solution, said with the reason (the
    function's range), instead of a search that stops at sin x = 5 with nothing left to try."""
    if not isinstance(case, sp.Eq):
        return []
    for side, value in ((case.lhs, case.rhs), (case.rhs, case.lhs)):
        trig = isinstance(side, (sp.sin, sp.cos))
        if trig and value.is_number and value.is_real and abs(value) > 1:
            name = "\\sin" if isinstance(side, sp.sin) else "\\cos"
            bounds = math(f"-1 \\le {name} u \\le 1")
            why = f"{bounds} for every real u, and {math(bare_tex(value))} lies outside"
            return [Move("out-of-range", "no real solution", why, "solve", sp.false)]
    return []
