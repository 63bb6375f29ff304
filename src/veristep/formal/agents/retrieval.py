"""The Retriever agent: library lemmas for the goal (keyword ranking, optional model rerank)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from veristep.formal.agents.lm import AgentTrace, predict
from veristep.formal.backends.base import Theorem
from veristep.formal.retriever import Lemma, LemmaIndex
from veristep.formal.state import ProofState


@functools.cache
def _signature() -> Any:
    import dspy

    class RerankLemmas(dspy.Signature):
        """Pick the library lemmas most likely to help prove the goal, best first."""

        goals: str = dspy.InputField()
        candidates: list[str] = dspy.InputField(desc="'name: statement' lines")
        chosen: list[str] = dspy.OutputField(desc="lemma names, best first")

    return RerankLemmas


def theorem_domain(theorem: Theorem) -> str:
    """The number type a theorem is about: "R", "Z" or "nat" (by its scope and binders).

    >>> theorem_domain(Theorem("t", "Open Scope R_scope.", "Theorem t : forall x : R, x = x."))
    'R'
    """
    text = theorem.header + theorem.statement
    if "R_scope" in text or re.search(r":\s*R\b|\bR\s*->|%R", text):
        return "R"
    if "Z_scope" in text or re.search(r":\s*Z\b|\bZ\s*->|%Z", text):
        return "Z"
    return "nat"


@dataclass
class Retriever:
    index: LemmaIndex | None = None
    lm: Any = None
    k: int = 6
    trace: AgentTrace = field(default_factory=AgentTrace)

    def lemmas(self, state: ProofState, modules: frozenset[str] | None = None) -> list[Lemma]:
        """Up to ``k`` lemmas for the first goal, from ``modules`` (the loaded ones) when given."""
        if self.index is None or len(self.index) == 0:
            return []
        pool = self.index.retrieve(
            state.conclusion,
            k=3 * self.k,
            hypotheses=state.hypotheses,
            modules=modules,
            domain=theorem_domain(state.theorem),
        )
        if self.lm is None or not pool:
            return pool[: self.k]
        lines = [f"{lem.name}: {lem.statement}" for lem in pool]
        out = predict(
            _signature(), self.lm, self.trace, goals=state.goals_text[:3000], candidates=lines
        )
        by_name = {lem.name: lem for lem in pool}
        # Only names that really exist in the index: a model cannot invent lemmas here.
        chosen = [by_name[n] for n in (getattr(out, "chosen", None) or []) if n in by_name]
        rest = [lem for lem in pool if lem not in chosen]
        return (chosen + rest)[: self.k]
