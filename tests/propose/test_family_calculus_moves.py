"""Limits and derivatives added for the syllabus: L'Hôpital for ∞/∞, the standard limit
(1 + c/x)^x → e^c, and logarithmic differentiation of x^x; judged by the real grounding engine."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def test_lhopital_for_infinity_over_infinity_says_so():
    d = derive(r"\lim_{x \to \infty} \frac{x^2}{e^{x}}", "0")
    assert [s.operation for s in d.steps[:2]] == ["apply L'Hôpital's rule"] * 2
    assert "\\frac{\\infty}{\\infty}" in d.steps[0].justification
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_rational_limit_at_infinity_is_not_sent_to_lhopital():
    d = derive(r"\lim_{x \to \infty} \frac{3x^2 + 1}{2x^2 - x}", r"\frac{3}{2}")
    assert all("L'Hôpital" not in s.operation for s in d.steps)
    assert d.endpoint.reached and len(d.steps) >= 2


def test_standard_limit_is_named_with_its_constant():
    d = derive(r"\lim_{x \to \infty} \left(1 + \frac{2}{x}\right)^{x}", "e^{2}")
    # First the power written with the exponent x/2, then the standard limit in u = x/2.
    assert d.steps[0].operation == "write the power so that its exponent is $\\frac{x}{2}$"
    assert d.steps[1].operation == "use the standard limit"
    assert "$u = \\frac{x}{2}$" in d.steps[1].justification
    assert d.endpoint.reached and all(s.tier is Tier.GROUNDED for s in d.steps)


def test_x_to_the_x_is_differentiated_through_the_exponential_form():
    d = derive(r"\frac{d}{dx}\left(x^{x}\right)", r"x^{x}(\ln x + 1)")
    assert d.steps[0].operation == "write the power as an exponential"
    assert "apply the chain rule" in [s.operation for s in d.steps]
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached


def test_derivative_of_tan_goes_through_the_quotient_rule():
    d = derive(r"\frac{d}{dx}\left(\tan x\right)", r"\frac{1}{\cos^2 x}")
    ops = [s.operation for s in d.steps]
    assert ops[0] == "write $\\tan$ as $\\frac{\\sin}{\\cos}$"
    assert "apply the quotient rule" in ops and "use $\\sin^2 u + \\cos^2 u = 1$" in ops
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached
