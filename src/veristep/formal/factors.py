"""Cancelling a factor the hypotheses say is nonzero: ``(a - b)·Q = 0``, ``a <> b`` give ``Q = 0``.

Two roots of one quadratic, ``f a = 0``, ``f b = 0`` with ``a <> b``: their difference is
``(a - b)·(2a + 2b - 7)`` for ``f x = 2x² - 7x + 2``, so ``a + b = 7/2``, the fact Vieta's
formulas rest on. ``nra`` does not divide: it multiplies hypotheses in pairs. Here the quotient
is computed exactly (polynomial division by a difference linear in one letter, in rationals;
the function definitions among the hypotheses substituted), and the script asserts ``Q = 0``,
proved by ``Rmult_eq_reg_l`` with the disequality, before the usual finish (fractions cleared,
then ``nra``). Coq decides; the quotient is only the hint.

A class of both miniF2F splits, two distinct roots of one equation (test: mathd_algebra_487
proved; amc12a_2002_p13 and mathd_algebra_156 have the shape behind ``Rabs`` and ``x^2 < y^2``
and are not reached; valid: mathd_algebra_206 proved, mathd_algebra_131 proved (where the
fractions-cleared finish alone would do), aime_1996_p5 not).

>>> cancelled_factors(
...     "Theorem t : forall (a b : R) (f : R -> R), (forall x, f x = 2 * x^2 - 7 * x + 2) -> "
...     "f a = 0 -> f b = 0 -> a <> b -> 1 / (a - 1) + 1 / (b - 1) = -1.", ["a", "b"])
[('2 * a + 2 * b - 7', 'a - b')]
"""

from __future__ import annotations

import itertools
import re
from math import lcm

from veristep.formal.squares import (
    Functions,
    NotPolynomial,
    Poly,
    add,
    multiply,
    parse_polynomial,
    premises_and_conclusion,
    split_top,
    substitute,
)

_MAX_QUOTIENTS = 2
_DEFINITION = re.compile(r"^forall\s*\(?\s*([A-Za-z_][\w']*)\s*(?::\s*R\s*)?\)?\s*,\s*(.*)$", re.S)
_APPLICATION = re.compile(r"^([A-Za-z_][\w']*)\s+\(?\s*([A-Za-z_][\w']*)\s*\)?$")


def cancelled_factors(statement: str, real_variables: list[str]) -> list[tuple[str, str]]:
    """``[(Q, D), ...]`` in Coq syntax: ``D`` a disequality's difference, ``Q`` the exact quotient
    by ``D`` of the difference of two hypotheses' equations (or of one)."""
    variables = frozenset(real_variables)
    if not variables:
        return []
    premises, _ = premises_and_conclusion(statement)
    functions = _definitions(premises, variables)
    equations: list[Poly] = []
    differences: list[Poly] = []
    for premise in premises:
        if premise.startswith("forall"):
            continue
        sides = split_top(premise, "<>")
        if len(sides) == 2:
            difference = _difference(sides, variables, functions)
            differences += [difference] if difference else []
            continue
        sides = split_top(premise, "=")
        if len(sides) == 2 and sides[1][:1] not in "<>" and sides[0][-1:] not in "<>":
            equation = _difference(sides, variables, functions)
            equations += [equation] if equation else []
    equations = _substituted(equations, variables)
    found: list[tuple[str, str]] = []
    for divisor in differences:
        pairs = [(e, {}) for e in equations] + list(itertools.combinations(equations, 2))
        for first, second in pairs:
            quotient = divide(add(first, second, -1), divisor)
            if quotient and set(quotient) != {()}:
                found.append((coq_polynomial(quotient), coq_polynomial(divisor)))
                break
    return list(dict.fromkeys(found))[:_MAX_QUOTIENTS]


def _substituted(equations: list[Poly], variables: frozenset[str]) -> list[Poly]:
    """The equations, then each ``v - p = 0`` (``v`` a letter absent from ``p``) substituted
    into the later ones, in order: ``b = a^2`` turns ``a + b = 1`` into ``a + a^2 = 1``."""
    out = [dict(e) for e in equations]
    for i in range(len(out)):
        equation = out[i]
        for letter in sorted(variables):
            if equation.get((letter,)) not in (1, -1):
                continue
            rest = {m: c for m, c in equation.items() if m != (letter,)}
            if any(letter in m for m in rest):
                continue
            value = {m: -c / equation[(letter,)] for m, c in rest.items()}
            try:
                out[i + 1 :] = [substitute(e, letter, value) for e in out[i + 1 :]]
            except NotPolynomial:
                continue
            break
    return equations + [e for e in out if e and e not in equations]


def _definitions(premises: list[str], variables: frozenset[str]) -> Functions:
    """``forall x, f x = body`` premises whose body is a polynomial in x and the letters."""
    functions: dict[str, tuple[str, Poly]] = {}
    for premise in premises:
        match = _DEFINITION.match(premise)
        if match is None:
            continue
        parameter, equation = match.groups()
        sides = split_top(equation.strip().strip("()"), "=")
        if len(sides) != 2:
            continue
        head = _APPLICATION.match(sides[0].strip())
        if head is None or head.group(2) != parameter or head.group(1) in variables:
            continue
        try:
            body = parse_polynomial(sides[1], variables | {parameter})
        except NotPolynomial:
            continue
        functions[head.group(1)] = (parameter, body)
    return functions


def _difference(sides: list[str], variables: frozenset[str], functions: Functions) -> Poly | None:
    try:
        left = parse_polynomial(sides[0], variables, functions=functions)
        right = parse_polynomial(sides[1], variables, functions=functions)
    except NotPolynomial:
        return None
    return add(left, right, -1) or None


def divide(dividend: Poly, divisor: Poly) -> Poly | None:
    """The exact quotient, when ``divisor`` is linear in some letter with a constant coefficient
    and divides ``dividend``; else None."""
    for letter in sorted({v for m in divisor for v in m}):
        coefficient = divisor.get((letter,))
        if not coefficient or any(m.count(letter) > (m == (letter,)) for m in divisor):
            continue
        quotient: Poly = {}
        remainder = dict(dividend)
        for _ in range(64):  # each round lowers the top power of the letter
            top = max((m.count(letter) for m in remainder), default=0)
            if top == 0:
                break
            lead = {m: c for m, c in remainder.items() if m.count(letter) == top}
            step = {_drop_one(m, letter): c / coefficient for m, c in lead.items()}
            quotient = add(quotient, step)
            try:
                remainder = add(remainder, multiply(step, divisor, 16), -1)
            except NotPolynomial:  # too many terms: no hint
                return None
        if not remainder:
            return quotient
    return None


def _drop_one(monomial: tuple[str, ...], letter: str) -> tuple[str, ...]:
    items = list(monomial)
    items.remove(letter)
    return tuple(items)


def coq_polynomial(poly: Poly) -> str:
    """A positive multiple of ``poly`` with integer coefficients, in Coq's notation."""
    factor = lcm(*(c.denominator for c in poly.values()))
    terms: list[str] = []
    ordered = sorted(poly.items(), key=lambda mc: (-len(mc[0]), mc[0]))
    for monomial, c in ordered:
        value = c * factor
        magnitude = abs(value.numerator)
        powers = [
            name if k == 1 else f"{name}^{k}"
            for name, k in sorted({n: monomial.count(n) for n in monomial}.items())
        ]
        factors = ([str(magnitude)] if magnitude != 1 or not powers else []) + powers
        text = " * ".join(factors)
        if not terms:
            terms.append(f"-{text}" if value < 0 else text)
        else:
            terms.append(f"- {text}" if value < 0 else f"+ {text}")
    return " ".join(terms)


# The definitions rewritten in the hypotheses (the quotient was computed with them substituted).
_DEFINITIONS_IN_HYPOTHESES = (
    "repeat match goal with D : forall _, ?f _ = _, H : context [?f ?a] |- _ => "
    "progress rewrite (D a) in H end; "
)
_FROM_DISEQUALITY = "intro; match goal with H : _ <> _ |- _ => apply H; lra end"


def factor_scripts(statement: str, real_variables: list[str], finishes: list[str]) -> list[str]:
    """One script per finish: every quotient asserted zero (its divisor is nonzero by a
    disequality), then the finish."""
    factors = cancelled_factors(statement, real_variables)
    if not factors:
        return []
    asserted = "".join(
        f"assert ({quotient} = 0) by (apply (Rmult_eq_reg_l ({divisor})); "
        f"[rewrite Rmult_0_r; nra | {_FROM_DISEQUALITY}]); "
        for quotient, divisor in factors
    )
    return [f"intros; {_DEFINITIONS_IN_HYPOTHESES}{asserted}{finish}" for finish in finishes]
