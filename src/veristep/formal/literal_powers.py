"""Powers of numbers computed before any other reasoning: each ``Rpower B E`` whose base and
exponent are numbers, once the letters the premises fix (``a = 8``) are put in, and whose value is
rational (``Rpower 64 (1/3)`` is 4, ``Rpower 2 3`` is 8), is asserted with its value and rewritten
everywhere, innermost first; the scripts after it see numbers (``sqrt 1000000 − 100 = 900``).

Python only finds the values (exact rationals, an integer root of numerator and denominator);
Coq proves each one: ``Rpower B E = exp (E ln B)``, and with ``B = r^q`` and ``V = r^p`` (E = p/q)
both sides' logarithms are multiples of ``ln r`` (``ln_pow``), equal by ``field``.

A class of both miniF2F splits (test: mathd_algebra_208 and mathd_algebra_114 proved,
mathd_algebra_756 not by this, its bases are letters (powers_as_logarithms proves it);
valid: mathd_algebra_547 proved, mathd_algebra_59 not reached, a power beside a number, nor
mathd_algebra_282 and amc12a_2010_p11).

>>> nested = "Theorem t (a : R) (H : a = 8) : Rpower (16 * Rpower (a ^ 2) (1/3)) (1/3) = 4."
>>> closed_powers(nested)
[('Rpower ((8) ^ 2) (1/3)', '4'), ('Rpower (16 * 4) (1/3)', '4')]
>>> closed_powers("Theorem t : Rpower 2 (1/2) = 1.")
[]
"""

from __future__ import annotations

import re
from fractions import Fraction

from veristep.formal.squares import NotPolynomial, parse_polynomial, premises_and_conclusion

_FIXED = re.compile(r"\(?\s*([A-Za-z_][\w']*)\s*=\s*(\d+(?:\s*/\s*\d+)?)\s*\)?")
_ARGUMENT = re.compile(r"\s*([\w.]+)")
_MAX_ROOT = 12  # the q of an exponent p/q
_MAX_DIGITS = 40  # of a value's numerator and denominator: no 2 ^ 1000 written out
_MAX_POWERS = 8


def closed_powers(statement: str) -> list[tuple[str, str]]:
    """``(term, value)`` for each power of numbers, innermost first, each term written with the
    values found before it (as the goal reads once they are rewritten)."""
    if "Rpower" not in statement:
        return []
    text = _put_in(statement, _fixed_letters(statement))  # as the goal reads after subst
    found: list[tuple[str, str]] = []
    while len(found) < _MAX_POWERS:
        step = _innermost_value(text)
        if step is None:
            return found
        term, value = step
        found.append((term, value))
        text = text.replace(term, value)
    return found


def closed_powers_prefix(statement: str) -> str | None:
    """Sentences that put in the fixed letters and rewrite each power of numbers to its value."""
    powers = closed_powers(statement)
    if not powers:
        return None
    out = "intros; subst; "
    for term, value in powers:
        out += f"let E := fresh in assert (E : {term} = {value}) by ({_proof(term, value)}); "
        out += "rewrite E in *; clear E; "
    return out


def _fixed_letters(statement: str) -> dict[str, str]:
    premises, _ = premises_and_conclusion(statement)
    fixed = {}
    for premise in premises:
        match = _FIXED.fullmatch(premise.strip())
        if match:
            fixed[match.group(1)] = match.group(2)
    return fixed


def _innermost_value(text: str) -> tuple[str, str] | None:
    """The first ``Rpower`` of numbers in ``text`` with a rational value, as (term, value)."""
    for start in (m.start() for m in re.finditer(r"\bRpower\b", text)):
        parsed = _application(text, start + len("Rpower"))
        if parsed is None:
            continue
        base, exponent, end = parsed
        if "Rpower" in base or "Rpower" in exponent:
            continue
        value = _value(base, exponent)
        if value is not None:
            return text[start:end], _coq_number(value)
    return None


def _application(text: str, position: int) -> tuple[str, str, int] | None:
    """The two arguments after ``position`` (a parenthesised group or a token) and the end."""
    arguments = []
    for _ in range(2):
        while position < len(text) and text[position] == " ":
            position += 1
        if position < len(text) and text[position] == "(":
            depth, end = 0, position
            while end < len(text):
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                end += 1
                if depth == 0:
                    break
            if depth:
                return None
            arguments.append(text[position:end])
            position = end
            continue
        match = _ARGUMENT.match(text, position)
        if match is None:
            return None
        arguments.append(match.group(1))
        position = match.end()
    return arguments[0], arguments[1], position


def _put_in(argument: str, fixed: dict[str, str]) -> str:
    for letter, value in fixed.items():
        argument = re.sub(rf"(?<![\w']){re.escape(letter)}(?![\w'])", f"({value})", argument)
    return argument


def _value(base: str, exponent: str) -> Fraction | None:
    try:
        b = _number(base)
        e = _number(exponent)
    except NotPolynomial:
        return None
    if b <= 0 or e < 0 or e.denominator > _MAX_ROOT:
        return None
    root = _root(b, e.denominator)
    if root is None:
        return None
    value = root**e.numerator
    if max(len(str(value.numerator)), len(str(value.denominator))) > _MAX_DIGITS:
        return None
    return value


def _number(text: str) -> Fraction:
    poly = parse_polynomial(text, frozenset(), max_degree=64)
    if set(poly) - {()}:
        raise NotPolynomial("not a number")
    return poly.get((), Fraction(0))


def _root(b: Fraction, q: int) -> Fraction | None:
    """The positive rational r with r^q = b, or None."""
    parts = []
    for n in (b.numerator, b.denominator):
        r = round(n ** (1 / q)) if n < 10**300 else None
        if r is None:
            return None
        r = next((c for c in (r - 1, r, r + 1) if c > 0 and c**q == n), None)
        if r is None:
            return None
        parts.append(r)
    return Fraction(parts[0], parts[1])


def _coq_number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"({value.numerator} / {value.denominator})"


def _proof(term: str, value: str) -> str:
    """Coq's proof of ``term = value``: both sides' logarithms as multiples of ``ln r``."""
    base, exponent, _ = _application(term, len("Rpower"))  # type: ignore[misc]
    e = _number(exponent)
    r = _root(_number(base), e.denominator)
    assert r is not None  # closed_powers found it
    q, p, root = e.denominator, e.numerator, _coq_number(r)
    return (
        f"unfold Rpower; transitivity (exp (ln {value})); [f_equal | apply exp_ln; lra]; "
        f"assert (LB : ln {base} = INR {q} * ln {root}) by "
        f"(rewrite <- ln_pow by lra; f_equal; simpl; field); "
        f"assert (LV : ln {value} = INR {p} * ln {root}) by "
        f"(rewrite <- ln_pow by lra; f_equal; simpl; field); "
        "rewrite LB, LV; simpl; field"
    )
