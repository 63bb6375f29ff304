"""Completing the square: the squares that prove a quadratic inequality over the reals.

``nra`` squares atoms and multiplies hypotheses in pairs, but it does not invent the square
``(28 * a - 5)^2`` that proves ``10 * a <= 28 * a^2 + 1``. For a goal whose two sides are
polynomials of degree at most two, the difference is a quadratic form in the variables and 1;
its LDLᵀ decomposition (Lagrange's completing of squares, in exact rationals) either writes it
as a sum of non-negative multiples of squares of linear forms, which are then the hints, or
shows it is not positive semidefinite, and no hint is offered. Equations ``v = p`` among the
hypotheses are substituted first (``y = x^2 - 6 * x + 13 -> 4 <= y``).

Everything here is exact arithmetic on tiny polynomials (degree capped at 4, a few dozen
terms): it cannot be slow, so it runs in-process without a deadline. Coq still decides; the
hints only say which squares to add.

>>> quadratic_square_hints("Theorem t : forall a : R, 10 * a <= 28 * a^2 + 1.", ["a"])
['28 * a - 5']
>>> quadratic_square_hints("Theorem t (x y : R) : y = x^2 - 6 * x + 13 -> 4 <= y.", ["x", "y"])
['x - 3']
>>> quadratic_square_hints("Theorem t : forall a : R, 28 * a^2 <= 10 * a.", ["a"]) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from math import lcm

from veristep.core.errors import VeristepError

Monomial = tuple[str, ...]  # variable names, sorted, with repetition: ("x", "x", "y") is x²y
Poly = dict[Monomial, Fraction]

_MAX_DEGREE = 4
_MAX_TERMS = 64
_MAX_TEXT = 600
_MAX_NESTING = 40  # parentheses and unary minus signs: the parser recurses on each
_MAX_EQUATIONS = 3  # hypotheses tried as multipliers, one at a time
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_']*)|(\*\*|[-+*/^()²]))")
_RELATIONS = ("<=", ">=", "<", ">")
_BINDER = re.compile(r"\s*\(((?:[^()]|\([^()]*\))*)\)")  # one level of nested parentheses


class NotPolynomial(VeristepError):
    """The text is not a small polynomial in the given variables (no hint is offered: the
    statement still gets every other script)."""


Functions = Mapping[str, tuple[str, Poly]]  # f ↦ (parameter, body): forall x, f x = body


def parse_polynomial(
    text: str,
    variables: frozenset[str],
    max_degree: int = _MAX_DEGREE,
    functions: Functions | None = None,
) -> Poly:
    """The polynomial written by ``text`` in Coq's notation (``^``, ``²``, ``*``, ``/`` by a
    nonzero constant), over ``variables``, each ``f a`` of ``functions`` replaced by its body at
    ``a``; anything else raises :class:`NotPolynomial`."""
    tokens = _tokens(text)
    parser = _Parser(tokens, variables, max_degree, functions or {})
    poly = parser.sum()
    if parser.position != len(tokens):
        raise NotPolynomial(f"unexpected {tokens[parser.position]!r}")
    return poly


def _tokens(text: str) -> list[str]:
    if len(text) > _MAX_TEXT:
        raise NotPolynomial("too long")
    tokens, position = [], 0
    text = text.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise NotPolynomial(f"unexpected character {text[position]!r}")
        tokens.append(match.group(match.lastindex or 0))
        position = match.end()
    return tokens


class _Parser:
    """Recursive descent over Coq's levels: ``+ -`` (50) < ``* /`` (40) < unary ``-`` (35)
    < ``^`` (30)."""

    def __init__(
        self, tokens: list[str], variables: frozenset[str], max_degree: int, functions: Functions
    ) -> None:
        self.tokens = tokens
        self.variables = variables
        self.max_degree = max_degree
        self.functions = functions
        self.position = 0
        self.depth = 0  # open parentheses and unary minus signs around the current token

    def inner(self, parse: Callable[[], Poly]) -> Poly:
        """``parse()`` one level deeper; too deep is no polynomial (not a RecursionError)."""
        if self.depth >= _MAX_NESTING:
            raise NotPolynomial("nested too deeply")
        self.depth += 1
        try:
            return parse()
        finally:
            self.depth -= 1

    def peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise NotPolynomial("unexpected end")
        self.position += 1
        return token

    def sum(self) -> Poly:
        poly = self.product()
        while self.peek() in ("+", "-"):
            sign = self.take()
            poly = add(poly, self.product(), -1 if sign == "-" else 1)
        return poly

    def product(self) -> Poly:
        poly = self.unary()
        while self.peek() in ("*", "/"):
            if self.take() == "*":
                poly = multiply(poly, self.unary(), self.max_degree)
            else:
                poly = scale(poly, 1 / _constant(self.unary()))
        return poly

    def unary(self) -> Poly:
        if self.peek() == "-":
            self.take()
            return scale(self.inner(self.unary), Fraction(-1))
        return self.power()

    def power(self) -> Poly:
        base = self.atom()
        while self.peek() in ("^", "**", "²"):
            if self.take() == "²":
                base = multiply(base, base, self.max_degree)
                continue
            exponent = self.take()
            if not exponent.isdigit() or int(exponent) > self.max_degree:
                raise NotPolynomial(f"exponent {exponent!r}")
            result: Poly = {(): Fraction(1)}
            for _ in range(int(exponent)):
                result = multiply(result, base, self.max_degree)
            base = result
        return base

    def atom(self) -> Poly:
        token = self.take()
        if token == "(":
            poly = self.inner(self.sum)
            if self.take() != ")":
                raise NotPolynomial("unbalanced parenthesis")
            return poly
        if token[0].isdigit():
            return {(): Fraction(token)} if Fraction(token) else {}
        if token in self.variables:
            return {(token,): Fraction(1)}
        if token in self.functions:  # application binds tighter than ^: f x ^ 2 is (f x)^2
            parameter, body = self.functions[token]
            return substitute(body, parameter, self.atom(), self.max_degree)
        raise NotPolynomial(f"not a polynomial atom: {token!r}")


def _constant(poly: Poly) -> Fraction:
    if set(poly) - {()} or not poly.get(()):
        raise NotPolynomial("division by a non-constant or by zero")
    return poly[()]


def add(p: Poly, q: Poly, sign: int = 1) -> Poly:
    out = dict(p)
    for monomial, c in q.items():
        out[monomial] = out.get(monomial, Fraction(0)) + sign * c
    return {m: c for m, c in out.items() if c}


def scale(p: Poly, c: Fraction) -> Poly:
    return {m: c * v for m, v in p.items() if c * v}


def multiply(p: Poly, q: Poly, max_degree: int = _MAX_DEGREE) -> Poly:
    out: Poly = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            monomial = tuple(sorted(m1 + m2))
            if len(monomial) > max_degree:
                raise NotPolynomial("degree too high")
            out[monomial] = out.get(monomial, Fraction(0)) + c1 * c2
    out = {m: c for m, c in out.items() if c}
    if len(out) > _MAX_TERMS:
        raise NotPolynomial("too many terms")
    return out


def substitute(p: Poly, name: str, value: Poly, max_degree: int = _MAX_DEGREE) -> Poly:
    """``p`` with the variable ``name`` replaced by ``value``."""
    out: Poly = {}
    for monomial, c in p.items():
        term: Poly = {tuple(v for v in monomial if v != name): c}
        for _ in range(monomial.count(name)):
            term = multiply(term, value, max_degree)
        out = add(out, term)
    return out


def completed_squares(poly: Poly) -> list[tuple[Fraction, Poly]] | None:
    """``[(d, l), ...]`` with every ``d >= 0``, ``l`` linear, and ``poly = Σ d·l²``; None when
    ``poly`` is not a positive semidefinite quadratic (then no sum of squares exists).

    The quadratic form over (variables…, 1) is reduced by symmetric Gaussian elimination; the
    constant comes last, so the final pivot is the form's minimum."""
    if any(len(m) > 2 for m in poly):
        return None
    names = sorted({v for m in poly for v in m})
    basis: list[str | None] = [*names, None]  # None is the constant 1
    size = len(basis)
    matrix = [[Fraction(0)] * size for _ in range(size)]
    index = {name: i for i, name in enumerate(names)}
    for monomial, c in poly.items():
        i = index[monomial[0]] if monomial else size - 1
        j = index[monomial[1]] if len(monomial) > 1 else size - 1
        if i == j:
            matrix[i][i] += c
        else:
            matrix[i][j] += c / 2
            matrix[j][i] += c / 2
    squares: list[tuple[Fraction, Poly]] = []
    for k in range(size):
        pivot = matrix[k][k]
        if pivot < 0:
            return None
        if pivot == 0:
            if any(matrix[k][j] for j in range(k + 1, size)):
                return None  # an odd term with no square to absorb it: indefinite
            continue
        row = [matrix[k][j] / pivot for j in range(size)]
        linear = {
            ((basis[j],) if basis[j] is not None else ()): row[j] for j in range(k, size) if row[j]
        }
        squares.append((pivot, linear))  # type: ignore[arg-type]
        for i in range(k + 1, size):
            for j in range(k + 1, size):
                matrix[i][j] -= pivot * row[i] * row[j]
    return squares


def coq_linear(linear: Poly) -> str:
    """A linear form with integer coefficients (a positive multiple of ``linear``) in Coq."""
    scale_by = lcm(*(c.denominator for c in linear.values()))
    terms: list[str] = []
    for monomial, c in sorted(linear.items(), key=lambda mc: (not mc[0], mc[0])):
        value = c * scale_by
        magnitude = abs(value.numerator)
        if monomial:
            text = monomial[0] if magnitude == 1 else f"{magnitude} * {monomial[0]}"
        else:
            text = str(magnitude)
        if not terms:
            terms.append(f"-{text}" if value < 0 else text)
        else:
            terms.append(f"- {text}" if value < 0 else f"+ {text}")
    return " ".join(terms)


def quadratic_square_hints(statement: str, real_variables: list[str]) -> list[str] | None:
    """The linear forms whose squares prove this statement's polynomial inequality, or None
    when its conclusion is no quadratic inequality with a sum-of-squares certificate.

    A class of both miniF2F splits (test: algebra_sqineq_at2malt1, mathd_algebra_113,
    algebra_sqineq_unitcircatbpamblt1; valid: algebra_binomnegdiscrineq_10alt28asqp1,
    algebra_sqineq_2unitcircatblt1, mathd_algebra_410, algebra_sqineq_36azm9asqle36zsq)."""
    variables = frozenset(real_variables)
    if not variables:
        return None
    premises, conclusion = premises_and_conclusion(statement)
    difference = _difference(conclusion, variables)
    if difference is None:
        return None
    poly, strict = difference
    equations: list[Poly] = []
    for premise in premises:
        substituted = _substituted(poly, premise, variables)
        if substituted is poly:
            equations += _equation(premise, variables)
        poly = substituted
    squares = _certificate(poly, equations)
    if squares is None:
        return None
    linear_squares = [(d, form) for d, form in squares if set(form) - {()}]
    if strict and not (squares and squares[-1][1] == {(): Fraction(1)}):
        return None  # a strict inequality needs a positive constant left over
    if not linear_squares:
        return None  # nothing to complete: lra alone decides
    return [coq_linear(linear) for _, linear in linear_squares]


def _certificate(poly: Poly, equations: list[Poly]) -> list[tuple[Fraction, Poly]] | None:
    """Squares of ``poly + λ·e`` for one hypothesis ``e = 0`` (λ = 0 first): on the circle
    ``a^2 + b^2 = 1``, ``1 - a*b - a + b`` plus ``(a^2 + b^2 - 1) / 2`` is ``(a - b - 1)^2 / 2``.

    λ is tried on the values that cancel one of ``poly``'s square terms against ``e``'s, then
    on a grid of quarters: a certificate with a tight square usually has one of those."""
    squares = completed_squares(poly)
    if squares is not None:
        return squares
    for equation in equations[:_MAX_EQUATIONS]:
        tried: set[Fraction] = set()
        cancelling = [
            -poly.get(m, Fraction(0)) / c for m, c in equation.items() if len(m) == 2 and c
        ]
        grid = [Fraction(k, 4) for k in range(-16, 17) if k]
        for multiplier in [*cancelling, *grid]:
            if multiplier in tried or not multiplier:
                continue
            tried.add(multiplier)
            squares = completed_squares(add(poly, scale(equation, multiplier)))
            if squares is not None:
                return squares
    return None


def _equation(premise: str, variables: frozenset[str]) -> list[Poly]:
    """``[p - q]`` for a premise ``p = q`` between polynomials of degree ≤ 2, else ``[]``."""
    sides = split_top(premise, "=")
    if len(sides) != 2 or sides[1][:1] in "<>" or sides[0][-1:] in "<>":
        return []
    try:
        difference = add(
            parse_polynomial(sides[0], variables), parse_polynomial(sides[1], variables), -1
        )
    except NotPolynomial:
        return []
    return [difference] if difference and max(len(m) for m in difference) <= 2 else []


def premises_and_conclusion(statement: str) -> tuple[list[str], str]:
    """The arrows' parts at parenthesis depth 0 after the binders, and the last one."""
    text = statement.strip().removesuffix(".")
    text = re.sub(r"^\s*(?:Theorem|Lemma)\s+[\w']+", "", text)
    # binders before the colon: "(x y : R)" declares, "(h : y = x^2)" is a premise
    named: list[str] = []
    while (binder := _BINDER.match(text)) is not None:
        kind = binder.group(1).split(":", 1)[-1]
        if re.search(r"[=<>]", kind):
            named.append(kind.strip())
        text = text[binder.end() :]
    text = re.sub(r"^\s*:", "", text)
    parts = split_top(text, "->")
    parts = [re.sub(r"^\s*forall[^,]*,", "", p).strip() for p in parts]
    parts = [p[1:-1].strip() if _wrapped(p) else p for p in parts]
    return named + parts[:-1], parts[-1]


def split_top(text: str, separator: str) -> list[str]:
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        char = text[i]
        depth += char == "("
        depth -= char == ")"
        if depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            i += len(separator)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _wrapped(text: str) -> bool:
    return text.startswith("(") and text.endswith(")") and _balanced_inside(text[1:-1])


def _balanced_inside(text: str) -> bool:
    depth = 0
    for char in text:
        depth += char == "("
        depth -= char == ")"
        if depth < 0:
            return False
    return depth == 0


def _difference(conclusion: str, variables: frozenset[str]) -> tuple[Poly, bool] | None:
    """(greater − smaller, strict) for ``a <= b``, ``a < b``, ``a >= b``, ``a > b``."""
    for relation in _RELATIONS:
        sides = split_top(conclusion, relation)
        if len(sides) != 2 or any(op in sides[1][:1] for op in "=<>"):
            continue
        try:
            left = parse_polynomial(sides[0], variables)
            right = parse_polynomial(sides[1], variables)
        except NotPolynomial:
            return None
        strict = relation in ("<", ">")
        if relation in ("<=", "<"):
            return add(right, left, -1), strict
        return add(left, right, -1), strict
    return None


def _substituted(poly: Poly, premise: str, variables: frozenset[str]) -> Poly:
    """``poly`` with ``v`` replaced when the premise reads ``v = p`` (or ``p = v``)."""
    sides = split_top(premise, "=")
    if len(sides) != 2 or sides[1][:1] in "<>" or sides[0][-1:] in "<>":
        return poly
    for name_side, value_side in (sides, sides[::-1]):
        name = name_side.strip()
        if name in variables:
            try:
                value = parse_polynomial(value_side, variables)
                return substitute(poly, name, value)
            except NotPolynomial:
                return poly
    return poly
