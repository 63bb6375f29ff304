"""The LLM proposer: run :class:`ProofCompletionProgram`, read its trajectory, record usage.

Nothing the model returns can crash ``derive``: an unreadable answer, an adapter failure or a
network error becomes an empty draft whose note says what happened (and the chain's verdict is then
honestly "endpoint NOT reached").
"""

from __future__ import annotations

from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.propose.llm.program import ProofCompletionProgram, make_lm
from veristep.propose.llm.trajectory import TrajectoryFormatError, parse_trajectory
from veristep.propose.protocol import Draft, Feedback


class LLMProposer:
    kind = "llm"

    def __init__(self, lm: Any, model: str | None = None, reasoning: bool = True) -> None:
        self.lm = lm
        self.model = model or getattr(lm, "model", None)
        self.program = ProofCompletionProgram(reasoning=reasoning)

    @classmethod
    def from_settings(cls, settings: Settings, model: str | None = None) -> LLMProposer:
        name = model or settings.model
        if not name:
            raise InputError("the llm proposer needs a model: pass --model or set VERISTEP_MODEL")
        return cls(make_lm(name, settings), name)

    def propose(
        self, start: str, target: str, domain: str = "auto", feedback: Feedback | None = None
    ) -> Draft:
        import dspy

        text = feedback.as_text() if feedback else ""
        try:
            with dspy.context(lm=self.lm, track_usage=True):
                prediction = self.program(
                    start_latex=start, target_latex=target, domain=domain, feedback=text
                )
        except Exception as exc:  # an LM or adapter failure is an empty draft, never a crash
            return Draft([], self.kind, self.model, note=f"model call failed: {_short(exc)}")
        usage = _usage(prediction)
        raw = getattr(prediction, "trajectory", "")
        try:
            steps = parse_trajectory(raw)
        except TrajectoryFormatError as exc:
            note = f"unreadable model output: {exc} (raw: {_short(raw)})"
            return Draft([], self.kind, self.model, note=note, usage=usage)
        return Draft(steps, self.kind, self.model, note="model draft", usage=usage)


def _usage(prediction: Any) -> dict[str, Any] | None:
    try:
        per_model = prediction.get_lm_usage() or {}
    except Exception:  # usage tracking is a record, not a requirement
        return None
    total: dict[str, Any] = {}
    for stats in per_model.values():
        for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
            value = stats.get(key) if isinstance(stats, dict) else None
            if isinstance(value, int):
                total[key] = total.get(key, 0) + value
    return total or None


def _short(value: Any, limit: int = 200) -> str:
    text = str(value).replace("\n", " ")
    return text if len(text) <= limit else text[:limit] + "…"
