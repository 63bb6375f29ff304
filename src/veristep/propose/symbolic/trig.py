"""Trigonometric identities, one named identity per move.

Each rule rewrites every place where it applies and names exactly the identity it used, so a
"Pythagorean identity" step really is one. When SymPy's own arithmetic would silently finish the
job (``\\frac{\\sin x}{\\cos x} \\cos x`` becomes ``\\sin x`` on construction), the identity is
shown as its own line first and the arithmetic follows as a second, so no work is hidden.

>>> x = sp.Symbol("x")
>>> [m.operation for m in trig_moves(sp.sin(x) ** 2 + sp.cos(x) ** 2 + 2, None)]
['use $\\\\sin^2 u + \\\\cos^2 u = 1$']
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem
from veristep.propose.symbolic.printer import to_latex

sin, cos, tan = sp.sin, sp.cos, sp.tan
TRIG_FUNCTIONS = (sp.sin, sp.cos, sp.tan, sp.sec, sp.csc, sp.cot)
# The moves that cite one named identity (the planner does not let one of them be a whole proof).
IDENTITY_MOVES = frozenset({"pythagorean", "double-angle", "cos-double", "sum-formula", "quotient"})

# Pairs of terms that one identity turns into one term: (A, B, result) means c·A + c·B → c·result.
_PAIRS: list[tuple[str, str, Callable, Callable, Callable]] = [
    ("pythagorean", "use $\\sin^2 u + \\cos^2 u = 1$",
     lambda u: sin(u) ** 2, lambda u: cos(u) ** 2, lambda u: sp.S.One),
    ("pythagorean", "use $1 - \\cos^2 u = \\sin^2 u$",
     lambda u: sp.S.One, lambda u: -cos(u) ** 2, lambda u: sin(u) ** 2),
    ("pythagorean", "use $1 - \\sin^2 u = \\cos^2 u$",
     lambda u: sp.S.One, lambda u: -sin(u) ** 2, lambda u: cos(u) ** 2),
    ("pythagorean", "use $1 + \\tan^2 u = \\frac{1}{\\cos^2 u}$",
     lambda u: sp.S.One, lambda u: tan(u) ** 2, lambda u: 1 / cos(u) ** 2),
    ("pythagorean", "use $\\frac{1}{\\cos^2 u} - 1 = \\tan^2 u$",
     lambda u: 1 / cos(u) ** 2, lambda u: sp.S.NegativeOne, lambda u: tan(u) ** 2),
    ("double-angle", "use $\\cos^2 u - \\sin^2 u = \\cos 2u$",
     lambda u: cos(u) ** 2, lambda u: -sin(u) ** 2, lambda u: cos(2 * u)),
]  # fmt: skip


def _angles(e: sp.Basic) -> list[sp.Basic]:
    found = {f.args[0] for f in e.atoms(sin, cos, tan)}
    return sorted(found, key=sp.default_sort_key)


def _pair_rule(e: sp.Basic, a_of, b_of, r_of) -> dict:
    """c·A + c·B → c·R in the first sum of ``e`` where it applies ({} when nowhere)."""
    for s in sp.preorder_traversal(e):
        if not isinstance(s, sp.Add):
            continue
        for u in _angles(s):
            a, b, r = a_of(u), b_of(u), r_of(u)
            found = _pair_in_sum(s, a, b)
            if found is not None:
                return {s: s - found * a - found * b + found * r}
    return {}


def _double_angle_forward(e: sp.Basic) -> list[tuple[str, str, sp.Basic]]:
    out = []

    def half(arg: sp.Basic) -> sp.Basic | None:
        coeff = arg.as_coeff_Mul()[0]
        return arg / 2 if coeff.is_Integer and coeff % 2 == 0 else None

    sin2 = {s: 2 * sin(half(s.args[0])) * cos(half(s.args[0]))
            for s in e.atoms(sin) if half(s.args[0]) is not None}  # fmt: skip
    if sin2:
        out.append(("double-angle", "use $\\sin 2u = 2 \\sin u \\cos u$", sin2))
    cos2 = [c for c in e.atoms(cos) if half(c.args[0]) is not None]
    for name, words, form in (
        ("cos-double", "use $\\cos 2u = \\cos^2 u - \\sin^2 u$", lambda u: cos(u)**2 - sin(u)**2),
        ("cos-double", "use $\\cos 2u = 1 - 2 \\sin^2 u$", lambda u: 1 - 2 * sin(u) ** 2),
        ("cos-double", "use $\\cos 2u = 2 \\cos^2 u - 1$", lambda u: 2 * cos(u) ** 2 - 1),
    ):  # fmt: skip
        if cos2:
            out.append((name, words, {c: form(half(c.args[0])) for c in cos2}))
    return out


def _pair_in_sum(s: sp.Add, a: sp.Basic, b: sp.Basic) -> sp.Basic | None:
    """The largest c with c·A and c·B both inside the sum (``1 - 2\\sin^2 x`` holds
    ``1 - \\sin^2 x``), or None."""

    def ratio(pattern: sp.Basic) -> list[sp.Basic]:
        out = []
        for term in sp.Add.make_args(s):
            c = term / pattern
            if c.is_number and c != 0:
                out.append(c)
        return out

    for c1 in ratio(a):
        for c2 in ratio(b):
            if (c1 / c2).is_positive:
                return c1 if abs(c1) <= abs(c2) else c2
    return None


def _sin_double_reverse(e: sp.Basic) -> dict:
    """2 sin u cos u → sin 2u in the first product where it applies."""
    for m in sp.preorder_traversal(e):
        if not isinstance(m, sp.Mul):
            continue
        for u in _angles(m):
            q = sp.cancel(m / (sin(u) * cos(u)))
            if q.has(sin(u), cos(u)):
                continue
            coeff, _ = q.as_coeff_Mul()
            if coeff.is_Rational and (coeff / 2).is_Integer:
                half = q / 2
                if not half.has(sin(2 * u)):
                    return {m: half * sin(2 * u)}
                with sp.evaluate(False):  # keep sin 2u / sin 2u visible before it cancels
                    return {m: sp.Mul(half, sin(2 * u))}
    return {}


def _sum_formula(e: sp.Basic) -> list[tuple[str, str, dict]]:
    """sin(a ± b), cos(a ± b) expanded (arguments that are sums)."""
    subs = {}
    for f in e.atoms(sin, cos):
        arg = f.args[0]
        if isinstance(arg, sp.Add) and len(arg.args) == 2:
            a, b = arg.args
            with sp.evaluate(False):  # cos(π/3) stays visible until the next line evaluates it
                if isinstance(f, sin):
                    subs[f] = sp.Add(sin(a) * cos(b), cos(a) * sin(b))
                else:
                    subs[f] = sp.Add(cos(a) * cos(b), -sin(a) * sin(b))
    if not subs:
        return []
    return [("sum-formula", "use the angle-sum formulas "
             "$\\sin(a + b) = \\sin a \\cos b + \\cos a \\sin b$, "
             "$\\cos(a + b) = \\cos a \\cos b - \\sin a \\sin b$", subs)]  # fmt: skip


# The angle-sum formulas read right to left: (first factor pair, second pair, sign between the
# terms, the function of the combined angle, the sign inside it, the words).
_SUM_REVERSED = [
    (sin, cos, cos, sin, 1, sin, 1, "use $\\sin a \\cos b + \\cos a \\sin b = \\sin(a + b)$"),
    (sin, cos, cos, sin, -1, sin, -1, "use $\\sin a \\cos b - \\cos a \\sin b = \\sin(a - b)$"),
    (cos, cos, sin, sin, -1, cos, 1, "use $\\cos a \\cos b - \\sin a \\sin b = \\cos(a + b)$"),
    (cos, cos, sin, sin, 1, cos, -1, "use $\\cos a \\cos b + \\sin a \\sin b = \\cos(a - b)$"),
]  # fmt: skip


def _sum_reverse(e: sp.Basic) -> list[tuple[str, str, dict]]:
    """``sin a cos b + cos a sin b → sin(a + b)`` (and the other three): the combined angle is
    left unevaluated (``\\sin(x + 2x)``), so adding the angles is a line of its own."""
    if not isinstance(e, sp.Add):
        return []
    terms = sp.Add.make_args(e)
    angles = _angles(e)
    for f1, g1, f2, g2, sign, outer, inner, words in _SUM_REVERSED:
        for t1 in terms:
            for t2 in terms:
                if t1 is t2:
                    continue
                for a in angles:
                    for b in angles:
                        if a == b:
                            continue
                        c = sp.cancel(t1 / (f1(a) * g1(b)))
                        if c.has(sin, cos, tan) or sp.expand(t2 - sign * c * f2(a) * g2(b)) != 0:
                            continue
                        with sp.evaluate(False):
                            angle = sp.Add(a, b) if inner == 1 else sp.Add(a, sp.Mul(-1, b))
                        combined = c * outer(angle)
                        return [("sum-formula", words, {e: e - t1 - t2 + combined})]
    return []


def _double_as_sum(e: sp.Basic) -> list[tuple[str, str, dict]]:
    """``\\cos^2 u - \\sin^2 u → \\cos(u + u)`` and ``2 \\sin u \\cos u → \\sin(u + u)``: the
    angle-sum formula with a = b, the way the double-angle formulas are proved. Offered beside
    the double-angle identity, so a task that *is* that identity is proved, not cited."""
    out = []
    for s in (a for a in sp.preorder_traversal(e) if isinstance(a, sp.Add)):
        for u in _angles(s):
            found = _pair_in_sum(s, cos(u) ** 2, -(sin(u) ** 2))
            if found is not None:
                with sp.evaluate(False):
                    twice = cos(sp.Add(u, u))
                words = "use $\\cos(a + b) = \\cos a \\cos b - \\sin a \\sin b$ with $a = b$"
                new = s - found * cos(u) ** 2 + found * sin(u) ** 2 + found * twice
                out.append(("sum-formula", words, {s: new}))
                break
        if out:
            break
    for m in (a for a in sp.preorder_traversal(e) if isinstance(a, sp.Mul)):
        for u in _angles(m):
            q = sp.cancel(m / (2 * sin(u) * cos(u)))
            if not q.has(sin, cos, tan):
                with sp.evaluate(False):
                    twice = sin(sp.Add(u, u))
                words = "use $\\sin(a + b) = \\sin a \\cos b + \\cos a \\sin b$ with $a = b$"
                return [*out, ("sum-formula", words, {m: q * twice})]
    return out


def _reciprocal(e: sp.Basic) -> dict:
    """``\\sec u``, ``\\csc u``, ``\\cot u`` written with sine and cosine."""
    subs: dict = {}
    for f in e.atoms(sp.sec, sp.csc, sp.cot):
        u = f.args[0]
        with sp.evaluate(False):
            subs[f] = {sp.sec: sp.Pow(cos(u), -1), sp.csc: sp.Pow(sin(u), -1),
                       sp.cot: sp.Mul(cos(u), sp.Pow(sin(u), -1))}[type(f)]  # fmt: skip
    return subs


_RECIPROCAL_WORDS = {
    sp.sec: "$\\sec u = \\frac{1}{\\cos u}$",
    sp.csc: "$\\csc u = \\frac{1}{\\sin u}$",
    sp.cot: "$\\cot u = \\frac{\\cos u}{\\sin u}$",
}


def _common_denominator(e: sp.Basic) -> dict:
    """The first sum holding a trigonometric denominator, over one denominator
    (``\\frac{1}{\\cos x} - \\cos x = \\frac{1 - \\cos^2 x}{\\cos x}``)."""
    for s in sp.preorder_traversal(e):
        if not isinstance(s, sp.Add):
            continue
        if not any(sp.fraction(t)[1].has(sin, cos, tan) for t in sp.Add.make_args(s)):
            continue
        combined = sp.together(s)
        if combined != s and sp.fraction(combined)[1] != 1:
            return {s: combined}
    return {}


def _quotient(e: sp.Basic) -> dict:
    return {t: sin(t.args[0]) / cos(t.args[0]) for t in e.atoms(tan)}


def trig_moves(state: sp.Basic, p: Problem | None) -> list[Move]:
    """Every identity that applies, each as its own move."""
    if not isinstance(state, sp.Expr) or not state.has(*TRIG_FUNCTIONS):
        return []
    subs_moves = [(name, words, _pair_rule(state, a_of, b_of, r_of))
                  for name, words, a_of, b_of, r_of in _PAIRS]  # fmt: skip
    subs_moves.append(("double-angle", "use $2 \\sin u \\cos u = \\sin 2u$",
                       _sin_double_reverse(state)))  # fmt: skip
    subs_moves += _sum_reverse(state) + _double_as_sum(state)
    subs_moves += _double_angle_forward(state) + _sum_formula(state)
    reciprocal = _reciprocal(state)
    if reciprocal:
        used = [_RECIPROCAL_WORDS[f] for f in (sp.sec, sp.csc, sp.cot) if state.has(f)]
        subs_moves.append(("reciprocal", "write " + ", ".join(used), reciprocal))
    common = _common_denominator(state)
    if common:
        subs_moves.append(("common-denominator", "write over a common denominator", common))
    quotient = _quotient(state)
    if quotient:
        subs_moves.append(("quotient", "write $\\tan u$ as $\\frac{\\sin u}{\\cos u}$", quotient))
    moves = [_substituted(state, name, words, subs) for name, words, subs in subs_moves if subs]
    moves.append(_to_tangent(state))
    moves.append(_to_cotangent(state))
    moves += _to_reciprocal(state, p)
    return [m for m in moves if m is not None]


def _to_reciprocal(state: sp.Basic, p: Problem | None) -> list[Move]:
    """``\\frac{1}{\\cos^n u}`` written as ``\\sec^n u`` (``\\frac{1}{\\sin^n u}`` as ``\\csc^n u``)
    where the target is written with sec (csc) of that angle: the reciprocal identity read
    backwards, as a teacher ends ``\\csc x \\tan x = \\frac{1}{\\cos x} = \\sec x``."""
    target = p.target if p is not None else None
    if not isinstance(target, sp.Basic):
        return []
    moves = []
    for base, reciprocal, words in (
        (cos, sp.sec, "write $\\frac{1}{\\cos u}$ as $\\sec u$"),
        (sin, sp.csc, "write $\\frac{1}{\\sin u}$ as $\\csc u$"),
    ):
        wanted = {f.args[0] for f in target.atoms(reciprocal)}
        subs = {
            power: reciprocal(power.base.args[0]) ** -power.exp
            for power in state.atoms(sp.Pow)
            if isinstance(power.base, base) and power.base.args[0] in wanted
            and power.exp.is_Integer and power.exp < 0
        }  # fmt: skip
        if subs:
            new = state.xreplace(subs)
            moves.append(Move("reciprocal", words, "the reciprocal identities", "rewrite", new))
    return moves


def _to_tangent(state: sp.Basic) -> Move | None:
    """A product holding ``\\sin^m u`` and ``\\cos^{-n} u`` written with ``\\tan^k u``,
    k = min(m, n): ``\\frac{\\sin^2 x}{\\cos x} = \\sin x \\tan x``."""
    return _to_quotient(state, sin, cos, tan, "write $\\frac{\\sin u}{\\cos u}$ as $\\tan u$")


def _to_cotangent(state: sp.Basic) -> Move | None:
    """``\\frac{\\cos^m u}{\\sin^n u}`` written with ``\\cot^k u``, k = min(m, n), the cotangent
    twin of :func:`_to_tangent` (``\\frac{\\cos^2 x}{\\sin x} = \\cos x \\cot x``)."""
    return _to_quotient(state, cos, sin, sp.cot, "write $\\frac{\\cos u}{\\sin u}$ as $\\cot u$")


def _to_quotient(
    state: sp.Basic, top: type, bottom: type, quotient: type, words: str
) -> Move | None:
    """The first product holding ``top(u)^m`` over ``bottom(u)^n``, written with
    ``quotient(u)^k``, k = min(m, n)."""
    for m in sp.preorder_traversal(state):
        if not isinstance(m, sp.Mul):
            continue
        powers = m.as_powers_dict()
        for u in _angles(m):
            up, down = sp.S(powers.get(top(u), 0)), -sp.S(powers.get(bottom(u), 0))
            if not (up.is_Integer and down.is_Integer and up > 0 and down > 0):
                continue
            k = min(up, down)
            new = state.xreplace({m: m * (bottom(u) / top(u)) ** k * quotient(u) ** k})
            return Move("quotient", words, "the quotient identity", "rewrite", new)
    return None


def _why(name: str) -> str:
    return {
        "pythagorean": "the Pythagorean identity",
        "double-angle": "the double-angle formula",
        "cos-double": "the double-angle formula for cosine",
        "sum-formula": "the angle-sum formula",
        "quotient": "the quotient identity",
        "reciprocal": "the reciprocal identities",
        "common-denominator": "adding fractions",
    }[name]


def _substituted(state: sp.Basic, name: str, words: str, subs: dict) -> Move | None:
    """Replace, and when SymPy's automatic arithmetic changes the result further, show the
    identity's line first and the arithmetic as the move itself."""
    with sp.evaluate(False):
        shown = state.xreplace(subs)
        # A sum that became 1 leaves a factor 1 that nobody writes (\frac{1}{\cos^2 x} \cdot 1).
        shown = shown.replace(
            lambda e: e.is_Mul and sp.S.One in e.args,
            lambda e: sp.Mul(*[a for a in e.args if a != sp.S.One]),
        )
    new = shown.doit()
    if new == state:
        return None
    shown_tex, new_tex = to_latex(shown), to_latex(new)
    if shown_tex == new_tex:
        return Move(name, words, _why(name), "rewrite", new)
    before = ((words, _why(name), shown_tex),)
    if _angles_to_add(subs):
        return Move(name, "add the angles", "collect like terms", "rewrite", new, before=before)
    return Move(name, "simplify", "cancel common factors and collect like terms", "rewrite", new,
                before=before)  # fmt: skip


def _angles_to_add(subs: dict) -> bool:
    """The identity left a combined angle unevaluated (``x + 2x``), and only that is left to do."""
    inside = [f.args[0] for v in subs.values() for f in sp.sympify(v).atoms(sin, cos, tan)]
    return any(isinstance(a, sp.Add) and a.doit() != a for a in inside)
