"""Interval notation as the inequalities it abbreviates, so every check can read it.

``x \\in [2, \\infty)`` says ``x ≥ 2``; ``x \\in (-\\infty, 1) \\cup (3, \\infty)`` says
``x < 1 ∨ x > 3``; ``x \\in \\{1, 2\\}`` says ``x = 1 ∨ x = 2``. A membership in a set of real
numbers with numeric ends is rewritten as that relation before the cascade runs, so a step
between an inequality and an interval (either way round) is decided, and refuted with a point in
one set and not the other, by the same checks as any inequality. Other memberships (``k ∈ ℤ``
in a periodic family, a set with symbolic ends) are left as written.

>>> from sympy import Contains, Interval, Symbol, oo
>>> x = Symbol("x", real=True)
>>> as_relations(Contains(x, Interval(2, oo)))
2 <= x
>>> as_relations(Contains(x, Interval.open(-oo, 1) | Interval.Lopen(3, oo)))
(3 < x) | (x < 1)
"""

from __future__ import annotations

from sympy import Basic, Contains, FiniteSet, Interval, Union

_REAL_SETS = (Interval, FiniteSet, Union)


def as_relations(state: Basic) -> Basic:
    """``state`` with every membership in a numeric real set written as its relation."""
    if not isinstance(state, Basic) or not state.has(Contains):
        return state
    found = {c: c.args[1].as_relational(c.args[0]) for c in state.atoms(Contains) if _numeric(c)}
    return state.xreplace(found) if found else state


def _numeric(membership: Contains) -> bool:
    """A real element in intervals and finite sets whose ends are numbers (or ±∞): over the
    complex numbers x ≥ 2 would not say x ∈ [2, ∞)."""
    element, where = membership.args
    if not isinstance(where, _REAL_SETS) or where.free_symbols or not element.is_real:
        return False
    parts = where.args if isinstance(where, Union) else (where,)
    if not all(isinstance(p, (Interval, FiniteSet)) for p in parts):
        return False
    points = [v for p in parts if isinstance(p, FiniteSet) for v in p.args]
    return all(v.is_real for v in points)
