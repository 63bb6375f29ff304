"""The DSPy ProofCompletion program with scripted DummyLM trajectories, through real grounding."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from dspy.utils.dummies import DummyLM

sys.path.insert(0, str(Path(__file__).parent))

from propose_scripted import (
    BACKSLASHES,
    GOOD,
    MALFORMED,
    MISSES,
    TO_SEVEN,
    answer,
    blocks,
)

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.propose import derive
from veristep.propose.hybrid import HybridProposer
from veristep.propose.llm.proposer import LLMProposer

SETTINGS = Settings(step_timeout_s=5.0, cas_timeout_s=3.0)


def _proposer(*trajectories: str) -> tuple[LLMProposer, DummyLM]:
    lm = DummyLM([answer(t) for t in trajectories])
    return LLMProposer(lm, model="dummy"), lm


def test_dummylm_good_trajectory_is_grounded_and_reaches_the_target():
    proposer, _ = _proposer(GOOD)
    d = derive("x^2 = 4", r"x = 2 \lor x = -2", proposer=proposer, settings=SETTINGS)
    assert len(d.steps) == 3
    assert all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached and d.confidence.tier is Tier.GROUNDED
    assert d.proposer["kind"] == "llm" and d.proposer["model"] == "dummy"
    assert d.steps[1].operation == "factor the difference of squares"


def test_dummylm_x_squared_four_to_seven_is_refuted_with_a_witness():
    proposer, _ = _proposer(TO_SEVEN)
    d = derive("x^2 = 4", "x = 7", proposer=proposer, settings=SETTINGS)
    assert d.steps[-1].tier is Tier.REFUTED
    assert d.steps[-1].witness is not None
    assert d.confidence.tier is Tier.REFUTED


def test_dummylm_trajectory_that_misses_the_target_is_capped():
    proposer, _ = _proposer(MISSES)  # valid steps, but x = 2 alone is narrower than x^2 = 4
    d = derive("x^2 = 4", "x = 2", proposer=proposer, settings=SETTINGS)
    assert d.steps[0].tier is Tier.GROUNDED
    assert not d.endpoint.reached
    assert d.confidence.tier is Tier.PLAUSIBLE


def test_dummylm_malformed_output_is_an_empty_draft_not_a_crash():
    proposer, _ = _proposer(MALFORMED)
    d = derive("x^2 = 4", "x = 2", proposer=proposer, settings=SETTINGS)
    assert d.steps == []
    assert not d.endpoint.reached
    assert "unreadable model output" in d.proposer["note"]
    assert "I believe" in d.proposer["note"]  # the raw answer is kept for the record


def test_dummylm_backslashes_in_every_field_survive_json():
    proposer, _ = _proposer(BACKSLASHES)
    d = derive(r"\frac{x}{2} = 3", "x = 6", proposer=proposer, settings=SETTINGS)
    (step,) = d.steps
    assert step.expr_latex == r"\left(x\right) = 6"
    assert step.operation == r"multiply \frac{x}{2} by 2"
    assert step.justification.startswith(r"\frac{x}{2} \cdot 2")
    assert step.tier is Tier.GROUNDED and d.endpoint.reached


def test_refine_loop_feeds_the_failure_reasons_into_the_next_attempt():
    proposer, lm = _proposer(TO_SEVEN, GOOD)
    d = derive("x^2 = 4", r"x = 2 \lor x = -2", proposer=proposer, attempts=3, settings=SETTINGS)
    history = d.proposer["history"]
    assert d.proposer["attempts"] == 2  # the second draft passed the threshold: no third
    assert d.proposer["best_attempt"] == 2 and d.confidence.tier is Tier.GROUNDED
    second_prompt = str(lm.history[-1]["messages"])
    assert "Attempt 1 was checked and fell short" in second_prompt
    assert "refuted" in second_prompt and "x = 7" in second_prompt
    assert history[1]["feedback"].startswith("Attempt 1")
    assert history[0]["score"] < history[1]["score"]


def test_refine_loop_keeps_the_best_draft_when_a_retry_is_worse():
    proposer, _ = _proposer(MISSES, TO_SEVEN)
    d = derive("x^2 = 4", "x = 2", proposer=proposer, attempts=2, settings=SETTINGS)
    assert d.proposer["attempts"] == 2
    assert d.proposer["best_attempt"] == 1
    assert [s.expr_latex for s in d.steps] == ["x^2 - 4 = 0"]


def test_judge_score_is_blended_and_recorded():
    proposer, _ = _proposer(GOOD)
    d = derive("x^2 = 4", r"x = 2 \lor x = -2", proposer=proposer, settings=SETTINGS,
               judge=lambda derivation: (0.5, "name the zero-product property"))  # fmt: skip
    (attempt,) = d.proposer["history"]
    assert attempt["judge"] == 0.5 and attempt["judge_comment"] == "name the zero-product property"
    assert attempt["score"] == pytest.approx(0.8 * 1.0 + 0.2 * 0.5)


def test_hybrid_bridges_an_undecidable_jump_with_grounded_planner_steps():
    formula = r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}"
    proposer, _ = _proposer(blocks(("apply the quadratic formula", formula, "well known")))
    hybrid = HybridProposer(proposer, SETTINGS)
    d = derive("a x^2 + b x + c = 0", formula, proposer=hybrid, settings=SETTINGS)
    assert d.proposer["kind"] == "hybrid"
    assert d.proposer["bridged"], d.proposer["note"]
    assert len(d.steps) >= 6 and d.proposer["bridged"] == list(range(1, len(d.steps) + 1))
    assert all(s.tier >= Tier.VERIFIED for s in d.steps) and d.endpoint.reached
    assert "bridged" in d.proposer["note"]


def test_dummylm_pedagogy_judge_is_clamped_and_recorded():
    from veristep.propose.llm.judge import PedagogyJudge

    proposer, _ = _proposer(GOOD)
    judge_lm = DummyLM([{"clarity": "8/10", "comment": "name the zero-product property"}])
    d = derive("x^2 = 4", r"x = 2 \lor x = -2", proposer=proposer, settings=SETTINGS,
               judge=PedagogyJudge(judge_lm))  # fmt: skip
    (attempt,) = d.proposer["history"]
    assert attempt["judge"] == pytest.approx(0.8)
    assert attempt["judge_comment"] == "name the zero-product property"
    assert "set each factor to zero" in str(judge_lm.history[-1]["messages"])
