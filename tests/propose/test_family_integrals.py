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


def test_substitution_first_writes_the_inner_derivative_beside_the_integrand():
    d = derive(r"\int \cos(3x) \, dx", r"\frac{\sin(3x)}{3} + C")
    assert [s.operation for s in d.steps] == [
        "write the integrand with the derivative of $3 x$ beside it",
        "integrate by the substitution $u = 3 x$, and add the constant of integration",
    ]
    # the constant that makes u' = 3 appear is balanced outside the integral
    assert (
        d.states[1].latex
        == r"\frac{1}{3} \int \cos{\left(3 x \right)} \frac{d}{dx}\left(3 x\right)\, dx"
    )
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_substitution_keeps_the_constant_that_is_the_inner_derivative():
    # 2x is the derivative of x^2 + 1: no "take the constant 2 out" before the substitution
    d = derive(r"\int 2x (x^2 + 1)^3 \, dx", r"\frac{(x^2 + 1)^4}{4} + C")
    assert (
        d.states[1].latex
        == r"\int \left(x^{2} + 1\right)^{3} \frac{d}{dx}\left(x^{2} + 1\right)\, dx"
    )
    assert len(d.steps) == 2 and all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached


def test_the_substitution_whose_answer_has_the_target_form_is_chosen():
    # u = cos x would give -cos^2 x / 2, which differs from the target by a constant
    d = derive(r"\int \sin x \cos x \, dx", r"\frac{\sin^2 x}{2} + C")
    assert "$u = \\sin{\\left(x \\right)}$" in d.steps[-1].operation
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_the_plainest_integral_in_u_is_chosen():
    d = derive(r"\int \frac{(\ln x)^2}{x} \, dx", r"\frac{(\ln x)^3}{3} + C")
    assert "$u = \\ln{\\left(x \\right)}$" in d.steps[-1].operation
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_an_exponential_of_a_function_is_integrated_by_substitution_not_dropped():
    # e^{sin x}: its argument has no degree in x, which once made the parts rule raise and the
    # planner offer no move at all
    d = derive(r"\int e^{\sin x} \cos x \, dx", r"e^{\sin x} + C")
    assert "$u = \\sin{\\left(x \\right)}$" in d.steps[-1].operation
    assert len(d.steps) == 2 and all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached
