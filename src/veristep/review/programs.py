"""The agent's roles as DSPy programs: elaborate a step, confirm a flaw, check a citation.

Plus the two baselines the benchmark runs with the same harness: one global judge call per proof,
and a sentence-by-sentence judge. Every role is a ``dspy.Predict`` over a typed Signature, so any
model string works and DSPy's adapters parse (or loudly fail to parse) the structured fields.
"""

from __future__ import annotations

from typing import Literal

import dspy
from pydantic import BaseModel

from veristep.review.trace import FLAW_KINDS

__all__ = ["FLAW_KINDS", "ExternalClaim", "role_programs"]


class ExternalClaim(BaseModel):
    """One item of Σ: a non-trivial result used by the step, and where it is proved."""

    claim: str
    citation: str = ""  # empty: the agent must prove it as a sub-step


class ElaborateStep(dspy.Signature):
    """You verify one step of a mathematical proof by expanding it into a finer derivation.

    Write the derivation of the step's assertion line by line. Name its local context Γ (earlier
    steps of the proof, by id, that it uses), its external knowledge Σ (non-trivial published
    results, each with a precise citation, or with an empty citation if it must be proved), and its
    background theory T (trivial facts, logic, rewrite rules). Answer `verified` only if the
    derivation is closed: Γ ∪ Σ ⊢_T assertion, with no gap. Answer `flawed` only with an explicit
    flaw witness of one of the named kinds. Otherwise answer `open` and, if useful, list the
    sub-claims that still need proof. Do not call a standard convention a gap."""

    problem: str = dspy.InputField(desc="the statement being proved, if given apart")
    proof: str = dspy.InputField(desc="the proof up to this step, one step per line as 'id: text'")
    step_id: str = dspy.InputField()
    step: str = dspy.InputField(desc="the step to verify")
    known: str = dspy.InputField(desc="machine-checked facts, recorded conventions, ledger claims")
    derivation: list[str] = dspy.OutputField(desc="the finer derivation, one line per item")
    local_context: list[str] = dspy.OutputField(desc="Γ: ids of the proof's steps used")
    external: list[ExternalClaim] = dspy.OutputField(desc="Σ: external results used")
    background: list[str] = dspy.OutputField(desc="T: trivial facts and rules used")
    verdict: Literal["verified", "flawed", "open"] = dspy.OutputField()
    flaw_kind: Literal[
        "none",
        "false_statement",
        "invalid_inference",
        "misapplied_theorem",
        "unjustified_gap",
        "computational_error",
        "circularity",
    ] = dspy.OutputField()
    flaw_witness: str = dspy.OutputField(desc="the explicit witness of the flaw, or empty")
    substeps: list[str] = dspy.OutputField(desc="sub-claims to prove separately (may be empty)")


class ConfirmFlaw(dspy.Signature):
    """Act as an adversarial referee of a claimed flaw in one proof step.

    Decide whether the claimed flaw is a real logical breakdown (the step is false or does not
    follow), an epistemic ambiguity (the step is right under an unstated but standard convention
    of the field — name the convention), or no flaw at all."""

    problem: str = dspy.InputField()
    proof: str = dspy.InputField()
    step: str = dspy.InputField()
    flaw_kind: str = dspy.InputField()
    flaw_witness: str = dspy.InputField()
    derivation: list[str] = dspy.InputField()
    classification: Literal["logical_breakdown", "epistemic_ambiguity", "no_flaw"] = (
        dspy.OutputField()
    )
    convention: str = dspy.OutputField(desc="the unstated convention, if an ambiguity; else empty")
    explanation: str = dspy.OutputField()


class CheckCitation(dspy.Signature):
    """Check whether a cited result exists and says exactly what is claimed."""

    claim: str = dspy.InputField()
    citation: str = dspy.InputField()
    status: Literal["supported", "false", "unsure"] = dspy.OutputField()
    note: str = dspy.OutputField()


class GlobalJudge(dspy.Signature):
    """Judge whether the proof is complete and rigorous. Steps are numbered 'id: text'."""

    problem: str = dspy.InputField()
    proof: str = dspy.InputField()
    verdict: Literal["correct", "incorrect"] = dspy.OutputField()
    first_error: str = dspy.OutputField(desc="id of the first wrong step, or 'none'")


class SentenceJudge(dspy.Signature):
    """Judge whether this one step of a proof is correct given the steps before it."""

    problem: str = dspy.InputField()
    previous: str = dspy.InputField()
    step: str = dspy.InputField()
    verdict: Literal["correct", "incorrect"] = dspy.OutputField()


def role_programs() -> dict[str, dspy.Module]:
    """One fresh program per role; callers keep them for the whole run."""
    return {
        "elaborate": dspy.Predict(ElaborateStep),
        "confirm": dspy.Predict(ConfirmFlaw),
        "cite": dspy.Predict(CheckCitation),
        "global_judge": dspy.Predict(GlobalJudge),
        "sentence_judge": dspy.Predict(SentenceJudge),
    }
