"""The Strategist: maps a proof state to a strategy and an estimated depth.

>>> from veristep.formal.state import ProofState, THEOREM_EXAMPLE
>>> s = ProofState.from_goals(THEOREM_EXAMPLE, "1 goal\\n  H : x < 0\\n  H0 : ~ x < 0\\n"
...                           "  ============================\\n  False\\n")
>>> Strategist().plan(s)
Plan(strategy='contradiction', depth=2, source='rules')
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from veristep.formal.agents.lm import AgentTrace, predict
from veristep.formal.state import ProofState

STRATEGIES: tuple[str, ...] = (
    "direct",
    "induction",
    "contradiction",
    "cases",
    "rewrite",
    "apply_lemma",
)

_RECURSIVE = re.compile(
    r"\b(sum_f_R0|fold_left|fold_right|fact|fib|length|app|rev|S n|Nat\.iter)\b"
)
_FUNCTIONS = re.compile(r"\b(sqrt|Rabs|ln|exp|cos|sin|tan|Rpower|Z\.gcd|Nat\.gcd|Z\.lcm|Zlength)\b")


@dataclass
class Plan:
    strategy: str
    depth: int
    source: str = "rules"


@functools.cache
def _signature() -> Any:
    import dspy

    class ChooseStrategy(dspy.Signature):
        """Choose the proof strategy for the Coq goal and estimate how many tactics it needs."""

        theorem: str = dspy.InputField(desc="the Coq statement")
        goals: str = dspy.InputField(desc="current goals as Coq prints them")
        strategy: str = dspy.OutputField(desc="one of: " + ", ".join(STRATEGIES))
        depth: int = dspy.OutputField(desc="estimated number of tactic steps, 1-10")

    return ChooseStrategy


@dataclass
class Strategist:
    lm: Any = None
    trace: AgentTrace = field(default_factory=AgentTrace)

    def plan(self, state: ProofState) -> Plan:
        if self.lm is not None:
            out = predict(
                _signature(),
                self.lm,
                self.trace,
                theorem=state.theorem.statement,
                goals=state.goals_text[:3000],
            )
            strategy = str(getattr(out, "strategy", "")).strip().lower() if out else ""
            if strategy in STRATEGIES:
                depth = getattr(out, "depth", 3)
                return Plan(strategy, max(1, min(int(depth or 3), 10)), "model")
            if out is not None:
                self.trace.fallbacks += 1
                self.trace.last_error = f"unknown strategy {strategy!r}"
        return rule_plan(state)


def rule_plan(state: ProofState) -> Plan:
    """The offline rules, most specific first."""
    goal = state.conclusion
    hyps = " ".join(state.hypotheses)
    statement = state.theorem.statement
    if (
        goal.strip() == "False"
        or re.search(r"(^|\s)~|<>", goal)
        or ("~" in hyps and "False" in goal)
    ):
        return Plan("contradiction", 2)
    if _RECURSIVE.search(statement) and re.search(r"\b(nat|list)\b", statement):
        return Plan("induction", 3)
    if re.search(r"\\/|\bexists\b", hyps) or "\\/" in goal:
        return Plan("cases", 3)
    if re.search(r"\b\w+ = ", hyps) or re.search(r"\(\w+ : [^)]*\) *, *\w+ \w+ = ", statement):
        return Plan("rewrite", 2)
    if _FUNCTIONS.search(goal):
        return Plan("apply_lemma", 3)
    return Plan("direct", 1)
