"""The refinement loop: draft, ground, score, and retry with the specific failures fed back.

One object with an explicit budget (attempts, wall time, tokens) and a record of every attempt.
The score is one blended signal compared with one threshold:

    score = well-formedness × ((1 − w) · grounding + w · judge)

where *grounding* grades every step by its tier (grounded 1, verified 0.85, plausible 0.4,
unchecked 0.1, refuted 0), then scales by 0.4 for a missed endpoint (the heaviest miss), by 0.5
for any step below verified and by 0.5 again for any refuted step, and *judge* is the
optional soft LLM judgement of clarity and pedagogy (weight ``w``; without a judge ``w = 0``).
Hard gates set the floor (a refuted or unfinished chain can never pass), the judge only shapes the
order among drafts that already ground.

>>> from veristep.core.verdicts import Confidence, Derivation, Endpoint, StepVerdict
>>> steps = [StepVerdict(1, tier=Tier.GROUNDED),
...          StepVerdict(2, tier=Tier.REFUTED, reason="7 is not a root", witness=7,
...                      operation="simplify", expr_latex="x = 7")]
>>> d = Derivation("x^2=4", "x=7", [], steps, Endpoint(True, True, True),
...                Confidence(Tier.REFUTED, 1, 2, 1, 3, ""))
>>> round(grounding_grade(d), 3)
0.125
>>> feedback_reasons(d)[0]
'step 2 (simplify → x = 7) is refuted: 7 is not a root; witness: 7'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from veristep.core.tiers import Tier
from veristep.core.verdicts import Derivation
from veristep.propose.protocol import Draft, Feedback, Proposer

TIER_GRADE = {
    Tier.GROUNDED: 1.0,
    Tier.VERIFIED: 0.85,
    Tier.PLAUSIBLE: 0.4,
    Tier.UNCHECKED: 0.1,
    Tier.REFUTED: 0.0,
}

Checker = Callable[[str, Draft, str], Derivation]
Judge = Callable[[Derivation], tuple[float, str]]


def grounding_grade(d: Derivation) -> float:
    """Mean tier grade of the steps, scaled down for a missed endpoint (× 0.4), for any step below
    verified (× 0.5: one weak step in a long chain must not pass) and for a refuted step (× 0.5)."""
    if not d.steps:
        return 0.0
    grade = sum(TIER_GRADE[s.tier] for s in d.steps) / len(d.steps)
    if not d.endpoint.reached:
        grade *= 0.4
    if any(s.tier < Tier.VERIFIED for s in d.steps):
        grade *= 0.5
    if any(s.tier is Tier.REFUTED for s in d.steps):
        grade *= 0.5
    return grade


def well_formedness(draft: Draft, d: Derivation) -> float:
    """Fraction of steps that are convertible and carry an operation and a justification."""
    if not draft.steps:
        return 0.0
    ok = sum(
        1
        for s, v in zip(draft.steps, d.steps, strict=False)
        if s.operation.strip() and s.justification.strip() and v.tier is not Tier.UNCHECKED
    )
    return ok / len(draft.steps)


def feedback_reasons(d: Derivation) -> list[str]:
    """The specific failures in words: weak steps (reason, witness) and the missed endpoint."""
    reasons = []
    for s in d.steps:
        if s.tier >= Tier.VERIFIED:
            continue
        what = f"{s.operation or 'step'} → {s.expr_latex}" if s.expr_latex else (s.operation or "")
        line = f"step {s.index} ({what}) is {s.tier.name_lower}: {s.reason or 'no reason given'}"
        if s.witness is not None:
            line += f"; witness: {s.witness}"
        reasons.append(line)
    if not d.steps:
        reasons.append("no steps were produced")
    elif not d.endpoint.reached:
        last = d.states[-1].latex if d.states else "?"
        if d.goal is not None and d.target is None:
            reasons.append(f"the last state {last} is not the finished form of {d.goal!r}")
        else:
            reasons.append(f"the last state {last} is not equivalent to the target {d.target}")
    return reasons


@dataclass
class Attempt:
    index: int
    draft: Draft
    derivation: Derivation
    score: float
    grounding: float
    judge: float | None
    judge_comment: str = ""
    feedback_in: str | None = None  # the feedback this attempt was given
    ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        c = self.derivation.confidence
        return {
            "index": self.index,
            "score": round(self.score, 4),
            "grounding": round(self.grounding, 4),
            "judge": None if self.judge is None else round(self.judge, 4),
            "judge_comment": self.judge_comment or None,
            "tier": c.tier.name_lower,
            "summary": c.summary,
            "steps": len(self.draft.steps),
            "note": self.draft.note,
            "feedback": self.feedback_in,
            "bridged": self.draft.bridged or None,
            "usage": self.draft.usage,
            "ms": round(self.ms, 1),
        }


@dataclass
class RefineLoop:
    proposer: Proposer
    checker: Checker
    attempts: int = 1
    threshold: float = 0.9
    judge: Judge | None = None
    judge_weight: float = 0.2
    time_budget_s: float = 120.0
    token_budget: int | None = None
    on_attempt: Callable[[Attempt], None] | None = None  # progress reporting
    record: list[Attempt] = field(default_factory=list)

    def run(self, start: str, target: str, domain: str = "auto") -> Attempt:
        """Draft until one passes the threshold or a budget ends; the best attempt wins."""
        began = time.monotonic()
        feedback: Feedback | None = None
        for index in range(1, max(1, self.attempts) + 1):
            attempt = self._one(index, start, target, domain, feedback)
            self.record.append(attempt)
            if self.on_attempt is not None:
                self.on_attempt(attempt)
            if attempt.score >= self.threshold or self._spent(began):
                break
            weak = [s.index for s in attempt.derivation.steps if s.tier < Tier.VERIFIED]
            if not weak and getattr(self.proposer, "deterministic", False):
                break  # nothing to search around: a retry would repeat the same draft
            feedback = Feedback(index, feedback_reasons(attempt.derivation), weak, attempt.draft)
        return self.best()

    def best(self) -> Attempt:
        # Ties go to the earlier attempt: a retry must be strictly better to replace it.
        return max(self.record, key=lambda a: (a.score, -a.index))

    def _one(
        self, index: int, start: str, target: str, domain: str, feedback: Feedback | None
    ) -> Attempt:
        began = time.monotonic()
        draft = self.proposer.propose(start, target, domain, feedback)
        derivation = self.checker(start, draft, target)
        grade = grounding_grade(derivation)
        judged, comment = (None, "")
        if self.judge is not None and draft.steps:
            judged, comment = self.judge(derivation)
        blended = (
            grade
            if judged is None
            else (1 - self.judge_weight) * grade + self.judge_weight * judged
        )
        score = well_formedness(draft, derivation) * blended
        text = feedback.as_text() if feedback else None
        ms = (time.monotonic() - began) * 1000.0
        return Attempt(index, draft, derivation, score, grade, judged, comment, text, ms)

    def _spent(self, began: float) -> bool:
        if time.monotonic() - began >= self.time_budget_s:
            return True
        if self.token_budget is None:
            return False
        used = sum((a.draft.usage or {}).get("total_tokens", 0) for a in self.record)
        return used >= self.token_budget
