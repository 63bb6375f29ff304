"""The planner's "check the candidates in the original equation" line is judged against the start:
rejecting a candidate that never solved the start is grounded, with the value named."""

from __future__ import annotations

import pytest

from veristep.core.tiers import Relation, Tier
from veristep.propose import derive


@pytest.mark.parametrize(
    ("start", "dropped"),
    [
        (r"\frac{x^2}{x-3} = \frac{9}{x-3}", "3"),  # a denominator: one candidate kept
        (r"\frac{x}{x-2} = \frac{2}{x-2} + 3", "2"),  # every candidate rejected: no solution
        (r"\frac{1}{x-1} + \frac{1}{x+1} = \frac{2}{x^2-1}", "1"),
    ],
)
def test_rejected_candidate_is_grounded_and_named(start: str, dropped: str) -> None:
    d = derive(start, goal="solve")
    check = [s for s in d.steps if s.operation == "check the candidates in the original equation"]
    assert check, [s.operation for s in d.steps]
    step = check[-1]
    assert (step.relation, step.tier) == (Relation.NARROWS, Tier.GROUNDED), step.reason
    assert f"drops {dropped}, which does not solve the start" in step.reason
    assert d.confidence.tier is not Tier.REFUTED
