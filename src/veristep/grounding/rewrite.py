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
    Float,
    Integral,
    Limit,
    Product,
    Rational,
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
    preorder_traversal,
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
    """('zero', rewrite) | ('assumption', rewrite) | ('nonzero', constant) | ('unknown', None).

    Most residuals a cascade tests are *not* zero (a ratio, a wrong step), and proving that the
    hard way means trying every rewrite. A value at one generic point settles it first: where
    ``e`` is defined and every logarithm and power has a positive argument, no rewrite (sound or
    forced) can reach 0 if ``e`` is clearly nonzero there, so the answer is 'unknown' at once.

    >>> from sympy import log, sqrt, symbols
    >>> x, y = symbols("x y", real=True)
    >>> zero_test(x**2 - y)
    ('unknown', None)
    >>> zero_test(log(x * y) - log(x) - log(y))
    ('assumption', 'expand_log(force)')
    >>> zero_test(sqrt(x**2) - x)
    ('assumption', 'powdenest(force)')
    """
    if e == 0:
        return ("zero", "identity")
    first = expand(e)
    if first == 0:
        return ("zero", "expand")
    if is_nonzero_constant(first):
        return ("nonzero", first)
    if nonzero_at_generic_point(e):
        return ("unknown", None)
    for name, rewrite in _SOUND[1:]:  # expand is done above
        r = rewrite(e)
        if r == 0:
            return ("zero", name)
        if name == "expand" and is_nonzero_constant(r):
            return ("nonzero", r)
    for name, rewrite in _FORCED:
        if rewrite(e) == 0:
            return ("assumption", name)
    return ("unknown", None)


# Letters get distinct, unremarkable values (no roots of simple polynomials, no multiples of π),
# three points: below 1, between 1 and 3, above 3, so a logarithm of x − 1 or a root of 2 − x is
# defined at one of them at least.
_GENERIC_VALUES = (
    (Rational(7, 11), Rational(5, 13), Rational(11, 17), Rational(3, 19), Rational(13, 23)),
    (Rational(17, 11), Rational(29, 13), Rational(23, 17), Rational(41, 19), Rational(37, 23)),
    (Rational(53, 11), Rational(71, 13), Rational(97, 17), Rational(67, 19), Rational(89, 23)),
)
# Functions real and finite at every real point where their arguments are checked below:
# logarithms and powers need a positive argument, the rest are defined everywhere or give ±∞.
_TAME = frozenset({"exp", "log", "sin", "cos", "tan", "cot", "sec", "csc", "atan", "sinh",
                   "cosh", "tanh", "Abs"})  # fmt: skip
_CLEARLY_NONZERO = Float("1e-8")


def nonzero_at_generic_point(e: Expr) -> bool:
    """True when ``e`` is clearly nonzero at a point where it is defined and every argument of a
    logarithm and every base of a non-integer power is positive: then no identity, unconditional
    or valid for positive arguments, makes ``e`` zero. False says nothing.

    Only real letters without integrality assumptions are given values (an integer letter may
    make ``cos(πn)² − 1`` vanish on its whole domain), and only tame functions are evaluated.

    >>> from sympy import log, symbols
    >>> x = symbols("x", real=True)
    >>> nonzero_at_generic_point(log(x - 3) - 1)
    True
    >>> nonzero_at_generic_point((x**2 - 1) / (x - 1) - x - 1)
    False
    """
    letters = sorted(e.free_symbols, key=lambda s: s.name)
    if not letters or len(letters) > len(_GENERIC_VALUES[0]) or not _tame(e):
        return False
    if any(not s.is_real or s.is_rational or s.is_integer for s in letters):
        return False
    checked = [a for a in preorder_traversal(e) if _needs_positive(a)]
    for row in _GENERIC_VALUES:
        point = {s: (-v if s.is_nonpositive else v) for s, v in zip(letters, row, strict=False)}
        if all(_clearly(arg, point, positive=True) for arg in checked) and _clearly(e, point):
            return True
    return False


def _tame(e: Expr) -> bool:
    from sympy import Add, Mul, Number, NumberSymbol, Pow, Symbol
    from sympy.core.function import Function

    for node in preorder_traversal(e):
        if isinstance(node, (Add, Mul, Pow, Symbol, Number, NumberSymbol)):
            continue
        if isinstance(node, Function) and type(node).__name__ in _TAME:
            continue
        return False
    return True


def _needs_positive(node: Expr) -> bool:
    """The arguments that must be positive: a logarithm's, a non-integer power's base."""
    from sympy import Pow, log

    if isinstance(node, Pow):
        return not node.exp.is_integer and bool(node.base.free_symbols)
    return isinstance(node, log) and bool(node.args[0].free_symbols)


def _clearly(e: Expr, point: dict[Any, Any], positive: bool = False) -> bool:
    """``e`` at ``point`` is a finite real number clearly away from 0 (above it, if positive)."""
    from sympy import Pow, log

    target = e.args[0] if isinstance(e, log) else e.base if isinstance(e, Pow) else e
    try:
        value = target.evalf(20, subs=point, maxn=200)
    except Exception:  # an evaluation SymPy cannot do says nothing
        return False
    if not (value.is_Number and value.is_finite and value.is_real):
        return False
    return value > _CLEARLY_NONZERO if positive else abs(value) > _CLEARLY_NONZERO


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
