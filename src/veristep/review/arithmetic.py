"""Exact evaluation of variable-free arithmetic in prose or LaTeX (``60 * 7``, ``\\frac{14}{2}``).

This is the review agent's own cheap decision procedure for closed numeric claims: rationals only,
bounded sizes, no floating point, so a "false" answer is a proof with a witness (the two values).
Anything else — a letter, a unit, an irrational root, a huge power — is ``None`` (not decidable
here), never a guess.

>>> evaluate("420 + 48")
Fraction(468, 1)
>>> evaluate("\\\\frac{14}{2}(2(105) + (14-1) \\\\cdot 7)")
Fraction(2107, 1)
>>> evaluate("\\\\sqrt{(-13)^2 + 0^2}")
Fraction(13, 1)
>>> evaluate("2x + 1") is None
True
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from veristep.core.errors import VeristepError

MAX_EXPONENT = 200
MAX_DIGITS = 400
MAX_FACTORIAL = 100

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"|(?P<cmd>\\[a-zA-Z]+)|(?P<op>[-+*/×÷·−–^(){}\[\]!_°]))"
)
_SPACING = re.compile(r"\\[,;:! ]|\\left|\\right|\\big[lr]?|\\Big[lr]?|~")
_THIN_GROUPS = re.compile(r"(?<=\d)(?:\\,|\\ )(?=\d{3}(?!\d))")
_OPS = {
    "\\cdot": "*",
    "\\times": "*",
    "\\div": "/",
    "×": "*",
    "÷": "/",
    "·": "*",
    "−": "-",
    "–": "-",
}
_FRACS = ("\\frac", "\\dfrac", "\\tfrac")


class _Undecidable(VeristepError):
    """The text is not closed rational arithmetic within the size bounds."""


def evaluate(text: str) -> Fraction | None:
    """The exact rational value of ``text``, or None when it is not closed bounded arithmetic."""
    try:
        tokens = _tokenize(text)
        parser = _Parser(tokens, _Rationals())
        value = parser.expression()
        if parser.pos != len(tokens):
            return None
        return value
    except (_Undecidable, ZeroDivisionError, RecursionError):
        return None


def is_real_arithmetic(text: str) -> bool:
    """True when ``text`` is made only of numbers, operators and the real-number vocabulary
    (``\\sqrt``, ``\\pi``, ``\\ln``, ``\\sin``, degrees): a cheap test, no evaluation."""
    try:
        _tokenize(text, REAL_COMMANDS)
    except _Undecidable:
        return False
    return True


def real_value(text: str) -> Any:
    """The exact SymPy value of closed real arithmetic (``10\\sqrt5``, ``\\sin 30^\\circ``) or None.

    Everything the rational evaluator refuses as undecidable only because a value is irrational
    is built exactly here: roots, ``\\pi``, logarithms with a stated base (``\\ln``, ``\\log_2``;
    a bare ``\\log`` is ambiguous), trigonometric functions of angles (a multiple of ``\\pi``
    or in degrees; ``\\sin(22.5)`` is ambiguous). Runs SymPy: call it in a CAS worker.

    >>> real_value("\\\\sqrt{100\\\\cdot50}"), real_value("2\\\\cos\\\\frac{\\\\pi}{3}")
    (50*sqrt(2), 1)
    >>> real_value("\\\\sin(22.5)") is None, real_value("\\\\log 100") is None
    (True, True)
    """
    found = real_angle(text)
    return None if found is None else found[0]


def real_angle(text: str) -> tuple[Any, bool] | None:
    """:func:`real_value`, and whether the value is an angle in degrees (``120^\\circ``; a
    degree mark inside ``\\sin 30^\\circ`` gives a number, not an angle)."""
    try:
        tokens = _tokenize(text, REAL_COMMANDS)
        reals = _Reals()
        parser = _Parser(tokens, reals)
        value = parser.expression()
        if parser.pos != len(tokens):
            return None
        return value, reals.free_degrees > 0
    except (_Undecidable, ZeroDivisionError, RecursionError):
        return None


def decimals_shown(text: str) -> int:
    """The most decimal places written in ``text`` (0 for exact integers and fractions).

    >>> decimals_shown("0.33 + 1.5")
    2
    """
    places = [len(m.group(1)) for m in re.finditer(r"\d*\.(\d+)", text)]
    return max(places, default=0)


_FUNCTION_COMMANDS = ("\\ln", "\\log", "\\sin", "\\cos", "\\tan")
REAL_COMMANDS = frozenset({"\\pi", "\\circ", *_FUNCTION_COMMANDS})


def _tokenize(text: str, extra: frozenset[str] = frozenset()) -> list[str]:
    text = _THIN_GROUPS.sub("", text)  # 4\,080\,400 is one number
    text = _SPACING.sub(" ", text).strip()
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise _Undecidable(text[pos:])
        pos = m.end()
        tok = m.group("num") or m.group("cmd") or m.group("op")
        tok = _OPS.get(tok, tok)
        if tok in ("_", "°") and not extra:
            raise _Undecidable(tok)
        allowed = ("*", "/", *_FRACS, "\\sqrt", *extra)
        if m.group("cmd") and tok not in allowed:
            raise _Undecidable(tok)
        tokens.append(tok.replace(",", "") if m.group("num") else tok)
    return tokens


class _Rationals:
    """Exact rational values: anything irrational is undecidable."""

    def number(self, token: str) -> Any:
        return Fraction(token)

    def integer(self, value: int) -> Any:
        return Fraction(value)

    def is_integer(self, value: Any) -> bool:
        return value.denominator == 1

    def degrees(self, value: Any) -> Any:
        raise _Undecidable("degrees")

    def root(self, value: Any, index: int) -> Any:
        if value < 0:
            raise _Undecidable("root of a negative number")
        if index != 2:
            raise _Undecidable("root index")
        return _exact_sqrt(value)

    def power(self, base: Any, exponent: Any) -> Any:
        if exponent.denominator != 1 or abs(exponent) > MAX_EXPONENT:
            raise _Undecidable("exponent")
        if base == 0 and exponent < 0:
            raise ZeroDivisionError
        return base ** int(exponent)

    def special(self, token: str, parser: _Parser) -> Any:
        raise _Undecidable(token)

    def bounded(self, value: Any) -> Any:
        return _bounded(value)


class _Reals(_Rationals):
    """Exact real values in SymPy: roots, pi, logarithms with a base, trigonometry of angles."""

    def __init__(self) -> None:
        import sympy

        self.sp = sympy
        self.free_degrees = 0  # degree marks outside any trigonometric argument

    def number(self, token: str) -> Any:
        if len(token) > MAX_DIGITS // 4:
            raise _Undecidable("too many digits")
        return self.sp.Rational(token)

    def integer(self, value: int) -> Any:
        return self.sp.Integer(value)

    def is_integer(self, value: Any) -> bool:
        return bool(value.is_Integer)

    def root(self, value: Any, index: int) -> Any:
        if not (value.is_real and value.is_nonnegative):
            raise _Undecidable("root of a value not known to be nonnegative")
        return self.sp.root(value, index)

    def power(self, base: Any, exponent: Any) -> Any:
        if not exponent.is_Rational or abs(exponent) > MAX_EXPONENT or exponent.q > 12:
            raise _Undecidable("exponent")
        if base.is_zero and exponent.is_negative:
            raise ZeroDivisionError
        if exponent.q != 1 and not base.is_nonnegative:
            raise _Undecidable("fractional power of a value not known to be nonnegative")
        return self.sp.Pow(base, exponent)

    def special(self, token: str, parser: _Parser) -> Any:
        sp = self.sp
        if token == "\\pi":
            if parser.peek() == "(":  # \pi(1): the prime-counting function
                raise _Undecidable("\\pi applied as a function")
            return sp.pi
        if token == "\\ln":
            return self._log(parser.argument(), sp.E)
        if token == "\\log":
            if parser.peek() != "_":  # \log 100: base 10, e or 2 depending on the author
                raise _Undecidable("logarithm without a base")
            parser.take()
            base = parser.group()
            return self._log(parser.argument(), base)
        if token in ("\\sin", "\\cos", "\\tan"):
            before = self.free_degrees
            angle = parser.argument()
            self.free_degrees = before  # the degrees were consumed: the value is a number
            # An angle is a multiple of pi or in degrees: \sin(22.5) may mean degrees.
            if not (angle.has(sp.pi) or angle.is_zero):
                raise _Undecidable("angle without units")
            value = {"\\sin": sp.sin, "\\cos": sp.cos, "\\tan": sp.tan}[token](angle)
            if value.has(sp.zoo, sp.nan):
                raise ZeroDivisionError
            return value
        raise _Undecidable(token)

    def degrees(self, value: Any) -> Any:
        self.free_degrees += 1
        return value * self.sp.pi / 180

    def _log(self, argument: Any, base: Any) -> Any:
        if not (argument.is_positive and base.is_positive) or (base - 1).is_zero:
            raise _Undecidable("logarithm outside its domain")
        return self.sp.log(argument, base)

    def bounded(self, value: Any) -> Any:
        for number in value.atoms(self.sp.Rational):
            if len(str(number.p)) > MAX_DIGITS or len(str(number.q)) > MAX_DIGITS:
                raise _Undecidable("too large")
        return value


class _Parser:
    """Recursive descent: sum → product → unary → power → atom; juxtaposition multiplies."""

    def __init__(self, tokens: list[str], numbers: _Rationals) -> None:
        self.tokens = tokens
        self.numbers = numbers
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise _Undecidable(f"expected {expected}")
        self.pos += 1
        return tok

    def expression(self) -> Any:
        value = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.product()
            value = value + rhs if op == "+" else value - rhs
        return self.numbers.bounded(value)

    def product(self) -> Any:
        value = self.unary()
        while True:
            tok = self.peek()
            if tok in ("*", "/"):
                self.take()
                rhs = self.unary()
                if tok == "/" and rhs == 0:
                    raise ZeroDivisionError
                value = value * rhs if tok == "*" else value / rhs
            elif tok in ("(", "{", "[", "\\sqrt", *_FRACS, *REAL_COMMANDS - {"\\circ"}):
                # 2(105), \frac{1}{2}\sqrt{4}, 2\pi; but never "12 5": two bare numbers side by
                # side are ambiguous (a product? digit groups?), so they stay undecided.
                value = value * self.power()
            else:
                return self.numbers.bounded(value)

    def unary(self) -> Any:
        if self.peek() in ("+", "-"):
            sign = -1 if self.take() == "-" else 1
            return sign * self.unary()
        return self.power()

    def power(self) -> Any:
        base = self.postfix()
        if self.peek() == "°":
            self.take()
            return self.numbers.degrees(base)
        if self.peek() != "^":
            return base
        self.take()
        if self._degree_mark():
            return self.numbers.degrees(base)
        exponent = self.unary() if self.peek() in ("+", "-") else self.postfix()
        return self.numbers.bounded(self.numbers.power(base, exponent))

    def _degree_mark(self) -> bool:
        """``^\\circ`` or ``^{\\circ}`` after a number: degrees."""
        for mark in (["\\circ"], ["{", "\\circ", "}"]):
            if self.tokens[self.pos : self.pos + len(mark)] == mark:
                self.pos += len(mark)
                return True
        return False

    def postfix(self) -> Any:
        value = self.atom()
        while self.peek() == "!":
            self.take()
            if not self.numbers.is_integer(value) or not 0 <= value <= MAX_FACTORIAL:
                raise _Undecidable("factorial")
            result = 1
            for k in range(2, int(value) + 1):
                result *= k
            value = self.numbers.integer(result)
        return value

    def atom(self) -> Any:
        tok = self.take()
        if tok[0].isdigit() or tok[0] == ".":
            return self.numbers.number(tok)
        closers = {"(": ")", "{": "}", "[": "]"}
        if tok in closers:
            value = self.expression()
            self.take(closers[tok])
            return value
        if tok in _FRACS:
            num, den = self.group(), self.group()
            if den == 0:
                raise ZeroDivisionError
            return num / den
        if tok == "\\sqrt":
            index = 2
            if self.peek() == "[":
                self.take()
                index_value = self.expression()
                self.take("]")
                if not self.numbers.is_integer(index_value) or not 2 <= index_value <= 12:
                    raise _Undecidable("root index")
                index = int(index_value)
            return self.numbers.root(self.group(), index)
        return self.numbers.special(tok, self)

    def argument(self) -> Any:
        """A function's argument: ``(…)``, ``{…}``, one power (``\\sin 30^\\circ``, ``\\ln 2``)."""
        return self.power()

    def group(self) -> Any:
        if self.peek() == "{":
            self.take()
            value = self.expression()
            self.take("}")
            return value
        tok = self.take()  # \frac12: single-digit arguments, as TeX reads them
        if tok.isdigit() and len(tok) > 1:
            self.pos -= 1
            self.tokens[self.pos] = tok[1:]
            tok = tok[0]
        if len(tok) == 1 and tok.isdigit():
            return self.numbers.number(tok)
        raise _Undecidable("group")


def _exact_sqrt(value: Fraction) -> Fraction:
    if value < 0:
        raise _Undecidable("sqrt of a negative number")
    num, den = _isqrt_exact(value.numerator), _isqrt_exact(value.denominator)
    if num is None or den is None:
        raise _Undecidable("irrational root")
    return Fraction(num, den)


def _isqrt_exact(n: int) -> int | None:
    from math import isqrt

    root = isqrt(n)
    return root if root * root == n else None


def _bounded(value: Fraction) -> Fraction:
    if len(str(value.numerator)) > MAX_DIGITS or len(str(value.denominator)) > MAX_DIGITS:
        raise _Undecidable("too large")
    return value
