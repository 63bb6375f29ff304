"""Step and chain verdicts: the derivation JSON of docs/design.md as typed records.

The chain rule lives here because every system shares it: the verdict is the weakest step tier,
then the endpoint gate (a chain that does not reach its target is capped at plausible), and a single
refuted step makes the whole chain refuted.

>>> steps = [StepVerdict(1, tier=Tier.GROUNDED, relation=Relation.EQUIVALENT),
...          StepVerdict(2, tier=Tier.VERIFIED, relation=Relation.EQUIVALENT)]
>>> c = chain_confidence(steps, Endpoint(reached=False, math_correct=False, exact_graph=False), 3)
>>> c.tier.name_lower, c.summary
('plausible', '2/2 steps verified · endpoint NOT reached')
"""

from __future__ import annotations

import copy
import logging
from dataclasses import asdict, dataclass, field
from typing import Any

from veristep.core.learner import learner_view, step_sentence
from veristep.core.tiers import Relation, Tier

log = logging.getLogger(__name__)


@dataclass
class StateRecord:
    """One state of a derivation as written, and as re-rendered with stable ids when it parsed."""

    latex: str
    latex_ids: str | None = None
    error: str | None = None  # the located parse error, when the state is not convertible

    @property
    def convertible(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"latex": self.latex, "latex_ids": self.latex_ids}
        if self.error is not None:
            out["error"] = self.error
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StateRecord:
        return cls(data["latex"], data.get("latex_ids"), data.get("error"))


@dataclass
class StepVerdict:
    """The judgement of one transition previous → next (index counts from 1)."""

    index: int
    tier: Tier = Tier.UNCHECKED
    relation: Relation = Relation.UNKNOWN
    check: str | None = None  # the name of the check that decided
    reason: str = ""
    witness: Any = None  # something a person can check: a value, a root, a counter-model
    ms: float = 0.0
    operation: str | None = None
    expr_latex: str | None = None
    justification: str | None = None
    change_type: str | None = None
    # The check's findings as data (values lost, added or wrong, each side at a wrong value, an
    # assumption): what the learner view words; absent from the JSON when there are none.
    facts: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            "index": self.index,
            "operation": self.operation,
            "expr_latex": self.expr_latex,
            "justification": self.justification,
            "change_type": self.change_type,
            "relation": self.relation.value,
            "tier": self.tier.name_lower,
            "check": self.check,
            "reason": self.reason,
            "witness": self.witness,
            "ms": round(self.ms, 2),
        }
        if self.facts:
            out["facts"] = self.facts
        # The learner's sentence (the derivation re-words it with the two lines as written).
        try:
            out["learner"] = step_sentence(out)
        except Exception:  # a defect in the wording must not cost the verdict
            log.warning("learner sentence failed", exc_info=True)
            out["learner"] = ""
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StepVerdict:
        return cls(
            index=int(data["index"]),
            tier=Tier.parse(data["tier"]),
            relation=Relation(data["relation"]),
            check=data.get("check"),
            reason=data.get("reason") or "",
            witness=data.get("witness"),
            ms=float(data.get("ms") or 0.0),
            operation=data.get("operation"),
            expr_latex=data.get("expr_latex"),
            justification=data.get("justification"),
            change_type=data.get("change_type"),
            facts=data.get("facts"),
        )


@dataclass
class Endpoint:
    reached: bool  # the last state is the target as written (operand order aside)
    math_correct: bool  # the last state's mathematics equals the target's
    exact_graph: bool  # the last state's graph has the same structure as the parsed target
    # The conclusion gate (a solved-form last state compared with the start): None when it does
    # not apply or could not decide, else {"verdict": "refuted"|"incomplete", "reason", "witness"}.
    conclusion: dict[str, Any] | None = None
    # A given target that substitution shows to be wrong, answered in a sentence with the right
    # answer ("x = 12 does not solve it: ..."); absent from the JSON when there is none.
    correction: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        if out["correction"] is None:
            del out["correction"]
        return out


@dataclass
class Confidence:
    tier: Tier
    steps_verified: int
    steps_total: int
    refuted: int
    convertible: int
    summary: str

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["tier"] = self.tier.name_lower
        return out


def chain_confidence(
    steps: list[StepVerdict], endpoint: Endpoint, states_convertible: int
) -> Confidence:
    """Weakest link, then the conclusion gate, then the endpoint gate; any refuted step (or a
    conclusion that admits a value the start does not allow) refutes the chain. A chain of no
    steps has nothing to judge: it is never shown above unchecked.

    >>> none = chain_confidence([], Endpoint(True, True, True), 0)
    >>> none.tier.name_lower, none.summary
    ('unchecked', 'nothing to judge: 0 steps · endpoint reached')
    """
    refuted = sum(1 for s in steps if s.tier is Tier.REFUTED)
    verified = sum(1 for s in steps if s.tier >= Tier.VERIFIED)
    tier = min((s.tier for s in steps), default=Tier.UNCHECKED)
    conclusion = endpoint.conclusion or {}
    wrong_answer = conclusion.get("verdict") == "refuted"
    if refuted or wrong_answer:
        tier = Tier.REFUTED
    elif conclusion.get("verdict") == "incomplete" or not endpoint.reached:
        tier = min(tier, Tier.PLAUSIBLE)
    parts = [f"{verified}/{len(steps)} steps verified" if steps else "nothing to judge: 0 steps"]
    if refuted:
        parts.append(f"{refuted} refuted")
    if conclusion:
        parts.append(f"conclusion {conclusion['verdict']}: {conclusion['reason']}")
    if wrong_answer and not refuted and steps:
        # "✗ Refuted" beside "3/3 steps verified" reads as a contradiction: the wrong answer
        # comes first, and the count says it is about each step taken alone.
        parts = [parts[1], f"each step alone follows from the one before ({parts[0]})"]
    parts.append("endpoint reached" if endpoint.reached else "endpoint NOT reached")
    return Confidence(tier, verified, len(steps), refuted, states_convertible, " · ".join(parts))


@dataclass
class Derivation:
    """A judged chain of states: the object `check`, `derive`, the web API and review all share."""

    start: str
    target: str | None
    states: list[StateRecord]
    steps: list[StepVerdict]
    endpoint: Endpoint
    confidence: Confidence
    proposer: dict[str, Any] = field(
        default_factory=lambda: {"kind": None, "model": None, "attempts": 0, "usage": None}
    )
    # A goal-only task (derive without a target): the goal and the answer stated in a sentence.
    goal: str | None = None
    answer: dict[str, Any] | None = None
    # One state judged as a claim (an equation typed alone): true, false with a witness, or true
    # under a condition.
    claim: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            "start": self.start,
            "target": self.target,
            "states": [s.to_json() for s in self.states],
            "steps": [s.to_json() for s in self.steps],
            "endpoint": self.endpoint.to_json(),
            "confidence": self.confidence.to_json(),
            "proposer": self.proposer,
        }
        for key in ("goal", "answer", "claim"):
            if getattr(self, key) is not None:  # absent, not null: the contract's keys stay
                out[key] = getattr(self, key)
        # The learner view beside the teacher's fields: plain sentences from the same findings.
        try:
            view = learner_view(out)
        except Exception:  # a defect in the wording must not cost the verdict
            log.warning("learner view failed", exc_info=True)
            view = {"steps": [""] * len(out["steps"]), "summary": ""}
        for step, said in zip(out["steps"], view["steps"], strict=True):
            step["learner"] = said
        out["confidence"]["learner_summary"] = view["summary"]
        return out

    # Notebook display (Jupyter calls these): states, tiers, checks and witnesses, offline.
    def _repr_html_(self) -> str:
        from veristep.core.verdict_display import to_html

        return to_html(self)

    def _repr_markdown_(self) -> str:
        from veristep.core.verdict_display import to_markdown

        return to_markdown(self)

    def _repr_latex_(self) -> str:
        from veristep.core.verdict_display import to_latex

        return to_latex(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Derivation:
        conf = dict(data["confidence"])
        conf.pop("learner_summary", None)  # a view, recomputed by to_json
        conf["tier"] = Tier.parse(conf["tier"])
        return cls(
            start=data["start"],
            target=data.get("target"),
            states=[StateRecord.from_json(s) for s in data["states"]],
            steps=[StepVerdict.from_json(s) for s in data["steps"]],
            endpoint=Endpoint(**data["endpoint"]),
            confidence=Confidence(**conf),
            proposer=data.get("proposer") or {},
            goal=data.get("goal"),
            answer=data.get("answer"),
            claim=data.get("claim"),
        )


NOT_GRADED = "not graded by this server (saved by an older version or elsewhere)"


def ungraded_view(derivation: dict[str, Any], reason: str = NOT_GRADED) -> dict[str, Any]:
    """A copy with every tier unchecked: what a page shows for a row it did not grade."""
    shown = copy.deepcopy(derivation)
    for k, step in enumerate(shown.get("steps") or [], 1):
        if isinstance(step, dict):
            step.setdefault("index", k)
            step.update(tier="unchecked", reason=reason, witness=None)
    confidence = shown.get("confidence") if isinstance(shown.get("confidence"), dict) else {}
    shown["confidence"] = {**confidence, "tier": "unchecked", "summary": reason}
    shown["endpoint"] = None  # whether the target was reached is a grade too
    return shown
