"""Expression algebra shown, not jumped: each family's intermediate lines are written out and every
line is judged by the real grounding engine."""

from __future__ import annotations

import pytest

from veristep.core.tiers import Tier
from veristep.propose import derive


def _strong(d) -> bool:
    return bool(d.steps) and all(s.tier >= Tier.VERIFIED for s in d.steps)


@pytest.mark.parametrize(
    ("start", "target", "first_operation", "steps"),
    [
        ("6x^2 + 9x", "3x(2x + 3)", "write each term with the common factor $3 x$", 2),
        ("9x^2 - 16", "(3x - 4)(3x + 4)", "write both terms as squares", 2),
        ("x^3 + 27", "(x + 3)(x^2 - 3x + 9)", "write both terms as cubes", 2),
        ("x^3 + 2x^2 + 3x + 6", "(x + 2)(x^2 + 3)",
         "group the terms in pairs and factor each pair", 2),
        ("x^2 + 6x + 5", "(x + 3)^2 - 4",
         "add and subtract the square of half the coefficient of $x$", 2),
    ],
)  # fmt: skip
def test_factoring_families_show_the_intermediate_line(start, target, first_operation, steps):
    d = derive(start, target)
    assert d.steps[0].operation == first_operation
    assert len(d.steps) == steps
    assert all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached and d.states[-1].latex == target


def test_trinomial_by_splitting_the_middle_term():
    d = derive("6x^2 - x - 2", "(2x + 1)(3x - 2)")
    assert [s.latex for s in d.states[1:3]] == [
        "6 x^{2} + 3 x - 4 x - 2",
        r"3 x \left(2 x + 1\right) - 2 \left(2 x + 1\right)",
    ]
    assert "product $ac = -12$ and sum $b = -1$" in d.steps[0].justification
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_common_factor_then_difference_of_squares_inside_the_product():
    d = derive("2x^3 - 18x", "2x(x - 3)(x + 3)")
    assert [s.operation for s in d.steps] == [
        "write each term with the common factor $2 x$",
        "take out the common factor $2 x$",
        "write both terms as squares",
        "factor the difference of two squares",
    ]
    assert _strong(d) and d.endpoint.reached


def test_subtracted_fraction_keeps_its_numerator_in_brackets():
    d = derive(r"\frac{2}{x - 1} - \frac{1}{x + 1}", r"\frac{x + 3}{(x - 1)(x + 1)}")
    assert d.steps[0].operation.startswith("write each fraction over the common denominator")
    assert r"2 \left(x + 1\right) - \left(x - 1\right)" in d.states[2].latex
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_partial_fractions_by_matching_coefficients():
    d = derive(r"\frac{5x + 1}{(x - 1)(x + 2)}", r"\frac{2}{x - 1} + \frac{3}{x + 2}")
    assert d.steps[0].operation == "write the numerator in terms of the factors"
    assert "$A = 2$, $B = 3$" in d.steps[0].justification
    assert len(d.steps) == 3 and _strong(d) and d.endpoint.reached


def test_cancelling_names_the_restriction():
    d = derive(r"\frac{x^2 - 9}{x + 3}", "x - 3")
    assert d.steps[-1].operation == "cancel the common factor $x + 3$"
    assert r"$x \ne -3$" in d.steps[-1].justification
    assert _strong(d) and d.endpoint.reached


def test_circle_equation_to_centre_radius_form():
    d = derive("x^2 + y^2 - 4x + 6y - 12 = 0", "(x - 2)^2 + (y + 3)^2 = 25")
    assert "12 + 4 + 9" in d.states[2].latex
    assert len(d.steps) == 3 and all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached
