"""Exact division by a nonzero difference: the quotient is a hint only when it divides exactly."""

from __future__ import annotations

from fractions import Fraction

from veristep.formal.factors import cancelled_factors, coq_polynomial, divide
from veristep.formal.squares import multiply, parse_polynomial

ABC = frozenset({"a", "b", "c"})


def test_a_product_divided_by_one_factor_gives_the_other() -> None:
    left = parse_polynomial("2 * a + 2 * b - 7", ABC)
    right = parse_polynomial("a - b", ABC)
    assert divide(multiply(left, right), right) == left


def test_no_quotient_when_the_division_leaves_a_remainder() -> None:
    assert divide(parse_polynomial("a^2 + b^2", ABC), parse_polynomial("a - b", ABC)) is None
    # not linear in any letter with a constant coefficient
    assert divide(parse_polynomial("a^2 - b^2", ABC), parse_polynomial("a * b - 1", ABC)) is None


def test_coq_text_is_an_integer_multiple() -> None:
    poly = {("a",): Fraction(1, 2), ("b", "b"): Fraction(-3), (): Fraction(1, 3)}
    assert coq_polynomial(poly) == "-18 * b^2 + 3 * a + 2"


def test_two_roots_of_one_quadratic_give_their_sum() -> None:
    statement = (
        "Theorem t : forall (a b : R) (f : R -> R), (forall x, f x = 2 * x^2 - 7 * x + 2) -> "
        "f a = 0 -> f b = 0 -> a <> b -> a + b = 7 / 2."
    )
    assert cancelled_factors(statement, ["a", "b"]) == [("2 * a + 2 * b - 7", "a - b")]
    # without the disequality there is nothing to cancel
    assert cancelled_factors(statement.replace("a <> b ->", ""), ["a", "b"]) == []


def test_a_definition_of_a_letter_is_substituted_first() -> None:
    statement = (
        "Theorem t (a b c d : R) (h0 : b = a^2) (h1 : a + b = 1) (h2 : d = c^2) "
        "(h3 : c + d = 1) (h4 : a <> c) : a + c = -1."
    )
    assert cancelled_factors(statement, ["a", "b", "c", "d"]) == [("a + c + 1", "a - c")]
