"""Definite integrals from SymPy's own integration steps, then the evaluation at the bounds.

Linearity first (split sums, take constants out), then integration by parts when SymPy's
``integral_steps`` chooses it, otherwise the antiderivative of one piece, evaluated as F(b) − F(a).

>>> x = sp.Symbol("x")
>>> s = sp.Integral(3 * x**2 + 2 * x, (x, 0, 1))
>>> [m.name for m in integral_moves(s, None)]
['integral-sum']
"""

from __future__ import annotations

import sympy as sp
from sympy.integrals.manualintegrate import PartsRule, integral_steps

from veristep.propose.symbolic.moves import Move, Problem, apply_first_rule, bare_tex, math, tex


def _definite(expr: sp.Basic) -> list[sp.Integral]:
    return [
        i
        for i in sp.preorder_traversal(expr)
        if isinstance(i, sp.Integral) and len(i.limits) == 1 and len(i.limits[0]) == 3
    ]


def _bounds(F: sp.Basic, x: sp.Symbol, a: sp.Basic, b: sp.Basic) -> sp.Basic:
    """F(b) - F(a), simplified: the value of the integral."""
    return sp.simplify(F.subs(x, b) - F.subs(x, a))


def _one(i: sp.Integral) -> Move | None:
    f, (x, a, b) = i.function, i.limits[0]
    if isinstance(f, sp.Add):
        new = sp.Add(*[sp.Integral(t, (x, a, b)) for t in f.args])
        return Move(
            "integral-sum",
            "split the integral of the sum",
            "linearity of the integral",
            "rewrite",
            new,
        )
    const, rest = f.as_independent(x, as_Add=False)
    if const != 1 and rest != 1:
        return Move(
            "integral-constant",
            f"take the constant {tex(const)} out of the integral",
            "linearity of the integral",
            "rewrite",
            const * sp.Integral(rest, (x, a, b)),
        )
    rule = integral_steps(f, x)
    if isinstance(rule, PartsRule):
        u, dv = rule.u, rule.dv
        v = sp.integrate(dv, x)
        boundary, rest = _bounds(u * v, x, a, b), sp.Integral(v * sp.diff(u, x), (x, a, b))
        with sp.evaluate(False):
            new = sp.Add(boundary, sp.Mul(-1, rest))
        parts = math("\\int u\\,dv = [uv] - \\int v\\,du")
        why = f"{parts} with {math('u = ' + bare_tex(u))}, {math('dv = ' + bare_tex(dv) + ' dx')}"
        return Move("parts", "integrate by parts", why, "rewrite", new)
    F = rule.eval() if not rule.contains_dont_know() else sp.integrate(f, x)
    if F.has(sp.Integral):
        return None
    bounds = math(f"F({bare_tex(b)}) - F({bare_tex(a)})")
    why = f"an antiderivative of {tex(f)} is {math('F = ' + bare_tex(F))}; {bounds}"
    return Move(
        "antiderivative",
        "evaluate the integral with an antiderivative",
        why,
        "rewrite",
        _bounds(F, x, a, b),
    )


def integral_moves(state: sp.Basic, p: Problem | None) -> list[Move]:
    """Apply the rule of the first pending integral wherever that same rule applies."""
    return apply_first_rule(state, _definite(state), _one)


def has_pending_integral(state: sp.Basic) -> bool:
    return bool(_definite(state))
