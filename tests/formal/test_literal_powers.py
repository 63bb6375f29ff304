"""Powers of numbers found in a statement and their exact values (Coq proves each one: the
shape tests in test_goal_scripts.py run the scripts)."""

from __future__ import annotations

import pytest

from veristep.formal.literal_powers import closed_powers, closed_powers_prefix


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("Theorem t : Rpower 2 3 = 8.", [("Rpower 2 3", "8")]),
        ("Theorem t : Rpower (8 / 27) (2 / 3) = 4 / 9.", [("Rpower (8 / 27) (2 / 3)", "(4 / 9)")]),
        (
            "Theorem t : forall x y : R, x = 5 -> y = 2 -> sqrt (x^3 - Rpower 2 y) = 11.",
            [("Rpower 2 (2)", "4")],
        ),
        (
            "Theorem t (a : R) (H : a = 8) : Rpower (16 * Rpower (a ^ 2) (1/3)) (1/3) = 4.",
            [("Rpower ((8) ^ 2) (1/3)", "4"), ("Rpower (16 * 4) (1/3)", "4")],
        ),
    ],
)
def test_each_power_of_numbers_gets_its_exact_value_innermost_first(statement, expected) -> None:
    assert closed_powers(statement) == expected


@pytest.mark.parametrize(
    "statement",
    [
        "Theorem t : Rpower 2 (1/2) = sqrt 2.",  # irrational: no value to assert
        "Theorem t : forall b : R, Rpower 4 b = 2 -> b = 1/2.",  # a letter no premise fixes
        "Theorem t : Rpower 2 1000 > 0.",  # a value too long to write out
        "Theorem t : Rpower (-8) (1/3) = -2.",  # Rpower of a non-positive base is exp(0) junk
        "Theorem t : Rpower (2 3 = 8.",  # unbalanced: nothing, no exception
        "Theorem t : 2 ^ 3 = 8.",
    ],
)
def test_nothing_is_asserted_without_an_exact_rational_value(statement) -> None:
    assert closed_powers(statement) == []
    assert closed_powers_prefix(statement) is None


def test_the_prefix_puts_in_the_letters_then_rewrites_each_value() -> None:
    prefix = closed_powers_prefix("Theorem t (a : R) (H : a = 8) : Rpower (a ^ 2) (1/3) = 4.")
    assert prefix is not None and prefix.startswith("intros; subst; ")
    assert "assert (E : Rpower ((8) ^ 2) (1/3) = 4)" in prefix and "rewrite E in *" in prefix
