"""Number literals too big to evaluate: an opaque power and the budget that decides when to use it.

An unevaluated ``Pow(9, 387420489)`` is not safe to hand out: the next ``Add``, ``Mul``,
comparison or ``subs`` anywhere in the process evaluates it, in C, where no deadline can stop it
(``y - 9**387420489`` ran for minutes and froze a whole web server). :class:`HugePower` is a
function that SymPy never evaluates, so every later construction, comparison, hash and print of
it is as cheap as of a symbol. Mathematically it is an unknown constant whose only known facts are
its sign, that it is finite and nonzero, and (for integer bases) that it is an integer; anything
proved about it holds for its real value too.

Equal values get equal forms: the base is reduced to a non-power (``9^{N}`` becomes ``3^{2N}``),
so two literals of the same value are the same object and never "differ by a constant".

>>> HugePower(9, 387420489)
3**774840978
>>> (HugePower(10, 10**9) - HugePower(10, 10**9), HugePower(2, 10**9).is_positive)
(0, True)
>>> budget = LiteralBudget(bits=100)  # 2 takes 2 bits, so 2^49 spends 98 of them
>>> budget.power_fits(Integer(2), Integer(49)), budget.power_fits(Integer(2), Integer(2))
(True, False)
"""

from __future__ import annotations

import math
from typing import Any

import sympy
from sympy import Integer, Rational
from sympy.ntheory.factor_ import perfect_power

# Evaluated literal powers, factorials and binomials of one state share this many bits (about
# 3,600 digits): every number SymPy builds from them stays printable (Python refuses str() of an
# int above 4,300 digits) and cheap to multiply, whatever the rest of the state does with it.
LITERAL_BITS = 12_000


class HugePower(sympy.Function):
    """``base ** exp`` for number literals too big to evaluate; never evaluates itself."""

    nargs = 2

    @classmethod
    def eval(cls, base: Any, exp: Any) -> Any:
        return None  # staying unevaluated is the whole point

    def __new__(cls, base: Any, exp: Any, **options: Any) -> Any:
        base, exp = sympy.sympify(base), sympy.sympify(exp)
        if isinstance(base, Rational) and isinstance(exp, Integer):
            base, exp = _reduced(base, exp)
        return super().__new__(cls, base, exp, **options)

    @property
    def base(self) -> Any:
        return self.args[0]

    @property
    def exp(self) -> Any:
        return self.args[1]

    def _eval_is_positive(self) -> bool | None:
        if self.base.is_positive:
            return True
        if self.base.is_negative and self.exp.is_integer:
            return bool(self.exp.is_even)
        return None

    def _eval_is_negative(self) -> bool | None:
        if self.base.is_negative and self.exp.is_integer:
            return bool(self.exp.is_odd)
        return False if self.base.is_positive else None

    def _eval_is_zero(self) -> bool | None:
        return False if self.base.is_nonzero else None

    def _eval_is_finite(self) -> bool | None:
        return True if self.base.is_nonzero and self.base.is_finite else None

    def _eval_is_extended_real(self) -> bool | None:
        if self.base.is_positive or (self.base.is_real and self.exp.is_integer):
            return True
        return None

    def _eval_is_integer(self) -> bool | None:
        if self.base.is_integer and self.exp.is_integer and self.exp.is_positive:
            return True
        return None

    def _eval_is_rational(self) -> bool | None:
        if self.base.is_rational and self.exp.is_integer:
            return True
        return None

    def _sympystr(self, printer: Any) -> str:
        exp = _wrap(printer._print(self.exp), self.exp)
        return f"{_wrap(printer._print(self.base), self.base)}**{exp}"

    def _latex(self, printer: Any, exp: Any = None) -> str:
        base = _wrap(printer._print(self.base), self.base, r"\left(", r"\right)")
        text = f"{base}^{{{printer._print(self.exp)}}}"
        return rf"\left({text}\right)^{{{exp}}}" if exp is not None else text


def _wrap(text: str, base: Any, left: str = "(", right: str = ")") -> str:
    plain = isinstance(base, Integer) and base > 0
    return text if plain or isinstance(base, sympy.Symbol) else f"{left}{text}{right}"


def _reduced(base: Rational, exp: Integer) -> tuple[Rational, Integer]:
    """``(b, e * k)`` with ``base == b**k`` and b no perfect power: one form per value."""
    if base.q == 1:
        found = perfect_power(abs(base.p)) if abs(base.p) > 3 else False
        if found:
            root, k = found
            if base.p < 0 and k % 2 == 0:
                return base, exp  # (-9)^N: the sign rules the reduction out
            return Integer(root if base.p > 0 else -root), exp * k
    return base, exp


class LiteralBudget:
    """How many bits of evaluated literals one state may still build (:data:`LITERAL_BITS`).

    Each ``*_fits`` call that answers True spends the bits of the number it allows.
    """

    def __init__(self, bits: int = LITERAL_BITS) -> None:
        self.left = bits

    def _spend(self, bits: float) -> bool:
        if bits > self.left:
            return False
        self.left -= int(bits)
        return True

    def power_fits(self, base: Any, exp: Any) -> bool:
        """Whether ``base ** exp`` may be evaluated; a symbolic power always may (it stays so)."""
        if not isinstance(exp, Rational) or (exp.is_Integer and abs(exp) <= 1):
            return True
        coeff = base.as_coeff_Mul()[0] if base.is_Mul or base.is_Number else None
        if isinstance(coeff, Rational):
            if abs(coeff.p) <= 1 and coeff.q == 1 and base.is_Number:
                return True  # 0, 1, -1 to any power: nothing to build
            bits = max(abs(coeff.p).bit_length(), coeff.q.bit_length(), 1)
            if coeff.q == 1 and abs(coeff.p) == 1:
                bits = 0  # x^N, (-x)^N: symbolic, nothing numeric to build
            return self._spend(bits * abs(exp.p) / exp.q)
        if base.is_number:
            # sqrt(2)^N, (2 pi)^N: SymPy folds these into rational powers it then evaluates.
            return self._spend(abs(exp.p) / exp.q)
        return True

    def factorial_fits(self, n: Any) -> bool:
        if not isinstance(n, Integer) or n < 2:
            return True
        return self._spend(int(n) * math.log2(int(n)))

    def binomial_fits(self, n: Any, k: Any) -> bool:
        if not (isinstance(n, Integer) and isinstance(k, Integer)) or n < 2:
            return True
        k = min(int(k), int(n) - int(k))
        return k < 2 or self._spend(k * math.log2(int(n)))
