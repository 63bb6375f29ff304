"""Finite sums by the standard formulas: linearity, then the closed forms of the power sums and of
the geometric series.

>>> k, n = sp.symbols("k n", integer=True, positive=True)
>>> s = sp.Sum(2 * k + 1, (k, 1, n))
>>> [m.name for m in sum_moves(s, None)]
['sum-split']
"""

from __future__ import annotations

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem, apply_first_rule, tex

# Closed forms of sum_{k=1}^{n} k^p, with the name a teacher would cite.
_POWER_SUMS = {
    0: ("$\\sum_{k=1}^{n} 1 = n$", lambda n: n),
    1: ("$\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$", lambda n: n * (n + 1) / 2),
    2: ("$\\sum_{k=1}^{n} k^2 = \\frac{n(n+1)(2n+1)}{6}$", lambda n: n * (n + 1) * (2 * n + 1) / 6),
    3: (
        "$\\sum_{k=1}^{n} k^3 = \\left(\\frac{n(n+1)}{2}\\right)^2$",
        lambda n: (n * (n + 1) / 2) ** 2,
    ),
}


def _pending(expr: sp.Basic) -> list[sp.Sum]:
    return [s for s in sp.preorder_traversal(expr) if isinstance(s, sp.Sum) and len(s.limits) == 1]


def _closed_form(
    f: sp.Basic, k: sp.Symbol, lo: sp.Basic, hi: sp.Basic
) -> tuple[str, sp.Basic] | None:
    if lo == 1:
        if not f.has(k):
            return "a sum of $n$ equal terms", f * hi
        if f == k or (isinstance(f, sp.Pow) and f.base == k and f.exp in _POWER_SUMS):
            power = 1 if f == k else int(f.exp)
            name, formula = _POWER_SUMS[power]
            with sp.evaluate(False):
                value = formula(hi)
            return name, value
    if isinstance(f, sp.Pow) and f.exp == k and not f.base.has(k) and f.base != 1:
        r = f.base
        value = (r ** (hi + 1) - r**lo) / (r - 1)
        return "geometric series: $\\sum_{k=m}^{n} r^k = \\frac{r^{n+1} - r^m}{r - 1}$", value
    return None


def _one(s: sp.Sum) -> Move | None:
    f, (k, lo, hi) = s.function, s.limits[0]
    if isinstance(f, sp.Add):
        return Move(
            "sum-split",
            "split the sum",
            "linearity of the sum",
            "rewrite",
            sp.Add(*[sp.Sum(t, (k, lo, hi)) for t in f.args]),
        )
    const, rest = f.as_independent(k, as_Add=False)
    if const != 1 and rest != 1:
        return Move(
            "sum-constant",
            f"take the constant {tex(const)} out of the sum",
            "linearity of the sum",
            "rewrite",
            const * sp.Sum(rest, (k, lo, hi)),
        )
    if f.is_polynomial(k) and sp.expand(f) != f:
        return Move(
            "sum-expand",
            "expand the summand",
            "distributive law",
            "rewrite",
            sp.Sum(sp.expand(f), (k, lo, hi)),
        )
    found = _closed_form(f, k, lo, hi)
    if found is not None:
        return Move("sum-formula", "apply the standard formula", found[0], "rewrite", found[1])
    value = sp.summation(f, (k, lo, hi))
    if value.has(sp.Sum):
        return None
    return Move("sum-evaluate", "evaluate the sum", "symbolic summation", "rewrite", value)


def sum_moves(state: sp.Basic, p: Problem | None) -> list[Move]:
    """Apply the rule of the first pending sum wherever that same rule applies."""
    return apply_first_rule(state, _pending(state), _one)


def has_pending_sum(state: sp.Basic) -> bool:
    return bool(_pending(state))
