"""The Critic: values partial proof states from the verifier's structured signals; advises.

The value replaces MCTS's random simulation. It reads *how* Coq reacted, not only whether it
accepted: closing goals is good, splitting into many goals is costly, a no-op is worthless, and a
subtree whose expansions keep failing with type errors or unknown names is losing value.

>>> from veristep.formal.signals import Signals
>>> Critic().value(Signals(True, True, 2, 1, False), depth=1, goal_chars=40)
0.65
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from veristep.formal.agents.lm import AgentTrace, predict
from veristep.formal.signals import FailureKind, Signals, structural_progress
from veristep.formal.state import ProofState


@functools.cache
def _signature() -> Any:
    import dspy

    class CritiqueState(dspy.Signature):
        """Judge how promising a partial Coq proof is and advise the next tactics."""

        goals: str = dspy.InputField()
        history: str = dspy.InputField(desc="tactics applied so far")
        failures: str = dspy.InputField(desc="failed tactics with Coq's messages")
        value: float = dspy.OutputField(desc="0 (hopeless) .. 1 (almost done)")
        advice: str = dspy.OutputField(desc="which tactics to try next, and which to avoid")

    return CritiqueState


@dataclass
class Critic:
    lm: Any = None
    trace: AgentTrace = field(default_factory=AgentTrace)

    def value(
        self,
        signals: Signals,
        depth: int,
        goal_chars: int,
        failures: Counter[str] | None = None,
        parent_goals: str | None = None,
    ) -> float:
        """Value in [0, 1] from the signals of the step that produced the state (and, given the
        parent's goals, from how the focused goal changed: shorter, or with facts gained)."""
        if signals.complete or signals.goals_after == 0:
            return 1.0
        if not signals.ok or signals.no_op:
            return 0.0
        value = 0.55 + 0.15 * max(-2, min(2, signals.progress)) - 0.04 * depth
        value -= min(0.2, goal_chars / 4000)  # long goals are usually far from closed
        if parent_goals:
            value += 0.1 * structural_progress(parent_goals, signals.goals_text)
        if failures:
            tried = sum(failures.values())
            bad = failures[FailureKind.TYPE.value] + failures[FailureKind.UNKNOWN_REFERENCE.value]
            value -= 0.2 * bad / max(tried, 1)
        return max(0.01, min(0.99, value))

    def advise(self, state: ProofState) -> str:
        """Suggested next tactics and what to avoid, from the failures at this state."""
        if self.lm is not None:
            failures = "\n".join(
                f"{a.text} -> {a.signals.failure}: {a.signals.message[:200]}"
                for a in state.failed()[-12:]
            )
            out = predict(
                _signature(),
                self.lm,
                self.trace,
                goals=state.goals_text[:3000],
                history=" ".join(state.history),
                failures=failures,
            )
            if out is not None and getattr(out, "advice", None):
                return str(out.advice)[:1000]
        return rule_advice(state)


def rule_advice(state: ProofState) -> str:
    kinds = Counter(a.signals.failure for a in state.failed())
    goal = state.conclusion
    notes = []
    if kinds[FailureKind.TACTIC] and ("*" in goal or "^" in goal):
        notes.append("nonlinear goal: prefer nra/nia after introducing products of hypotheses")
    if any("/" in h for h in state.hypotheses) or "/" in goal:
        notes.append("division present: try field_simplify before lra/nra")
    if kinds[FailureKind.UNKNOWN_REFERENCE]:
        notes.append("avoid names Coq did not find")
    if any("/\\" in h or "exists" in h for h in state.hypotheses):
        notes.append("destruct conjunctions and existentials in hypotheses first")
    if kinds[FailureKind.TIMEOUT]:
        notes.append("decision procedures time out here: simplify the goal first")
    return "; ".join(notes)
