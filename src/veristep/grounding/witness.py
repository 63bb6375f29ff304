"""Witnesses a person can check by hand: a point where two sides differ, values that fail.

>>> from sympy import symbols
>>> x = symbols("x", real=True)
>>> point_difference(x**2, x + 3, x)
{'x': '0', 'previous': '0', 'next': '3'}
>>> show([7, -1])
'7, -1'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sympy import Expr, Rational, S, Symbol, preorder_traversal, sstr

# Small, human-checkable points tried in order.
CANDIDATE_POINTS = (0, 1, 2, -1, 3, -2, Rational(1, 2), 5, -3, 10)


def show(values: Iterable[Any]) -> str:
    return ", ".join(sstr(v) for v in values)


def value_at(e: Expr, var: Symbol, point: Any) -> Expr | None:
    """The exact value of ``e`` at ``var = point`` when it is a finite real number, else None."""
    return real_value(e, {var: point})


def real_value(e: Expr, subs: dict[Symbol, Any]) -> Expr | None:
    """``e`` at the point ``subs`` when ``e`` is defined there over the reals, else None.

    Defined means every subterm is a finite real, not only the result: SymPy happily computes
    ``sqrt(-2)·sqrt(-3) = -sqrt(6)``, but a point outside the real domain is no witness.

    >>> from sympy import sqrt, symbols
    >>> a = symbols("a", real=True)
    >>> real_value(sqrt(a - 2) * sqrt(a - 3), {a: 0}) is None
    True
    >>> real_value(sqrt(a - 2) * sqrt(a - 3), {a: 4})
    sqrt(2)
    """
    v = _finite_real(e.subs(subs))
    if v is None:
        return None
    for node in preorder_traversal(e):
        if node is e or not isinstance(node, Expr) or not node.free_symbols:
            continue
        if _finite_real(node.subs(subs)) is None:
            return None
    return v


def _finite_real(v: Expr) -> Expr | None:
    if v.free_symbols or v.has(S.ComplexInfinity, S.NaN, S.Infinity, S.NegativeInfinity):
        return None
    if v.is_real is False or not v.evalf(30).is_real:
        return None
    return v


def point_difference(prev: Expr, nxt: Expr, var: Symbol) -> dict[str, str] | None:
    """The first candidate point where both sides are finite reals and provably differ."""
    from veristep.grounding.rewrite import is_nonzero_constant

    kinks = _kinks(prev, var) | _kinks(nxt, var)
    for p in CANDIDATE_POINTS:
        if any(k.subs(var, p) == 0 for k in kinks):
            continue  # |·| or sign(·) switches there: a derivative read off there is no witness
        a, b = value_at(prev, var, p), value_at(nxt, var, p)
        if a is None or b is None:
            continue
        if is_nonzero_constant(a - b):
            return {var.name: sstr(p), "previous": sstr(a), "next": sstr(b)}
    return None


def _kinks(e: Expr, var: Symbol) -> set[Expr]:
    """Arguments of |·|, sign(·) and Heaviside(·) in ``e`` that depend on ``var``."""
    from sympy import Abs, Heaviside, sign

    return {f.args[0] for f in e.atoms(Abs, sign, Heaviside) if f.args[0].has(var)}


def describe_point(w: dict[str, str], var: Symbol) -> str:
    return (
        f"at {var.name} = {w[var.name]} the previous is {w['previous']} and the next is {w['next']}"
    )


def sides_at(statement: Any, var: Symbol, value: Any) -> dict[str, str] | None:
    """Each side of an equation or inequality at ``var = value``, for a person to redo the
    substitution ("put x = 19 into 2x = 22: the left side is 38, the right side 22").

    In a conjunction (a statement with its written domain) the first relation that fails there
    is the one shown. None when no relation has both sides finite reals at that point.

    >>> from sympy import Eq, symbols
    >>> x = symbols("x", real=True)
    >>> sides_at(Eq(2 * x + 8, 30), x, 3)
    {'left': '14', 'right': '30'}
    """
    from sympy import And, Or
    from sympy.core.relational import Relational

    relations = [statement]
    if isinstance(statement, (And, Or)):
        relations = [a for a in statement.args if isinstance(a, Relational)]
    found = None
    for rel in relations:
        if not isinstance(rel, Relational):
            continue
        left, right = value_at(rel.lhs, var, value), value_at(rel.rhs, var, value)
        if left is None or right is None:
            continue
        sides = {"left": sstr(left), "right": sstr(right)}
        if rel.func(left, right) is S.false:
            return sides
        found = found or sides
    return found
