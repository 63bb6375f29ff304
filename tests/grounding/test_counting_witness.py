"""A refuted sum or product identity is witnessed at a bound a person would count to."""

from __future__ import annotations

import pytest

from veristep.core.tiers import Tier
from veristep.grounding import check


@pytest.mark.parametrize(
    ("prev", "nxt", "at", "previous", "following"),
    [
        (r"\sum_{k=1}^{n} k", r"\frac{n(n-1)}{2}", "n = 1", "1", "0"),
        (r"\prod_{k=1}^{n} k", "n^2", "n = 2", "2", "4"),
    ],
)
def test_sum_refutation_names_a_natural_bound(prev, nxt, at, previous, following) -> None:
    step = check([prev, nxt]).steps[0]
    assert step.tier is Tier.REFUTED
    assert step.witness == {"at": at, "previous": previous, "next": following}
    assert f"at {at} the previous is {previous} and the next is {following}" in step.reason


def test_a_true_sum_formula_is_still_grounded() -> None:
    step = check([r"\sum_{k=1}^{n} k^2", r"\frac{n(n+1)(2n+1)}{6}"]).steps[0]
    assert step.tier is Tier.GROUNDED
