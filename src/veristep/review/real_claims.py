"""Closed real claims (``\\sqrt{100\\cdot 50} = 10\\sqrt5``, ``\\sin 30^\\circ < 0.6``), decided.

Both sides are built exactly in SymPy (``review.arithmetic.real_value``) and compared in two
ways that each prove what they say:

- *different*: each side is evaluated to 60 significant digits (SymPy's ``evalf`` guarantees
  the digits it returns for a nonzero value); when the two values differ by more than a
  millionth of a millionth of their size, the sides are certainly different, and the order of
  the approximations is the order of the values;
- *equal*: when the difference is algebraic (roots only, no ``\\pi``, no logarithm), its minimal
  polynomial is ``x`` exactly when it is zero. A transcendental difference that vanishes to 40
  digits is only agreement (evidence), never a proof.

A rounded decimal side (``\\sqrt2 = 1.414``) is tolerated to one unit in its last place shown,
so truncation is not a flaw; ``\\approx`` is never refuted. This runs SymPy: call it in a worker
(``core.pool.run_cas``), where a deadline bounds it.

>>> decide_real("\\\\sqrt{100\\\\cdot50}", "=", "10\\\\sqrt5").status
'fails'
>>> decide_real("\\\\sqrt{8}", "=", "2\\\\sqrt2").status, decide_real("\\\\pi", ">", "3.14").status
('holds', 'holds')
>>> decide_real("\\\\sqrt2", "=", "1.414").status
'rounded'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from veristep.review.arithmetic import decimals_shown, real_angle

DIGITS = 60
_SEPARATED = Fraction(1, 10**12)  # relative gap that 60-digit values cannot fake
_AGREEMENT = Fraction(1, 10**40)


@dataclass(frozen=True)
class RealDecision:
    """``holds`` / ``fails`` (proofs), ``rounded`` / ``agrees`` / ``unknown`` (no proof)."""

    status: str
    left: str = ""
    right: str = ""
    reason: str = ""


def decide_real(lhs: str, rel: str, rhs: str) -> RealDecision:
    """Decide ``lhs rel rhs`` for closed real arithmetic (see the module docstring)."""
    import sympy as sp

    read_left, read_right = real_angle(lhs), real_angle(rhs)
    if read_left is None or read_right is None:
        return RealDecision("unknown", reason="not closed real arithmetic")
    (left, left_angle), (right, right_angle) = read_left, read_right
    if left_angle != right_angle:  # "-48 + 180 = 132^\circ": a dropped unit, not a slip
        return RealDecision("unknown", reason="one side is in degrees, the other a bare number")
    a, b = _digits(left), _digits(right)
    if a is None or b is None:
        return RealDecision("unknown", reason="a side is not a finite real number")
    shown = (_show(left, a), _show(right, b))
    scale = max(Fraction(1), abs(a), abs(b))
    gap = a - b
    if rel == "~":
        return RealDecision("unknown", *shown, "an approximation: never refuted")
    if abs(gap) > _SEPARATED * scale:
        if rel == "=" and _turns_apart(sp, left - right):
            return RealDecision("unknown", *shown, "equal as directed angles (mod 180°)")
        holds = {"=": False, "!=": True, "<": a < b, "<=": a < b, ">": a > b, ">=": a > b}[rel]
        if not holds and rel == "=" and _rounded(lhs, rhs, gap):
            return RealDecision("rounded", *shown, "agrees to the decimals shown")
        return RealDecision("holds" if holds else "fails", *shown, "values compared to 60 digits")
    if abs(gap) > _AGREEMENT * scale:
        return RealDecision("unknown", *shown, "the sides differ only beyond 12 digits")
    if _exactly_equal(sp, left - right):
        holds = rel in ("=", "<=", ">=")
        return RealDecision("holds" if holds else "fails", *shown, "equal exactly")
    return RealDecision("agrees", *shown, "the sides agree to 40 digits (not a proof)")


def _turns_apart(sp: Any, difference: Any) -> bool:
    """Angles a multiple of 180° apart: ``240^\\circ = -120^\\circ`` is a convention, not a slip."""
    if not difference.has(sp.pi):
        return False
    return bool(sp.simplify(difference / sp.pi).is_integer)


def _digits(value: Any) -> Fraction | None:
    """A 60-digit rational approximation of a real value, or None when it is not a real number."""
    import sympy as sp

    approx = sp.N(value, DIGITS)
    if not approx.is_real or not approx.is_finite:
        return None
    return Fraction(str(sp.Float(approx, DIGITS)))


def _exactly_equal(sp: Any, difference: Any) -> bool:
    """Zero proved: an algebraic difference whose minimal polynomial is x."""
    if difference == 0:
        return True
    if not difference.is_algebraic or difference.atoms(sp.Function):
        return False
    x = sp.Symbol("x")
    try:
        return sp.minimal_polynomial(difference, x) == x
    except (NotImplementedError, ValueError):
        return False


def _rounded(lhs: str, rhs: str, gap: Fraction) -> bool:
    places = max(decimals_shown(lhs), decimals_shown(rhs))
    return bool(places) and abs(gap) <= Fraction(1, 10**places)


def _show(value: Any, approx: Fraction) -> str:
    text = str(value)
    number = f"{float(approx):.6g}"
    return number if text == number or len(text) > 40 else f"{text} ≈ {number}"
