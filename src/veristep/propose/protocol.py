"""The one protocol every proposer follows: start and target in, a draft of LaTeX steps out.

A proposer never touches graphs or verdicts. It writes, for each step, the operation in words, the
complete expression reached, the justification and an advisory change type; the grounding engine
judges. On a retry it receives :class:`Feedback`: the checker's reasons for the previous draft.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

CHANGE_TYPES = ("rewrite", "solve", "substitute", "approximate", "given")


@dataclass
class ProposedStep:
    operation: str
    expr_latex: str
    justification: str
    change_type: str = "rewrite"

    def to_json(self) -> dict[str, str]:
        return asdict(self)


@dataclass
class Draft:
    """What one proposer call produced. ``note`` says honestly what happened (e.g. not reached)."""

    steps: list[ProposedStep]
    kind: str
    model: str | None = None
    note: str = ""
    usage: dict[str, Any] | None = None
    bridged: list[int] = field(default_factory=list)  # indices of steps the hybrid filled in
    meta: dict[str, Any] = field(default_factory=dict)  # proposer-private (e.g. the plan's keys)


@dataclass
class Feedback:
    """Why the previous draft fell short: the weak steps and the missed endpoint, in words."""

    attempt: int
    reasons: list[str]
    weak_steps: list[int] = field(default_factory=list)  # 1-based indices of steps below verified
    previous: Draft | None = None

    def as_text(self) -> str:
        head = f"Attempt {self.attempt} was checked and fell short:"
        return "\n".join([head, *(f"- {r}" for r in self.reasons)])


@runtime_checkable
class Proposer(Protocol):
    kind: str
    model: str | None

    def propose(
        self, start: str, target: str, domain: str, feedback: Feedback | None = None
    ) -> Draft: ...
