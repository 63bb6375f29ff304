"""Bounded zero tests: the CAS tasks behind symbolic equivalence. They run in killable workers.

The hot path never calls a blanket ``simplify``: a fixed, short list of targeted rewrites is tried
in order and the first that reaches 0 names the proof. Rewrites that are only valid for positive
arguments (``log(ab) = log a + log b`` for arbitrary reals is false) are tried last and reported
separately, because they make a step assumption-dependent (verified, never grounded).

>>> from sympy import symbols, sin, cos
>>> x = symbols("x", real=True)
>>> zero_test(sin(x)**2 + cos(x)**2 - 1)
('zero', 'trigsimp')
>>> zero_test((x - 1)**2 + 10**-12 * 0 - (x**2 - 2*x + 1))
('zero', 'expand')
>>> zero_test(x + 1 - x)
('nonzero', 1)
>>> relation_ratio(2*x - 4, x - 2)
('const', 2)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sympy import (
    Derivative,
    Expr,
    Integral,
    Limit,
    Product,
    S,
    Sum,
    cancel,
    combsimp,
    exp,
    expand,
    expand_func,
    expand_log,
    expand_power_base,
    powdenest,
    powsimp,
    radsimp,
    together,
    trigsimp,
)
from sympy.core.function import AppliedUndef

_UNEVALUATED = (Derivative, Integral, Limit, Sum, Product, AppliedUndef)

# Each rewrite is valid for every real value of every symbol (SymPy respects the symbols'
# assumptions, e.g. ``positive=True`` symbols do let expand_log split products).
_SOUND: tuple[tuple[str, Callable[[Expr], Expr]], ...] = (
    ("expand", expand),
    ("cancel", cancel),
    ("together", lambda e: expand(together(e))),
    ("trigsimp", lambda e: expand(trigsimp(e))),
    ("powsimp", lambda e: expand(powsimp(e))),
    ("expand_log", lambda e: expand(expand_log(e))),
    ("radsimp", lambda e: expand(radsimp(e))),
    ("combsimp", lambda e: expand(combsimp(expand_func(e)))),
)

# Valid only where the arguments of logs and powers are positive.
_FORCED: tuple[tuple[str, Callable[[Expr], Expr]], ...] = (
    ("expand_log(force)", lambda e: expand(expand_log(e, force=True))),
    ("powsimp(force)", lambda e: expand(powsimp(e, force=True))),
    ("powdenest(force)", lambda e: expand(powdenest(expand_power_base(e, force=True), force=True))),
    ("exp-log(force)", lambda e: expand(expand_log(e.rewrite(exp), force=True))),
)


def zero_test(e: Expr) -> tuple[str, Any]:
    """('zero', rewrite) | ('assumption', rewrite) | ('nonzero', constant) | ('unknown', None)."""
    if e == 0:
        return ("zero", "identity")
    for name, rewrite in _SOUND:
        r = rewrite(e)
        if r == 0:
            return ("zero", name)
        if name == "expand" and is_nonzero_constant(r):
            return ("nonzero", r)
    for name, rewrite in _FORCED:
        if rewrite(e) == 0:
            return ("assumption", name)
    return ("unknown", None)


def is_nonzero_constant(e: Expr) -> bool:
    """True only when ``e`` has no free symbols and is provably (or to 50 digits) nonzero."""
    if e.free_symbols or e.has(*_UNEVALUATED):
        return False  # an unevaluated integral or limit is the calculus check's business
    if e.is_zero is False:
        return True
    value = e.evalf(50)
    # A cancellation to all digits says nothing; only a clear magnitude counts.
    return bool(value.is_number and value.is_real and abs(value) > 1e-30)


def relation_ratio(r1: Expr, r2: Expr) -> tuple[str, Any]:
    """How residual ``r1`` relates to ``r2``: ('const', c) with r1 = c·r2 for a nonzero number c,
    ('factor', k) for a nonzero-looking symbolic k, or ('none', None)."""
    if zero_test(r1 - r2)[0] == "zero":
        return ("const", S.One)
    if zero_test(r1 + r2)[0] == "zero":
        return ("const", S.NegativeOne)
    if r2 == 0:
        return ("none", None)
    q = cancel(together(r1 / r2))
    if q.is_number:
        return ("const", q) if is_nonzero_constant(q) else ("none", None)
    return ("factor", q)
