"""Trigonometric equations on an interval, solved one teacher move per line and judged by the real
grounding engine."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def test_two_functions_of_x_are_factored_and_each_factor_set_to_zero():
    d = derive(
        r"\sin(2x) = \sin x \land 0 \le x \land x < 2\pi",
        r"x = 0 \lor x = \frac{\pi}{3} \lor x = \pi \lor x = \frac{5\pi}{3}",
    )
    assert [s.operation for s in d.steps] == [
        "use $\\sin 2u = 2 \\sin u \\cos u$",
        "bring every term to the left side",
        "factor the left side",
        "set each factor equal to zero",
        "add $1$ to both sides",
        "divide both sides by $2$",
        "list the angles with $x \\in \\left[0, 2 \\pi\\right)$",
    ]
    # The common factor first, and the cases in the factors' order.
    factored, cases = d.states[3].latex, d.states[4].latex
    common, bracket = "\\sin{\\left(x \\right)}", "\\left(2 \\cos{\\left(x \\right)} - 1\\right)"
    assert factored.startswith(f"{common} {bracket}")
    assert cases.index("\\sin") < cases.index("\\cos")
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_a_quadratic_in_sin_x_names_sin_x_not_a_stand_in():
    d = derive(
        r"\cos(2x) = \sin x \land 0 \le x \land x < 2\pi",
        r"x = \frac{\pi}{6} \lor x = \frac{5\pi}{6} \lor x = \frac{3\pi}{2}",
    )
    words = " ".join(s.operation + " " + s.justification for s in d.steps)
    assert "standin" not in words
    assert "\\sin{\\left(x \\right)}" in words or "\\sin x" in words
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_with_no_interval_the_function_is_isolated_then_the_general_solution_written():
    # 2 sin x - 1 = 0 used to get no line at all: sin x = 1/2 was solved, 2 sin x - 1 = 0 was not
    d = derive(r"2\sin x - 1 = 0")
    assert [s.expr_latex for s in d.steps][:2] == [
        "2 \\sin{\\left(x \\right)} = 1",
        "\\sin{\\left(x \\right)} = \\frac{1}{2}",
    ]
    assert d.steps[-1].operation.startswith("write the general solution")
    assert "k \\in \\mathbb{Z}" in d.steps[-1].expr_latex
    assert d.endpoint.reached and d.confidence.tier is Tier.GROUNDED
