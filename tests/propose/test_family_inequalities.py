"""Inequality moves end to end: the planner writes them, the real grounding engine judges them."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def _ops(d) -> list[str]:
    return [s.operation for s in d.steps]


def _strong(d) -> bool:
    return bool(d.steps) and all(s.tier >= Tier.VERIFIED for s in d.steps)


def test_dividing_by_a_negative_names_the_sign_flip():
    d = derive(r"5 - 2x \ge 11", r"x \le -3")
    assert _ops(d) == [
        "subtract $5$ from both sides",
        "divide both sides by $-2$ and reverse the inequality sign",
    ]
    assert all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached and d.states[-1].latex == r"x \le -3"


def test_quadratic_inequality_factors_then_reads_a_sign_table():
    d = derive(r"x^2 - 5x + 6 < 0", r"2 < x \land x < 3")
    assert [s.operation for s in d.steps] == [
        "factor the left side",
        "read the answer from a sign table",
    ]
    assert "critical points $2$, $3$" in d.steps[1].justification
    assert "negative on $2 < x < 3$" in d.steps[1].justification
    assert _strong(d) and d.endpoint.reached


def test_rational_inequality_keeps_the_excluded_value():
    d = derive(r"\frac{x + 3}{x - 4} \le 0", r"-3 \le x \land x < 4")
    assert d.steps[0].operation == "multiply both sides by $(x - 4)^2$"
    assert r"x \neq 4" in d.states[1].latex
    assert _strong(d) and d.endpoint.reached
    assert d.states[-1].latex == r"-3 \le x \land x < 4"


def test_absolute_value_bound_becomes_a_double_inequality():
    d = derive(r"|2x + 1| \le 5", r"-3 \le x \land x \le 2")
    assert _ops(d) == [
        "write the bound on the absolute value as two inequalities",
        "subtract $1$ from every part",
        "divide every part by $2$",
    ]
    assert all(s.tier is Tier.GROUNDED for s in d.steps)


def test_absolute_value_above_a_bound_splits_into_two_cases():
    d = derive(r"|x + 4| > 1", r"x < -5 \lor x > -3")
    assert d.steps[0].operation == "split the absolute value into two inequalities"
    assert _strong(d) and d.endpoint.reached and len(d.steps) == 2
