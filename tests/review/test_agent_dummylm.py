"""The review agent's state machine, driven by DSPy's DummyLM with scripted role replies."""

from __future__ import annotations

from pathlib import Path

import pytest
from dspy.utils import DummyLM

from veristep.core.errors import InputError
from veristep.core.tiers import Tier
from veristep.review.agent import ReviewBudget
from veristep.review.run import review_proof
from veristep.review.scripted import cite, confirm, elaborate
from veristep.review.trace import ClaimStatus, ReviewTrace, State

EVEN = "Let $n$ be an even integer. Then $n = 2k$ for some integer $k$. Hence $n^2 = 4k^2$ is even."


def review(proof: str, answers: list[dict], **kwargs) -> ReviewTrace:
    return review_proof(proof, lm=DummyLM(answers), **kwargs)


def test_valid_proof_is_accepted_with_model_checked_tiers_dummylm() -> None:
    trace = review(EVEN, [elaborate(), elaborate(local=("s1",)), elaborate(local=("s2",))])
    assert trace.verdict == "accepted"
    assert [trace.steps[s].state for s in trace.order] == [State.VERIFIED] * 3
    # A model's elaboration is evidence of plausibility only, never grounded.
    assert {trace.steps[s].tier for s in trace.order} == {Tier.PLAUSIBLE}
    assert [c.role for c in trace.calls] == ["elaborate"] * 3
    assert trace.steps["s3"].elaborations[0].local_context == ["s2"]


def test_flaw_is_confirmed_and_localised_dummylm() -> None:
    answers = [
        elaborate(),
        elaborate(
            "flawed", kind="invalid_inference", witness="n = 2k does not follow from n being odd"
        ),
        confirm("logical_breakdown", explanation="odd n is 2k+1, not 2k"),
    ]
    proof = "Let $n$ be an odd integer. Then $n = 2k$ for some integer $k$. Hence $n^2$ is even."
    trace = review(proof, answers)
    assert trace.verdict == "rejected"
    step = trace.steps["s2"]
    assert step.state is State.FLAWED and step.tier is Tier.REFUTED
    assert step.flaw.kind == "invalid_inference" and step.flaw.confirmed
    assert "s2 (1:28)" in trace.reason
    assert trace.steps["s3"].state is State.OPEN  # stopped at the confirmed flaw
    assert [c.role for c in trace.calls] == ["elaborate", "elaborate", "confirm"]


def test_pedantic_flaw_goes_back_to_open_with_the_convention_recorded_dummylm() -> None:
    answers = [
        elaborate("flawed", kind="unjustified_gap", witness="the proof never says k is an integer"),
        confirm("epistemic_ambiguity", convention="k ranges over the integers, as usual"),
        elaborate(),
        elaborate(),
    ]
    lm = DummyLM(answers)
    trace = review_proof("Write $n = 2k$. Then $n$ is even.", lm=lm)
    assert trace.verdict == "accepted"
    step = trace.steps["s1"]
    assert step.state is State.VERIFIED and step.flaw is None
    assert step.conventions == ["k ranges over the integers, as usual"]
    assert any("back to OPEN" in e for e in trace.events)
    # The recorded convention is shown to the next elaboration of that step.
    assert "k ranges over the integers" in str(lm.history[2]["messages"])
    assert "k ranges over the integers" not in str(lm.history[0]["messages"])


def test_exhaustion_after_five_idle_iterations_dummylm() -> None:
    # The model only ever splits the step: splitting is not progress.
    answers = [elaborate("open", substeps=(f"part {i}",)) for i in range(20)]
    trace = review("Then the theorem holds.", answers, budget=ReviewBudget(max_depth=1))
    assert trace.verdict == "undecided"
    assert trace.reason.startswith("exhausted: 5 iterations")
    assert trace.iterations == 5
    assert len(trace.calls) == 5


def test_ledger_claim_that_is_not_supported_blocks_downstream_acceptance_dummylm() -> None:
    claim = {"claim": "every bounded monotone sequence converges", "citation": "Smith 1999, Thm 9"}
    answers = [
        elaborate(external=(claim,)),
        cite("unsure", "cannot find Theorem 9 in that source"),
        elaborate(local=("s1",)),
    ]
    proof = "The sequence $a_n$ converges. Hence its limit $L$ exists."
    trace = review(proof, answers)
    entry = trace.ledger["L1"]
    assert entry.status is ClaimStatus.OPEN
    assert trace.steps["s1"].state is State.OPEN and trace.steps["s1"].blocked_on == ["L1"]
    # s2 rests on s1, which rests on the unsupported claim: it may not be validated either.
    assert trace.steps["s2"].state is State.OPEN and trace.steps["s2"].blocked_on == ["L1"]
    assert trace.verdict == "undecided"


def test_supported_citation_unblocks_acceptance_dummylm() -> None:
    claim = {"claim": "every bounded monotone sequence converges", "citation": "Rudin, Thm 3.14"}
    answers = [elaborate(external=(claim,)), cite("supported"), elaborate(local=("s1",))]
    trace = review("The sequence $a_n$ converges. Hence its limit $L$ exists.", answers)
    assert trace.verdict == "accepted"
    assert trace.ledger["L1"].status is ClaimStatus.SUPPORTED


def test_uncited_claim_is_proved_as_a_sub_step_dummylm() -> None:
    claim = {"claim": "the square of an even integer is even", "citation": ""}
    answers = [elaborate(external=(claim,)), elaborate()]
    trace = review("Since $n$ is even, $n^2$ is even.", answers)
    assert trace.steps["s1"].children == ["s1.1"]
    assert trace.steps["s1.1"].text.startswith("Prove: the square")
    assert trace.ledger["L1"].status is ClaimStatus.SUPPORTED
    assert trace.verdict == "accepted"


def test_malformed_model_output_is_recorded_and_the_step_stays_open_dummylm() -> None:
    answers = [
        {"derivation": "not a list", "verdict": "perhaps"},  # unparseable
        elaborate("flawed", kind="none", witness=""),  # 'flawed' without kind or witness
        elaborate(),
    ]
    trace = review("Then the theorem holds.", answers)
    assert trace.verdict == "accepted"
    assert trace.calls[0].ok is False and "Error" in trace.calls[0].error
    assert any("malformed" in e for e in trace.events)
    assert any("without a named kind" in e for e in trace.events)


def test_false_computation_inside_an_elaboration_does_not_verify_dummylm() -> None:
    bad = elaborate(derivation=("we have $3 \\cdot 7 = 24$", "so the claim follows"))
    trace = review("Then the theorem holds.", [bad, elaborate()])
    assert trace.verdict == "accepted"
    assert len(trace.steps["s1"].elaborations) == 2
    assert any("elaboration rejected" in e and "21" in e for e in trace.events)


def test_a_machine_flaw_stands_when_the_referee_names_no_convention_dummylm() -> None:
    answers = [confirm("logical_breakdown", explanation="420 + 48 is 468")]
    trace = review("So, in total, there are $420 + 48 = 478$ seconds. Done.", answers)
    assert trace.verdict == "rejected"
    assert [c.role for c in trace.calls] == ["confirm"]
    flaw = trace.steps["s1"].flaw
    assert flaw.source == "machine" and flaw.kind == "computational_error" and flaw.confirmed
    assert "468" in flaw.witness and flaw.confirmation == "420 + 48 is 468"


def test_a_machine_flaw_goes_back_to_open_only_under_a_named_convention_dummylm() -> None:
    answers = [
        confirm("epistemic_ambiguity", convention="hours on a 12-hour clock"),
        elaborate(),
        elaborate(),
    ]
    trace = review("Ten hours after 5 it is $5 + 10 = 3$ on the clock. Done.", answers)
    step = trace.steps["s1"]
    assert step.conventions == ["hours on a 12-hour clock"]
    assert step.state is State.VERIFIED and step.tier is Tier.PLAUSIBLE
    assert trace.verdict == "accepted"


def test_a_counterexample_to_a_stated_claim_needs_no_referee_dummylm() -> None:
    trace = review("For all integers $n \\ge 1$, $2^n > n + 1$. Done.", [])
    assert trace.verdict == "rejected" and trace.calls == []
    flaw = trace.steps["s1"].flaw
    assert flaw.kind == "false_statement" and flaw.source == "machine" and flaw.confirmed
    assert flaw.witness.startswith("n = 1:")


def test_a_lemma_false_under_the_problems_hypotheses_is_flawed_without_a_referee_dummylm() -> None:
    problem = "Let $a, b, c$ be positive real numbers such that $abc = 1$. Prove that $X \\le 1$."
    steps = [
        "Case 1: $a \\ge 1$. Then $a^5 \\ge a$.",  # true in the case: not flagged
        "We first prove the lemma $a^5 + b^5 + c^2 \\ge a + b + c$.",
        "Hence the claim.",
    ]
    trace = review_proof(steps, lm=DummyLM([]), problem=problem)
    assert trace.verdict == "rejected" and trace.calls == []
    assert trace.steps["s1"].state is not State.FLAWED
    flaw = trace.steps["s2"].flaw
    assert flaw.kind == "false_statement" and flaw.source == "machine" and flaw.confirmed
    assert flaw.witness.startswith("a = 1, b = 4/5, c = 5/4 (satisfies the problem's hypotheses)")


def test_a_gap_the_proof_admits_is_flawed_without_a_referee_dummylm() -> None:
    steps = ["We have $2 + 2 = 4$.", "I was not able to complete a correct proof of the rest."]
    trace = review_proof(steps, lm=DummyLM([]))
    assert trace.verdict == "rejected" and trace.calls == []
    flaw = trace.steps["s2"].flaw
    assert flaw.kind == "unjustified_gap" and flaw.source == "machine" and flaw.confirmed
    assert "I was not able to complete a correct proof of the rest." in flaw.witness


def test_without_a_model_the_review_is_honestly_undecided() -> None:
    trace = review_proof("We have $6 \\cdot 7 = 42$. Hence the claim holds.")
    assert trace.verdict == "undecided"
    assert trace.steps["s1"].tier is Tier.GROUNDED
    assert trace.steps["s2"].state is State.OPEN
    assert "no model configured" in trace.reason


def test_interrupted_review_resumes_where_it_stopped_dummylm(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"

    def interrupt(trace: ReviewTrace) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        review(EVEN, [elaborate()], trace_path=path, on_iteration=interrupt)
    saved = ReviewTrace.load(path)
    assert saved.verdict is None and saved.iterations == 1
    assert saved.steps["s1"].state is State.VERIFIED and len(saved.calls) == 1
    resumed = review(EVEN, [elaborate(), elaborate()], trace_path=path, resume=True)
    assert resumed.verdict == "accepted"
    assert resumed.iterations == 3 and [c.step for c in resumed.calls] == ["s1", "s2", "s3"]


def test_resuming_a_trace_of_another_proof_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    review_proof("We have $1 + 1 = 2$.", trace_path=path)
    with pytest.raises(InputError, match="belongs to a different proof"):
        review_proof("We have $2 + 2 = 4$.", trace_path=path, resume=True)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match="not readable"):
        review_proof("We have $1 + 1 = 2$.", trace_path=path, resume=True)


def test_long_proofs_are_abridged_in_the_prompt_but_never_the_current_step_dummylm() -> None:
    filler = "This sentence restates a known fact about the objects above in many words. " * 4
    steps = [f"{filler}Claim {i} holds." for i in range(1, 121)]
    lm = DummyLM([elaborate() for _ in steps])
    trace = review_proof(steps, lm=lm, problem="Show that claim 120 holds.")
    assert trace.verdict == "accepted" and trace.problem == "Show that claim 120 holds."
    last = str(lm.history[-1]["messages"])
    assert "steps omitted" in last and "Claim 120 holds." in last and "Claim 1 holds." in last
    assert "Show that claim 120 holds." in last
    assert "steps omitted" not in str(lm.history[0]["messages"])


def test_a_false_citation_becomes_a_confirmed_misapplied_theorem_dummylm() -> None:
    claim = {"claim": "every continuous function is differentiable", "citation": "Folklore, 1900"}
    answers = [
        elaborate(external=(claim,)),
        cite("false", "the Weierstrass function is a counterexample"),
        confirm("logical_breakdown"),
    ]
    trace = review("Since $f$ is continuous, $f$ is differentiable.", answers)
    assert trace.verdict == "rejected"
    assert trace.ledger["L1"].status is ClaimStatus.FALSE
    flaw = trace.steps["s1"].flaw
    assert flaw.kind == "misapplied_theorem" and "Weierstrass" in flaw.witness and flaw.confirmed


def test_a_sub_step_refuted_by_the_machine_is_judged_as_the_parents_flaw_dummylm() -> None:
    answers = [
        elaborate("open", substeps=("We have $17 \\cdot 3 = 41$.",)),
        confirm("logical_breakdown", explanation="the step rests on 17·3 = 41"),
    ]
    trace = review("Hence the count is odd.", answers)
    child = trace.steps["s1.1"]
    assert child.state is State.FLAWED and child.flaw.source == "machine"
    assert "51" in child.flaw.witness
    assert trace.verdict == "rejected"
    assert trace.steps["s1"].flaw.witness.startswith("sub-step s1.1 fails")
    assert [c.role for c in trace.calls] == ["elaborate", "confirm"]
