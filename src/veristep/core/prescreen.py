"""Refuse, before any CAS call, expressions whose size alone makes the call hopeless.

A worker would be killed at its deadline anyway; screening first gives a precise reason ("exponent
10^6 above the limit") instead of a bare timeout, and saves the deadline. The screen only reads the
tree — it never evaluates, expands or compares numbers it has not bounded, so it is safe on
``evaluate=False`` trees such as ``2**(10**(10**6))``.

>>> import sympy
>>> from veristep.core.settings import Settings
>>> x = sympy.Symbol("x")
>>> prescreen((x + 1) ** 2 - x, Settings()) is None
True
>>> prescreen((x + 1) ** (10**6), Settings())
'exponent 1000000 is above the limit of 1000 (settings.max_exponent)'
>>> prescreen(sympy.factorial(sympy.Integer(10**7), evaluate=False), Settings())
'factorial of 10000000 is above the limit of 100000'
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import sympy
from sympy import Basic

if TYPE_CHECKING:
    from veristep.core.settings import Settings

# factorial(10**5) costs milliseconds with GMP; factorial(10**7) runs for seconds. The limit scales
# with max_exponent so that one knob tightens or loosens every size screen together.
FACTORIAL_SCALE = 100

_FACTORIAL_LIKE = (sympy.factorial, sympy.factorial2, sympy.subfactorial, sympy.gamma)
_HUGE = math.inf


def prescreen(expr: Any, settings: Settings) -> str | None:
    """A human reason why ``expr`` is too big to hand to the CAS, or None when it may go.

    Checks, cheapest first: node count against ``settings.max_graph_nodes``; literal exponents
    against ``settings.max_exponent``; factorials and binomials of literals above
    ``FACTORIAL_SCALE * max_exponent``; the degree the expression would have once expanded.
    """
    if isinstance(expr, str):
        raise TypeError("prescreen takes a SymPy expression; parse the LaTeX first")
    if isinstance(expr, (list, tuple, set, frozenset)):
        expr = sympy.Tuple(*expr)
    elif not isinstance(expr, Basic):
        expr = sympy.sympify(expr)  # plain numbers, mutable matrices: cheap conversions
    nodes = 0
    stack = [expr]
    while stack:
        node = stack.pop()
        nodes += 1
        if nodes > settings.max_graph_nodes:
            return (
                f"expression has more than {settings.max_graph_nodes} nodes "
                "(settings.max_graph_nodes)"
            )
        reason = _node_reason(node, settings)
        if reason:
            return reason
        stack.extend(node.args)
    degree = _expanded_degree(expr)
    if degree > settings.max_exponent:
        return (
            f"expanding would give degree about {_show(degree)}, above the limit of "
            f"{settings.max_exponent} (settings.max_exponent)"
        )
    return None


def _node_reason(node: Basic, settings: Settings) -> str | None:
    limit = settings.max_exponent
    if isinstance(node, sympy.Pow):
        shown = _literal_above(node.exp, limit)
        if shown:
            return f"exponent {shown} is above the limit of {limit} (settings.max_exponent)"
        return None
    cap = FACTORIAL_SCALE * limit
    if isinstance(node, _FACTORIAL_LIKE):
        shown = _literal_above(node.args[0], cap)
        if shown:
            return f"{type(node).__name__} of {shown} is above the limit of {cap}"
        return None
    if isinstance(node, sympy.binomial):
        n, k = node.args
        if isinstance(n, sympy.Integer) and isinstance(k, sympy.Integer):
            # Only the smaller side costs: binomial(10**8, 2) is instant.
            k = sympy.Integer(min(int(k), int(n) - int(k)))
            n = k
        if _literal_above(n, cap) and _literal_above(k, cap):
            return f"binomial with arguments above {cap} is too big to evaluate"
    return None


def _literal_above(e: Basic, limit: int) -> str | None:
    """How ``e`` reads in a message when it is a number literal whose size exceeds ``limit``.

    A plain rational is compared exactly (numerator and denominator); an unevaluated literal tree
    such as ``10**(10**6)`` through the bound of :func:`_literal_log10`.
    """
    if isinstance(e, sympy.Rational):
        if max(abs(e.p), e.q) <= limit:
            return None
    else:
        size = _literal_log10(e)
        if size is None or size <= math.log10(limit):
            return None
    size = _literal_log10(e) or 0.0
    return str(e) if size < 30 else f"about 10^{_show(size)}"


def _literal_log10(e: Basic, depth: int = 0) -> float | None:
    """log10 of an upper bound on ``|e|`` when ``e`` is built from number literals only, else None.

    Works on the tree, so ``10**(10**100)`` costs nothing: its bound is 10^100, never the number.
    """
    if depth > 100:
        return _HUGE
    if isinstance(e, sympy.Integer):
        return _int_log10(int(e))
    if isinstance(e, sympy.Rational):
        return max(_int_log10(e.p), _int_log10(e.q))
    if isinstance(e, sympy.Float):
        return math.log10(abs(float(e))) if e.is_finite and e != 0 else 0.0
    if not e.args or not isinstance(e, (sympy.Pow, sympy.Mul, sympy.Add, *_FACTORIAL_LIKE)):
        return None
    sizes = [_literal_log10(a, depth + 1) for a in e.args]
    if any(s is None for s in sizes):
        return None
    if isinstance(e, sympy.Add):
        return max(sizes) + math.log10(len(sizes))
    if isinstance(e, sympy.Mul):
        return sum(sizes)
    if isinstance(e, sympy.Pow):
        base, exp = sizes
        return _HUGE if exp > 15 else max(base, 0.0) * 10**exp
    arg = sizes[0]  # factorial-like: n! <= n^n
    return _HUGE if arg > 15 else arg * 10**arg


def _expanded_degree(expr: Basic) -> float:
    """The largest total degree any subterm would reach if expanded; functions count as one
    generator, so ``sin(x)**3000`` is as big as ``x**3000``."""
    degree: dict[int, float] = {}
    worst = 0.0
    stack: list[tuple[Basic, bool]] = [(expr, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in degree:
            continue
        if not children_done and node.args:
            stack.append((node, True))
            stack.extend((a, False) for a in node.args)
            continue
        d = _degree_of(node, [degree[id(a)] for a in node.args])
        degree[id(node)] = d
        worst = max(worst, d)
    return worst


def _degree_of(node: Basic, child: list[float]) -> float:
    if isinstance(node, sympy.Symbol):
        return 1.0
    if not child:
        return 0.0
    if isinstance(node, sympy.Add):
        return max(child)
    if isinstance(node, sympy.Mul):
        return sum(child)
    if isinstance(node, sympy.Pow):
        size = _literal_log10(node.exp)
        if size is None or child[0] == 0:
            return child[0]
        # size bounds the exponent, so float() below only ever sees a number below 1e15.
        return _HUGE if size > 15 else child[0] * abs(float(node.exp))
    if isinstance(node, sympy.Function):
        return 1.0
    return max(child)


def _int_log10(n: int) -> float:
    n = abs(n)
    if n < 2:
        return 0.0
    if n.bit_length() < 1000:
        return math.log10(n)
    # bit_length keeps this O(1) on a million-digit integer, where str(n) would be quadratic.
    return n.bit_length() * math.log10(2)


def _show(value: float) -> str:
    return "∞" if value == _HUGE else f"{value:.3g}"
