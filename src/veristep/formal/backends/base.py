"""The one interface every verifier backend implements, and the records it returns.

A backend checks *whole-proof candidates in batches* (phase 1), applies *single tactics* to
saved proof states (phase 2's tree), and *confirms* a finished proof strictly (a fresh compile and
an axiom audit). It never decides what to try; that is the search's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from veristep.formal.signals import FailureKind, Signals


@dataclass(frozen=True)
class Theorem:
    """A statement to prove: its header (imports, scopes, definitions) and its declaration."""

    name: str
    header: str
    statement: str  # "Theorem name : ... ." without the proof
    allowed_axioms: frozenset[str] = frozenset()  # postulated by the header itself
    split: str | None = None


@dataclass
class Attempt:
    """One candidate (a whole proof or a single tactic) and what the verifier said about it."""

    text: str
    signals: Signals
    seconds: float = 0.0
    state: int | None = None  # the backend state after a successful tactic (phase 2)

    @property
    def complete(self) -> bool:
        return self.signals.complete

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "seconds": round(self.seconds, 3), **self.signals.to_json()}


@dataclass
class StrictVerdict:
    """The final word on a finished proof: accepted only if every check passed."""

    accepted: bool
    reason: str
    axioms: list[str] = field(default_factory=list)
    failure: FailureKind = FailureKind.NONE
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "reason": self.reason,
            "axioms": self.axioms,
            "failure": self.failure.value,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class OpenGoal:
    """The root of a proof tree: the backend state right after ``Proof.`` and its goals."""

    state: int
    goals_text: str
    goals: int


class Backend(Protocol):
    """What the search needs from a proof assistant."""

    name: str
    calls: int  # verifier calls made so far (sentences or candidates sent)

    def check_batch(self, theorem: Theorem, proofs: list[str]) -> list[Attempt]:
        """Check whole proofs, each as its own theorem, in one session."""

    def open_proof(self, theorem: Theorem) -> OpenGoal:
        """Start an interactive proof of ``theorem`` and return its root state."""

    def apply(self, theorem: Theorem, state: int, tactic: str, goals_before: int) -> Attempt:
        """Run one tactic sentence from ``state``; the attempt records the state it reached."""

    def confirm(self, theorem: Theorem, proof: str) -> StrictVerdict:
        """Re-check a finished proof from scratch, strictly."""

    def close(self) -> None:
        """Release processes."""
