"""The symbolic proposer behind the protocol: parser in, killable planner, feedback bans moves."""

from __future__ import annotations

from veristep.core.settings import Settings
from veristep.propose.protocol import Feedback, Proposer
from veristep.propose.symbolic.proposer import SymbolicProposer

SETTINGS = Settings(derive_timeout_s=5.0)


def test_feedback_on_a_weak_step_makes_the_next_draft_avoid_that_move():
    proposer = SymbolicProposer(SETTINGS)
    assert isinstance(proposer, Proposer)
    start, target = "x^2 - 5x + 6 = 0", r"x = 2 \lor x = 3"
    first = proposer.propose(start, target)
    assert first.meta["reached"] and first.steps[0].operation == "factor the left side"
    feedback = Feedback(1, ["step 1 is plausible: no check could decide"], [1], first)
    second = proposer.propose(start, target, feedback=feedback)
    assert second.meta["reached"]
    assert second.steps[0].operation != "factor the left side"
    assert second.steps[-1].expr_latex.count("\\lor") == 1


def test_planner_timeout_is_an_empty_draft_with_a_reason():
    proposer = SymbolicProposer(Settings(derive_timeout_s=0.5, cas_timeout_s=1.0))
    draft = proposer.propose(r"(x + y + z + 1)^{60}", r"(x + y + z + 1)^{60} + 1")
    assert not draft.meta.get("reached", False)
    assert draft.note  # either the planner's own "not reached" or the worker's timeout
