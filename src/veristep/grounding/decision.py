"""What a check returns, and the context every check of one transition shares.

A check answers with a :class:`Decision` (relation, tier, a reason a person can read, and a witness
they can check) or ``None`` for "undecided"; the cascade takes the first decision.

>>> d = Decision.refuted("introduces value(s) that do not solve the previous step: 7", 7)
>>> (d.relation.value, d.tier.name_lower, d.witness)
('refuted', 'refuted', 7)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from veristep.core.settings import Settings
from veristep.core.tiers import ChangeType, Relation, Tier


@dataclass(frozen=True)
class Decision:
    relation: Relation
    tier: Tier
    reason: str
    witness: Any = None
    # Set when a step narrows only at degenerate parameter values (dividing by ``a`` loses the
    # case a = 0): the assumption that makes it valid ("assumes a ≠ 0"). Such a step is valid
    # for every generic parameter, unlike one that loses a value of the unknown.
    assumption: str | None = None
    # What the check found, as data rather than prose, for views that word it for a reader (the
    # learner view): "var", and "kept"/"lost"/"added"/"wrong" value lists, "sides" (each side of
    # the previous state at a wrong value). Never used to decide anything.
    facts: dict[str, Any] | None = None

    @classmethod
    def refuted(cls, reason: str, witness: Any) -> Decision:
        # A refutation without something a person can check is not allowed to exist.
        if witness is None:
            raise ValueError("a refuted decision needs a witness")
        return cls(Relation.REFUTED, Tier.REFUTED, reason, witness)

    @classmethod
    def grounded(cls, relation: Relation, reason: str) -> Decision:
        return cls(relation, Tier.GROUNDED, reason)

    @classmethod
    def verified(cls, relation: Relation, reason: str) -> Decision:
        return cls(relation, Tier.VERIFIED, reason)


@dataclass
class Context:
    """Settings, assumptions and the per-transition budget, plus a memo shared along a chain.

    The memo is keyed by (task name, arguments): a state is the *next* of one step and the
    *previous* of the following one, so its solution set is computed once.
    """

    settings: Settings = field(default_factory=Settings)
    positive: frozenset[str] = frozenset()
    change_type: ChangeType | None = None
    deadline: float | None = None  # time.monotonic() value after which no new CAS call starts
    memo: dict[Any, Any] = field(default_factory=dict)
    timeouts: list[str] = field(default_factory=list)  # CAS calls that ran out (never evidence)
    # A call with its full budget ran out: the step's later calls get less (see grounding.cas).
    outran: bool = False
    # A search that can only refute (a short budget of its own) ran out: the step's other such
    # searches are skipped (see grounding.cas).
    searched_out: bool = False

    def for_step(self, change_type: ChangeType | None) -> Context:
        """A copy for one transition: a fresh deadline and timeout log, the same memo."""
        deadline = time.monotonic() + self.settings.step_timeout_s
        return replace(
            self, change_type=change_type, deadline=deadline, timeouts=[], outran=False,
            searched_out=False,
        )  # fmt: skip

    def remaining(self) -> float:
        if self.deadline is None:
            return self.settings.step_timeout_s
        return self.deadline - time.monotonic()
