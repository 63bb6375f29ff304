"""The review trace: every step's state, its elaborations, the theorem ledger and every model call.

The trace is the agent's whole memory. It is written to JSON after every iteration and read back
by ``--resume``, so a review interrupted at iteration 7 continues at iteration 8 with the same
states, ledger, idle counter and call log.

>>> t = ReviewTrace.new("demo", [Segment("s1", "So $1 + 1 = 2$.", 0, 15, 1, 1)], model=None)
>>> ReviewTrace.from_json(t.to_json()).steps["s1"].state
<State.OPEN: 'open'>
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from veristep.core.tiers import Tier
from veristep.review.calls import CallRecord
from veristep.review.machine import MachineResult
from veristep.review.segment import Segment

FLAW_KINDS = (
    "false_statement",
    "invalid_inference",
    "misapplied_theorem",
    "unjustified_gap",
    "computational_error",
    "circularity",
)


class State(StrEnum):
    OPEN = "open"
    VERIFIED = "verified"
    FLAWED = "flawed"


class ClaimStatus(StrEnum):
    OPEN = "open"
    SUPPORTED = "supported"
    FALSE = "false"


@dataclass
class Elaboration:
    """(Γ, Σ, T) and the finer derivation a role produced for one step."""

    derivation: list[str]
    local_context: list[str]
    external: list[str]  # ledger ids
    background: list[str]
    verdict: str
    substeps: list[str] = field(default_factory=list)
    grounded: list[str] = field(default_factory=list)  # computations in it the machine grounded


@dataclass
class Flaw:
    kind: str
    witness: str
    source: str  # "machine" (a checker's witness) or "model"
    confirmed: bool = False
    confirmation: str = ""


@dataclass
class StepRecord:
    id: str
    text: str
    location: str
    parent: str | None = None
    depth: int = 0
    state: State = State.OPEN
    tier: Tier = Tier.UNCHECKED
    machine: MachineResult | None = None
    elaborations: list[Elaboration] = field(default_factory=list)
    flaw: Flaw | None = None
    conventions: list[str] = field(default_factory=list)
    blocked_on: list[str] = field(default_factory=list)  # ledger ids not yet SUPPORTED
    children: list[str] = field(default_factory=list)
    attempts: int = 0
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["state"] = self.state.value
        out["tier"] = self.tier.name_lower
        out["machine"] = self.machine.to_json() if self.machine else None
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StepRecord:
        data = dict(data)
        data["state"] = State(data["state"])
        data["tier"] = Tier.parse(data["tier"])
        data["machine"] = MachineResult.from_json(data["machine"]) if data["machine"] else None
        data["elaborations"] = [Elaboration(**e) for e in data["elaborations"]]
        data["flaw"] = Flaw(**data["flaw"]) if data["flaw"] else None
        return cls(**data)


@dataclass
class LedgerEntry:
    """An external claim Σ used by some step: nothing resting on it is VERIFIED until SUPPORTED."""

    id: str
    claim: str
    citation: str
    status: ClaimStatus = ClaimStatus.OPEN
    support: str = ""  # "citation: ..." or the id of the sub-step that proves it
    used_by: list[str] = field(default_factory=list)
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["status"] = self.status.value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LedgerEntry:
        return cls(**{**data, "status": ClaimStatus(data["status"])})


@dataclass
class ReviewTrace:
    source: str
    model: str | None
    order: list[str]  # top-level step ids in proof order
    steps: dict[str, StepRecord]
    ledger: dict[str, LedgerEntry] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)
    iterations: int = 0
    idle: int = 0
    verdict: str | None = None  # "accepted" | "rejected" | "undecided"
    reason: str = ""
    events: list[str] = field(default_factory=list)
    problem: str = ""  # the statement proved, when it comes apart from the proof (benchmarks)

    @classmethod
    def new(
        cls, source: str, segments: list[Segment], model: str | None, problem: str = ""
    ) -> ReviewTrace:
        steps = {s.id: StepRecord(s.id, s.text, s.location) for s in segments}
        return cls(source, model, [s.id for s in segments], steps, problem=problem)

    @property
    def tokens(self) -> int:
        return sum(c.tokens for c in self.calls)

    def _repr_html_(self) -> str:  # a notebook shows the review, not a bare dataclass
        from veristep.review.trace_display import to_html

        return to_html(self)

    def _repr_markdown_(self) -> str:
        from veristep.review.trace_display import to_markdown

        return to_markdown(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "problem": self.problem,
            "model": self.model,
            "verdict": self.verdict,
            "reason": self.reason,
            "iterations": self.iterations,
            "idle": self.idle,
            "tokens": self.tokens,
            "order": self.order,
            "steps": [s.to_json() for s in self.steps.values()],
            "ledger": [e.to_json() for e in self.ledger.values()],
            "calls": [c.to_json() for c in self.calls],
            "events": self.events,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReviewTrace:
        steps = [StepRecord.from_json(s) for s in data["steps"]]
        ledger = [LedgerEntry.from_json(e) for e in data["ledger"]]
        return cls(
            source=data["source"],
            model=data.get("model"),
            order=list(data["order"]),
            steps={s.id: s for s in steps},
            ledger={e.id: e for e in ledger},
            calls=[CallRecord(**c) for c in data["calls"]],
            iterations=int(data["iterations"]),
            idle=int(data["idle"]),
            verdict=data.get("verdict"),
            reason=data.get("reason") or "",
            events=list(data.get("events") or []),
            problem=data.get("problem") or "",
        )

    def save(self, path: Path) -> None:
        """Atomic write: a crash mid-save must not destroy the trace a resume depends on."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f"{path.suffix}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> ReviewTrace:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))
