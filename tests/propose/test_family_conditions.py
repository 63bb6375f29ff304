"""Equations that carry their conditions: radicals squared with the condition written, and
trigonometric equations on an interval; every step an equivalence judged by the real grounding."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def test_squaring_keeps_the_condition_and_the_last_step_applies_it():
    d = derive(r"\sqrt{x + 7} = x + 1", "x = 2")
    assert d.steps[0].operation == "square both sides, keeping the condition $x + 1 \\geq 0$"
    assert d.steps[-1].operation == "keep the solutions that satisfy $x + 1 \\geq 0$"
    assert "$x = -3$ fails" in d.steps[-1].justification
    assert all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached and d.states[-1].latex == "x = 2"


def test_two_radicals_isolate_square_and_square_again():
    d = derive(r"\sqrt{x + 5} - \sqrt{x} = 1", "x = 4")
    ops = [s.operation for s in d.steps]
    assert ops[0] == "add $\\sqrt{x}$ to both sides"
    assert sum(op.startswith("square both sides") for op in ops) == 2
    assert "computer algebra" not in " ".join(s.justification for s in d.steps)
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_trigonometric_equation_on_an_interval_lists_the_angles_there():
    d = derive(r"2\cos x = \sqrt{3} \land 0 \le x \land x < 2\pi",
               r"x = \frac{\pi}{6} \lor x = \frac{11\pi}{6}")  # fmt: skip
    assert d.steps[0].operation == "divide both sides by $2$"
    assert d.steps[-2].operation.startswith("list the angles with $x \\in")
    assert d.steps[-1].operation == "simplify the value"
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached


def test_reference_angle_is_written_before_the_arithmetic():
    d = derive(
        r"\tan x = 1 \land 0 \le x \land x < 2\pi", r"x = \frac{\pi}{4} \lor x = \frac{5\pi}{4}"
    )
    assert r"\frac{\pi}{4} + \pi" in d.states[1].latex
    assert "reference angle $\\frac{\\pi}{4}$" in d.steps[0].justification
    assert d.steps[1].operation == "simplify the value"
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached


def test_equal_absolute_values_split_into_two_equations():
    d = derive(r"|x - 2| = |2x + 1|", r"x = -3 \lor x = \frac{1}{3}")
    assert d.steps[0].operation == "split into the two cases of equal absolute values"
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached
