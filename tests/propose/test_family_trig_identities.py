"""Trigonometric identities one named identity per step, judged by the real grounding engine."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def _strong(d) -> bool:
    return bool(d.steps) and all(s.tier >= Tier.VERIFIED for s in d.steps)


def test_square_of_a_sum_uses_pythagoras_then_double_angle():
    d = derive(r"(\sin x + \cos x)^2", r"1 + \sin(2x)")
    ops = [s.operation for s in d.steps]
    assert ops[0] == "expand the brackets"
    assert "use $\\sin^2 u + \\cos^2 u = 1$" in ops
    assert ops[-1] == "use $2 \\sin u \\cos u = \\sin 2u$"
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_each_justification_names_the_identity_it_used():
    d = derive(r"1 - 2\sin^2 x", r"\cos(2x)")
    assert [(s.operation, s.justification) for s in d.steps] == [
        ("use $1 - \\sin^2 u = \\cos^2 u$", "the Pythagorean identity"),
        ("use $\\cos^2 u - \\sin^2 u = \\cos 2u$", "the double-angle formula"),
    ]
    assert all(s.tier is Tier.GROUNDED for s in d.steps)


def test_quotient_identity_is_shown_before_the_cancellation():
    d = derive(r"\tan x \cos x", r"\sin x")
    assert [s.operation for s in d.steps] == [
        "write $\\tan u$ as $\\frac{\\sin u}{\\cos u}$",
        "simplify",
    ]
    assert _strong(d) and d.endpoint.reached


def test_angle_sum_formula_keeps_the_special_values_visible():
    d = derive(r"\sin(x + \frac{\pi}{3})", r"\frac{1}{2}\sin x + \frac{\sqrt{3}}{2}\cos x")
    assert d.steps[0].justification == "the angle-sum formula"
    assert r"\cos{\left(\frac{\pi}{3} \right)}" in d.states[1].latex
    assert _strong(d) and d.endpoint.reached and len(d.steps) == 2


def test_angle_sum_read_backwards_shows_the_angle_before_adding_it():
    d = derive(r"\sin x \cos(2x) + \cos x \sin(2x)", r"\sin(3x)")
    assert all("Pythagorean" not in s.justification for s in d.steps)
    assert [(s.operation, s.justification) for s in d.steps] == [
        ("use $\\sin a \\cos b + \\cos a \\sin b = \\sin(a + b)$", "the angle-sum formula"),
        ("add the angles", "collect like terms"),
    ]
    assert "x + 2 x" in d.states[1].latex
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_a_task_that_is_the_double_angle_formula_is_proved_from_the_angle_sum():
    # Citing "the double-angle formula" for cos^2 x - sin^2 x = cos 2x would cite the claim.
    d = derive(r"\cos^2 x - \sin^2 x", r"\cos(2x)")
    assert [s.operation for s in d.steps] == [
        "use $\\cos(a + b) = \\cos a \\cos b - \\sin a \\sin b$ with $a = b$",
        "add the angles",
    ]
    assert "x + x" in d.states[1].latex
    assert all(s.tier is Tier.GROUNDED for s in d.steps) and d.endpoint.reached


def test_a_pythagorean_task_is_proved_over_a_common_denominator():
    d = derive(r"\frac{1}{\cos^2 x} - 1", r"\tan^2 x")
    assert [(s.operation, s.justification) for s in d.steps] == [
        ("write over a common denominator", "adding fractions"),
        ("use $1 - \\cos^2 u = \\sin^2 u$", "the Pythagorean identity"),
        ("write $\\frac{\\sin u}{\\cos u}$ as $\\tan u$", "the quotient identity"),
    ]
    assert _strong(d) and d.endpoint.reached


def test_secant_is_written_with_cosine_then_one_identity_per_line():
    d = derive(r"\sec x - \cos x", r"\sin x \tan x")
    assert [(s.operation, s.justification) for s in d.steps] == [
        ("write $\\sec u = \\frac{1}{\\cos u}$", "the reciprocal identities"),
        ("write over a common denominator", "adding fractions"),
        ("use $1 - \\cos^2 u = \\sin^2 u$", "the Pythagorean identity"),
        ("write $\\frac{\\sin u}{\\cos u}$ as $\\tan u$", "the quotient identity"),
    ]
    assert _strong(d) and d.endpoint.reached


def test_an_identity_with_no_other_proof_is_still_cited():
    d = derive(r"\sin^2 x + \cos^2 x", "1")
    assert [s.justification for s in d.steps] == ["the Pythagorean identity"]
    assert d.endpoint.reached and _strong(d)


def test_cosecant_squared_minus_one_ends_with_the_cotangent():
    d = derive(r"\csc^2 x - 1", r"\cot^2 x")
    ops = [s.operation for s in d.steps]
    assert ops[0] == "write $\\csc u = \\frac{1}{\\sin u}$"
    assert "use $1 - \\sin^2 u = \\cos^2 u$" in ops
    assert ops[-1] == "write $\\frac{\\cos u}{\\sin u}$ as $\\cot u$"
    assert _strong(d) and d.endpoint.reached
