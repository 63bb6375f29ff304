"""The optional soft judge of the refine loop: clarity and pedagogy, never correctness.

Correctness is the grounding engine's; the judge only orders drafts that already ground. Its score
is clamped to [0, 1] and an unreadable answer counts as no opinion (0.5), so a judge can never
lift a failing draft over the threshold on its own.
"""

from __future__ import annotations

import re
from typing import Any

import dspy

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.verdicts import Derivation
from veristep.llm.errors import describe_model_failure, lm_budgets
from veristep.propose.llm.program import make_lm


class JudgeDerivation(dspy.Signature):
    """Rate how clearly this derivation teaches: one move per step, each operation named, each
    justification meaningful. Do not judge correctness; a checker has done that."""

    derivation: str = dspy.InputField(desc="start, then one line per step: operation | expr | why")
    clarity: str = dspy.OutputField(desc="a number between 0 and 1")
    comment: str = dspy.OutputField(desc="one sentence: what would make it clearer")


def render_for_judge(d: Derivation) -> str:
    lines = [f"start: {d.start}", f"target: {d.target}"]
    for s in d.steps:
        lines.append(f"{s.index}. {s.operation} | {s.expr_latex} | {s.justification}")
    return "\n".join(lines)


class PedagogyJudge:
    def __init__(self, lm: Any) -> None:
        self.lm = lm
        self.program = dspy.Predict(JudgeDerivation)

    @classmethod
    def from_settings(cls, settings: Settings, model: str | None) -> PedagogyJudge:
        name = model or settings.model
        if not name:
            raise InputError("--judge needs a language model: pass --model or set VERISTEP_MODEL")
        return cls(make_lm(name, settings))

    def __call__(self, d: Derivation) -> tuple[float, str]:
        # No JSON-adapter retry: an unreadable reply is no opinion, not a reason to ask twice.
        adapter = dspy.ChatAdapter(use_json_adapter_fallback=False)
        try:
            with dspy.context(lm=self.lm, adapter=adapter):
                out = self.program(derivation=render_for_judge(d))
        except Exception as exc:  # a failed judge is no opinion, not a verdict
            timeout_s, api_base = lm_budgets(self.lm)
            why = describe_model_failure(exc, timeout_s=timeout_s, api_base=api_base)
            return 0.5, f"judge unavailable: {why}"
        return _score(out.clarity), str(out.comment or "")


def _score(text: Any) -> float:
    match = re.search(r"\d+(?:\.\d+)?", str(text))
    if not match:
        return 0.5
    value = float(match.group())
    if value > 1:  # a model that answers on a 0-10 or 0-100 scale
        value = value / 100 if value > 10 else value / 10
    return min(1.0, max(0.0, value))
