"""Implicit differentiation as teacher moves: differentiate both sides (naming the chain and the
product rule on the terms that need them), then solve the linear equation for dy/dx line by line;
every line is judged by the grounding engine."""

from __future__ import annotations

from veristep.core.tiers import Relation, Tier
from veristep.propose import derive

DY = r"\frac{dy}{dx}"


def test_implicit_differentiation_of_a_quadratic_relation_line_by_line():
    d = derive("x^2 + xy + y^2 = 7", rf"{DY} = -\frac{{2x + y}}{{x + 2y}}")
    assert [s.operation for s in d.steps] == [
        "differentiate both sides with respect to $x$",
        "subtract $2 x + y$ from both sides",
        "factor $\\frac{dy}{dx}$ out",
        "divide both sides by $x + 2 y$",
    ]
    first = d.steps[0]
    assert "chain rule on $y^{2}$" in first.justification
    assert "product rule on $x y$" in first.justification
    assert d.states[1].latex == rf"x {DY} + 2 y {DY} + 2 x + y = 0"
    # the factored line as written by hand: the bracket, then dy/dx
    assert d.states[3].latex == rf"\left(x + 2 y\right) {DY} = - 2 x - y"
    # differentiating is a consequence (verified); the algebra after it is grounded, and the
    # division names the coefficient it assumes non-zero
    assert first.relation is Relation.WIDENS and first.tier is Tier.VERIFIED
    assert [s.tier for s in d.steps[1:3]] == [Tier.GROUNDED, Tier.GROUNDED]
    assert d.steps[3].tier is Tier.VERIFIED and "x + 2*y ≠ 0" in d.steps[3].reason
    assert d.endpoint.reached and d.states[-1].latex == rf"{DY} = -\frac{{2x + y}}{{x + 2y}}"


def test_a_product_alone_needs_only_the_product_rule():
    d = derive("x y = 4", rf"{DY} = -\frac{{y}}{{x}}")
    assert d.steps[0].justification == "$y$ is a function of $x$: the product rule on $x y$"
    assert d.states[1].latex == rf"x {DY} + y = 0"
    assert len(d.steps) == 3 and all(s.tier >= Tier.VERIFIED for s in d.steps)
    assert d.endpoint.reached


def test_a_cubic_relation_gathers_the_slope_terms_on_one_side():
    d = derive("x^3 + y^3 = 6xy", rf"{DY} = \frac{{2y - x^2}}{{y^2 - 2x}}")
    assert d.steps[0].operation == "differentiate both sides with respect to $x$"
    assert d.states[1].latex == rf"3 y^{{2}} {DY} + 3 x^{{2}} = 6 x {DY} + 6 y"
    # the common factor 3 taken out with the terms' own signs, never -3(2x - y^2)
    assert rf"3 \left(y^{{2}} - 2 x\right) {DY} = 6 y - 3 x^{{2}}" in [t.latex for t in d.states]
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached


def test_fractions_left_by_differentiating_a_logarithm_are_cleared_first():
    d = derive(r"\ln y = x y", rf"{DY} = \frac{{y^2}}{{1 - x y}}")
    assert d.steps[1].operation == "multiply both sides by $y$"
    assert d.states[2].latex == rf"{DY} = x y {DY} + y^{{2}}"
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached


def test_a_root_in_the_denominator_is_cleared_and_every_line_decided():
    d = derive(r"x \sqrt{y} = 3", rf"{DY} = -\frac{{2y}}{{x}}")
    assert d.steps[1].operation == "multiply both sides by $2 \\sqrt{y}$"
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached
