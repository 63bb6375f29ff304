"""Rearranging a formula to a target written in another form, judged by the real grounding engine:
a square root squared beside a parameter, and a denominator cleared beside a sign condition."""

from __future__ import annotations

from veristep.core.tiers import Relation, Tier
from veristep.propose import derive


def test_pendulum_formula_squares_then_multiplies_by_the_denominator():
    d = derive(r"T = 2\pi\sqrt{\frac{l}{g}}", r"l = \frac{g T^2}{4\pi^2}")
    assert [s.operation for s in d.steps] == [
        "swap the two sides",
        "divide both sides by $2 \\pi$",
        "square both sides",
        "multiply both sides by $g$",
    ]
    square = d.steps[2]
    # T < 0 solves the squared line, never the formula: the step widens, and says so.
    assert square.relation is Relation.WIDENS and square.tier is Tier.VERIFIED
    assert "$\\frac{T}{2 \\pi} < 0$" in square.justification
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached


def test_clearing_r_squared_beside_r_positive_is_an_equivalence():
    d = derive(r"F = \frac{k q Q}{r^2} \land r > 0", r"r = \sqrt{\frac{k q Q}{F}}")
    cleared = [s for s in d.steps if s.operation == "multiply both sides by $r^{2}$"]
    assert len(cleared) == 1
    assert cleared[0].relation is Relation.EQUIVALENT and cleared[0].tier is Tier.GROUNDED
    # r > 0 already rules out the zero of r^2: nothing is left "to check at the end"
    assert cleared[0].justification.endswith("as $r > 0$ gives $r \\ne 0$")
    assert d.steps[-1].operation == "take the positive square root"
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached
