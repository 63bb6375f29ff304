"""The proof state the agents read: theorem, goals, history and every attempt's signals.

>>> s = ProofState.from_goals(THEOREM_EXAMPLE, "1 goal (ID 2)\\n  n : nat\\n  H : n > 2\\n"
...                           "  ============================\\n  n * n > 4\\n")
>>> s.hypotheses, s.conclusion
(['n : nat', 'H : n > 2'], 'n * n > 4')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from veristep.formal.backends.base import Attempt, Theorem
from veristep.formal.signals import FailureKind, count_goals

_SEPARATOR = re.compile(r"^\s*=+\s*$", re.M)


@dataclass
class ProofState:
    """Shared by the Strategist, Retriever, Critic and Tactician (read-mostly)."""

    theorem: Theorem
    goals_text: str
    goals: int
    history: list[str] = field(default_factory=list)  # tactics applied on the path to this state
    attempts: list[Attempt] = field(default_factory=list)  # every attempt from this state
    negatives: list[Attempt] = field(default_factory=list)  # failures injected from earlier phases
    strategy: str | None = None
    advice: str = ""  # the Critic's latest suggestion

    @classmethod
    def from_goals(cls, theorem: Theorem, goals_text: str, **kw) -> ProofState:
        return cls(theorem, goals_text, count_goals(goals_text) or 1, **kw)

    @property
    def hypotheses(self) -> list[str]:
        """Hypothesis lines of the first goal (continuation lines joined)."""
        parts = _SEPARATOR.split(self.goals_text, maxsplit=1)
        if len(parts) < 2:
            return []
        lines = [ln for ln in parts[0].splitlines()[1:] if ln.strip()]
        hyps: list[str] = []
        for line in lines:
            if re.match(r"^\s{2}\S[^:]*:", line) and not line.startswith("    "):
                hyps.append(line.strip())
            elif hyps:
                hyps[-1] += " " + line.strip()
        return hyps

    @property
    def conclusion(self) -> str:
        """The first goal's conclusion (or the statement itself before any tactic ran)."""
        parts = _SEPARATOR.split(self.goals_text, maxsplit=1)
        if len(parts) < 2:
            return self.theorem.statement
        body = re.split(r"\n\s*\ngoal \d+|\ngoal \d+", parts[1])[0]
        return " ".join(body.split())

    def failed(self) -> list[Attempt]:
        """Attempts that failed here and injected negatives: the Tactician must not repeat them."""
        own = [a for a in self.attempts if a.signals.failure is not FailureKind.NONE]
        return self.negatives + own

    def tried(self) -> set[str]:
        return {a.text for a in self.attempts} | {a.text for a in self.negatives}


THEOREM_EXAMPLE = Theorem("ex", "", "Theorem ex : forall n : nat, n > 2 -> n * n > 4.")
