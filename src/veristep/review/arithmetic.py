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

MAX_EXPONENT = 200
MAX_DIGITS = 400
MAX_FACTORIAL = 100

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"|(?P<cmd>\\[a-zA-Z]+)|(?P<op>[-+*/×÷·−–^(){}\[\]!]))"
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


class _Undecidable(Exception):
    """The text is not closed rational arithmetic within the size bounds."""


def evaluate(text: str) -> Fraction | None:
    """The exact rational value of ``text``, or None when it is not closed bounded arithmetic."""
    try:
        tokens = _tokenize(text)
        parser = _Parser(tokens)
        value = parser.expression()
        if parser.pos != len(tokens):
            return None
        return value
    except (_Undecidable, ZeroDivisionError, RecursionError):
        return None


def decimals_shown(text: str) -> int:
    """The most decimal places written in ``text`` (0 for exact integers and fractions).

    >>> decimals_shown("0.33 + 1.5")
    2
    """
    places = [len(m.group(1)) for m in re.finditer(r"\d*\.(\d+)", text)]
    return max(places, default=0)


def _tokenize(text: str) -> list[str]:
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
        if m.group("cmd") and tok not in ("*", "/") and tok not in (*_FRACS, "\\sqrt"):
            raise _Undecidable(tok)
        tokens.append(tok.replace(",", "") if m.group("num") else tok)
    return tokens


class _Parser:
    """Recursive descent: sum → product → unary → power → atom; juxtaposition multiplies."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise _Undecidable(f"expected {expected}")
        self.pos += 1
        return tok

    def expression(self) -> Fraction:
        value = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.product()
            value = value + rhs if op == "+" else value - rhs
        return _bounded(value)

    def product(self) -> Fraction:
        value = self.unary()
        while True:
            tok = self.peek()
            if tok in ("*", "/"):
                self.take()
                rhs = self.unary()
                value = value * rhs if tok == "*" else value / rhs
            elif tok in ("(", "{", "[", "\\sqrt", *_FRACS):
                # 2(105), \frac{1}{2}\sqrt{4}; but never "12 5": two bare numbers side by side
                # are ambiguous (a product? digit groups?), so they stay undecided.
                value = value * self.power()
            else:
                return _bounded(value)

    def unary(self) -> Fraction:
        if self.peek() in ("+", "-"):
            sign = -1 if self.take() == "-" else 1
            return sign * self.unary()
        return self.power()

    def power(self) -> Fraction:
        base = self.postfix()
        if self.peek() != "^":
            return base
        self.take()
        exponent = self.unary() if self.peek() in ("+", "-") else self.postfix()
        if exponent.denominator != 1 or abs(exponent) > MAX_EXPONENT:
            raise _Undecidable("exponent")
        if base == 0 and exponent < 0:
            raise ZeroDivisionError
        return _bounded(base ** int(exponent))

    def postfix(self) -> Fraction:
        value = self.atom()
        while self.peek() == "!":
            self.take()
            if value.denominator != 1 or not 0 <= value <= MAX_FACTORIAL:
                raise _Undecidable("factorial")
            result = 1
            for k in range(2, int(value) + 1):
                result *= k
            value = Fraction(result)
        return value

    def atom(self) -> Fraction:
        tok = self.take()
        if tok[0].isdigit() or tok[0] == ".":
            return Fraction(tok)
        closers = {"(": ")", "{": "}", "[": "]"}
        if tok in closers:
            value = self.expression()
            self.take(closers[tok])
            return value
        if tok in _FRACS:
            num, den = self.group(), self.group()
            return num / den
        if tok == "\\sqrt":
            return _exact_sqrt(self.group())
        raise _Undecidable(tok)

    def group(self) -> Fraction:
        if self.peek() == "{":
            self.take()
            value = self.expression()
            self.take("}")
            return value
        tok = self.take()  # \frac12: single-digit arguments
        if len(tok) == 1 and tok.isdigit():
            return Fraction(tok)
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
