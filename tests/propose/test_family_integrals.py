"""Integrals as teacher moves: linearity, integration by parts, the constant of integration, and
a definite integral's evaluation at the bounds written before the arithmetic."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def test_indefinite_polynomial_splits_then_adds_the_constant_once():
    d = derive(r"\int (3x^2 + 4x - 5) \, dx", r"x^3 + 2x^2 - 5x + C")
    ops = [s.operation for s in d.steps]
    assert ops[0] == "split the integral of the sum"
    assert sum("add the constant of integration" in op for op in ops) == 1
    assert all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached and d.states[-1].latex == r"x^3 + 2x^2 - 5x + C"


def test_integration_by_parts_names_u_and_dv():
    d = derive(r"\int x e^{x} \, dx", r"x e^{x} - e^{x} + C")
    assert d.steps[0].operation == "integrate by parts"
    assert "$u = x$" in d.steps[0].justification and "$dv = e^{x} dx$" in d.steps[0].justification
    assert len(d.steps) == 2 and all(s.tier is Tier.GROUNDED for s in d.steps)


def test_parts_with_a_logarithm_takes_u_as_the_logarithm():
    d = derive(r"\int x \ln x \, dx", r"\frac{x^2 \ln x}{2} - \frac{x^2}{4} + C")
    assert "$u = \\ln{\\left(x \\right)}$" in d.steps[0].justification
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached


def test_definite_integral_shows_the_evaluation_at_the_bounds():
    d = derive(r"\int_0^{\pi} \sin x \, dx", "2")
    assert [s.operation for s in d.steps] == ["evaluate the antiderivative at the bounds",
                                              "simplify"]  # fmt: skip
    assert r"\cos{\left(\pi \right)}" in d.states[1].latex
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached
