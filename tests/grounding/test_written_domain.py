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
