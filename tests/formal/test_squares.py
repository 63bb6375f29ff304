"""Completing the square in exact rationals: the certificate is an identity, or there is none."""

from __future__ import annotations

from fractions import Fraction

import pytest

from veristep.formal.squares import (
    NotPolynomial,
    add,
    completed_squares,
    multiply,
    parse_polynomial,
    quadratic_square_hints,
    scale,
)

XY = frozenset({"x", "y"})


def _sum_of_squares(squares: list[tuple[Fraction, dict]]) -> dict:
    total: dict = {}
    for weight, linear in squares:
        total = add(total, scale(multiply(linear, linear), weight))
    return total


@pytest.mark.parametrize(
    "text",
    ["x^2 - 6 * x + 13", "4 * (y * y) + (x + 1) * (x + 1) - 4 * y * (x + 1)", "x² + y² + 1/3"],
)
def test_the_squares_add_up_to_the_polynomial(text: str) -> None:
    poly = parse_polynomial(text, XY)
    squares = completed_squares(poly)
    assert squares is not None
    assert all(weight >= 0 for weight, _ in squares)
    assert _sum_of_squares(squares) == poly


@pytest.mark.parametrize("text", ["x * y", "x^2 - 1", "-x^2", "x", "x^2 + x * y"])
def test_an_indefinite_polynomial_has_no_certificate(text: str) -> None:
    # each takes a negative value: x = 1, y = -1; x = 0; x = 1; x = -1; x = 1, y = -2
    assert completed_squares(parse_polynomial(text, XY)) is None


@pytest.mark.parametrize(
    "text", ["sqrt x", "x / y", "x ^ y", "x ^ 9", "Rabs x", "z + 1", "x +", "(x", "1 / 0"]
)
def test_anything_but_a_small_polynomial_is_refused(text: str) -> None:
    with pytest.raises(NotPolynomial):
        parse_polynomial(text, XY)


def test_coq_precedence_is_respected() -> None:
    assert parse_polynomial("- x ^ 2", XY) == {("x", "x"): -1}
    assert parse_polynomial("2 * x / 4 - 3 * (x - 1)", XY) == {("x",): Fraction(-5, 2), (): 3}


def test_a_strict_inequality_needs_a_positive_constant_left_over() -> None:
    tight = "Theorem t : forall x : R, 2 * x < x^2 + 1."  # false at x = 1
    assert quadratic_square_hints(tight, ["x"]) is None
    slack = "Theorem t : forall x : R, 2 * x < x^2 + 2."
    assert quadratic_square_hints(slack, ["x"]) == ["x - 1"]


def test_a_definition_among_the_hypotheses_is_substituted() -> None:
    statement = "Theorem t (x y : R) (h : y = x^2 - 6 * x + 13) : 4 <= y."
    assert quadratic_square_hints(statement, ["x", "y"]) == ["x - 3"]
    assert quadratic_square_hints(statement.replace("4 <=", "5 <="), ["x", "y"]) is None


def test_an_equation_among_the_hypotheses_is_added_with_a_multiplier() -> None:
    statement = "Theorem t : forall a b : R, a^2 + b^2 = 2 -> a * b <= 1."
    assert quadratic_square_hints(statement, ["a", "b"]) == ["a - b"]
    without = "Theorem t : forall a b : R, a * b <= 1."
    assert quadratic_square_hints(without, ["a", "b"]) is None


@pytest.mark.parametrize("text", ["(" * 300 + "x" + ")" * 300, "- " * 300 + "x"])
def test_deep_nesting_is_refused_not_a_recursion_error(text: str) -> None:
    with pytest.raises(NotPolynomial):
        parse_polynomial(text, XY)
    statement = f"Theorem t : forall x y : R, {text} <= x^2."
    assert quadratic_square_hints(statement, ["x", "y"]) is None


def test_many_groups_side_by_side_are_no_deep_nesting() -> None:
    text = " + ".join(["(x - 1)^2"] * 50)
    assert completed_squares(parse_polynomial(text, XY)) is not None
