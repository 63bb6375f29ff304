"""The LLM proposer: run :class:`ProofCompletionProgram`, read its trajectory, record usage.

Nothing the model returns can crash ``derive``: an unreadable answer, an adapter failure or a
network error becomes an empty draft whose note says what happened, in terms of the settings the
user can change (and the chain's verdict is then honestly "endpoint NOT reached"). Usage comes from
the LM's own request history, so tokens spent on a reply that could not be used are still counted.
"""

from __future__ import annotations

from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.llm.errors import describe_model_failure, lm_budgets, short
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
        from dspy.utils.exceptions import AdapterParseError

        from veristep.llm.usage import UsageLog

        text = feedback.as_text() if feedback else ""
        # No JSON-adapter retry: on an unreadable reply DSPy would ask the model a second time
        # (doubling a slow local model's time); the first reply is read leniently instead.
        adapter = dspy.ChatAdapter(use_json_adapter_fallback=False)
        log = UsageLog()
        try:
            with log.watching(self.lm), dspy.context(lm=self.lm, adapter=adapter):
                prediction = self.program(
                    start_latex=start, target_latex=target, domain=domain, feedback=text
                )
            raw = getattr(prediction, "trajectory", "")
        except AdapterParseError as exc:
            raw = exc.lm_response or ""  # the model answered, just not in DSPy's field format
        except Exception as exc:  # an LM failure is an empty draft, never a crash
            timeout_s, api_base = lm_budgets(self.lm)
            note = describe_model_failure(exc, timeout_s=timeout_s, api_base=api_base)
            return Draft([], self.kind, self.model, note=note, usage=usage_of(log))
        usage = usage_of(log)
        try:
            steps = parse_trajectory(raw)
        except TrajectoryFormatError as exc:
            note = f"unreadable model output: {exc} (raw: {short(raw)})"
            return Draft([], self.kind, self.model, note=note, usage=usage)
        return Draft(steps, self.kind, self.model, note="model draft", usage=usage)


def usage_of(log: Any) -> dict[str, Any]:
    """Tokens and requests as DSPy's LM history recorded them, failed requests included.

    Never None: a draft that cost nothing says ``calls: 0``, one whose server reports no token
    counts says so with zeros, so "no usage" is never confused with "not recorded".
    """
    totals = log.totals()
    return {
        key: totals[key] for key in ("calls", "prompt_tokens", "completion_tokens", "total_tokens")
    }
