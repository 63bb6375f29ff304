"""A restriction SymPy evaluates away is read from the state as written, in both directions."""

from __future__ import annotations

import pytest

from veristep.grounding import check


@pytest.mark.parametrize(
    ("prev", "nxt", "tier", "fragment"),
    [
        # Factoring a numerator keeps the domain as written: the same points, the same values.
        (r"\frac{x^2-1}{x-1}", r"\frac{(x-1)(x+1)}{x-1}", "grounded", "same points"),
        (r"\frac{x^2-4}{x+2}", r"\frac{(x+2)(x-2)}{x+2}", "grounded", "same points"),
        # Cancelling the factor changes the domain: equal only where both are defined.
        (r"\frac{x^2-1}{x-1}", "x + 1", "verified", "domain"),
        ("x", r"\frac{x^2}{x}", "verified", "where both are defined"),
        # Two written restrictions that differ are never glossed over.
        (r"\frac{(x-1)(x+2)}{x-1}", r"\frac{(x+2)(x+3)}{x+3}", "verified", "defined"),
    ],
)
def test_a_domain_is_compared_as_written(prev, nxt, tier, fragment) -> None:
    step = check([prev, nxt]).steps[0]
    assert step.tier.name_lower == tier, step.reason
    assert fragment in step.reason


@pytest.mark.parametrize(
    ("prev", "nxt"),
    [
        # Clearing a radical denominator: y = 0 is allowed by the next line as written.
        (r"\frac{v}{2\sqrt{y}} + \frac{1}{2\sqrt{x}} = 0", r"v + \frac{\sqrt{y}}{\sqrt{x}} = 0"),
        (
            r"\frac{\frac{dy}{dx}}{2 \sqrt{y}} + \frac{1}{2 \sqrt{x}} = 0",
            r"\frac{dy}{dx} + \frac{\sqrt{y}}{\sqrt{x}} = 0",
        ),
    ],
)
def test_a_widening_inside_the_written_domain_is_verified(prev: str, nxt: str) -> None:
    step = check([prev, nxt]).steps[0]
    assert (step.relation.value, step.tier.name_lower) == ("widens", "verified"), step.reason
    assert "written domain" in step.reason and "where that domain allows it" in step.reason


def test_a_slip_beside_a_written_domain_is_still_refuted() -> None:
    prev = r"\frac{v}{2\sqrt{y}} + \frac{1}{2\sqrt{x}} = 0"
    nxt = r"v - \frac{\sqrt{y}}{\sqrt{x}} = 0"
    assert check([prev, nxt]).steps[0].relation.value == "refuted"


def test_a_next_line_with_a_restriction_of_its_own_is_no_widening() -> None:
    # x² = 1 widens x = 1, but as written the next line also needs y > 0: at x = 1, y = -1 the
    # previous holds and the next is undefined, so "widens" would be false.
    step = check(["x = 1", r"x^2 \frac{\sqrt{y}}{\sqrt{y}} = 1"]).steps[0]
    assert step.relation.value != "widens" and step.tier.name_lower not in ("grounded", "verified")


@pytest.mark.parametrize(
    ("prev", "nxt", "tier"),
    [
        (r"\sqrt[3]{-8}", "-2", "grounded"),
        (r"x^3 = -8", r"x = \sqrt[3]{-8}", "grounded"),
        (r"\sqrt[3]{-8}", "2", "refuted"),
        # An even root of a negative number has no real value: nothing to check, never refuted.
        (r"\sqrt[4]{-16}", "-2", "unchecked"),
        # A cube root of a letter is defined below zero too: no "written domain" x - 9 >= 0
        # that would make the correct answer look like an extraneous root.
        (r"\sqrt[3]{x - 9} = -1", "x = 8", "grounded"),
        (r"\sqrt[3]{x} = -2", "x = -8", "grounded"),
    ],
)
def test_an_odd_root_of_a_negative_number_is_real(prev: str, nxt: str, tier: str) -> None:
    step = check([prev, nxt]).steps[0]
    assert step.tier.name_lower == tier, step.reason


@pytest.mark.parametrize(
    ("prev", "nxt", "tier"),
    [
        (r"s^3 = A", r"s = \sqrt[3]{A}", "grounded"),
        (r"V = \frac{4}{3}\pi r^3", r"r = \sqrt[3]{\frac{3V}{4\pi}}", "grounded"),
        (r"x = \sqrt[5]{a - b}", r"x^5 = a - b", "grounded"),
        (r"x^3 = 2y + 1", r"x = \sqrt[3]{2y} + 1", "refuted"),
        (r"x^5 = a - b", r"x = \sqrt[5]{a + b}", "refuted"),
    ],
)
def test_an_odd_root_of_both_sides_loses_nothing(prev: str, nxt: str, tier: str) -> None:
    """t ↦ t^n is one-to-one on the reals for odd n: A = B and A^n = B^n are the same statement."""
    step = check([prev, nxt]).steps[0]
    assert step.tier.name_lower == tier, step.reason
