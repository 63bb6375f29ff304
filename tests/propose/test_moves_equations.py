"""Equation moves written as a teacher writes them, each line graded by the real cascade: an
exponential equation with two bases solved by logarithms of both sides, then line by line."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def test_two_bases_take_logarithms_then_solve_the_linear_equation() -> None:
    d = derive("3^{x-1} = 2^x", r"x = \frac{\ln 3}{\ln 3 - \ln 2}")
    assert d.endpoint.reached and all(s.tier is Tier.GROUNDED for s in d.steps)
    lines = [s.latex for s in d.states[1:]]
    assert lines[:4] == [
        r"\left(x - 1\right) \ln 3 = x \ln 2",
        r"x \ln 3 - \ln 3 = x \ln 2",
        r"x \ln 3 - x \ln 2 = \ln 3",
        r"x \left(\ln 3 - \ln 2\right) = \ln 3",
    ]
    assert "computer algebra" not in " ".join(s.justification or "" for s in d.steps)


def test_the_x_terms_go_to_the_side_where_their_coefficient_is_positive() -> None:
    d = derive("2^{x+2} = 3^x", r"x = \frac{2\ln 2}{\ln 3 - \ln 2}")
    assert d.endpoint.reached and all(s.tier is Tier.GROUNDED for s in d.steps)
    assert r"2 \ln 2 = x \left(\ln 3 - \ln 2\right)" in [s.latex for s in d.states]


def test_two_absolute_values_are_split_at_the_critical_points() -> None:
    d = derive("|x + 2| + |x - 3| = 7", r"x = -3 \lor x = 4")
    assert d.endpoint.reached and all(s.tier is Tier.GROUNDED for s in d.steps)
    assert [s.operation for s in d.steps] == [
        "split at the critical points into intervals",
        "solve the equation on each interval",
        "keep each solution that lies in its interval",
    ]
    # The intervals in their order on the line, the same order on both lines.
    assert d.states[1].latex.startswith(r"\left(1 - 2 x = 7 \land x < -2\right)")
    assert d.states[2].latex.startswith(r"\left(x = -3 \land x < -2\right)")
    assert "$x = -2$, $x = 3$" in d.steps[0].justification


def test_a_double_angle_equation_on_an_interval_keeps_one_function() -> None:
    d = derive(
        r"\cos(2x) = \sin x \land 0 \le x \land x < 2\pi",
        r"x = \frac{\pi}{6} \lor x = \frac{5\pi}{6} \lor x = \frac{3\pi}{2}",
    )
    assert d.endpoint.reached and all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.steps[0].operation == r"use $\cos 2u = 1 - 2 \sin^2 u$"
    # The factors and the cases they give keep one order: sin x = -1 before sin x = 1/2.
    factored = next(s.latex for s in d.states if s.latex.startswith(r"\left(\sin"))
    assert factored.startswith(r"\left(\sin{\left(x \right)} + 1\right)")
