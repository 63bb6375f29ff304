"""Running one DSPy predictor for an agent, and recording whether the model or the rules answered.

A model that fails (a network error, an unparsable answer) must not silently look like a model
answer: the trace says ``source="fallback"`` and keeps the reason, and the agent uses its rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class AgentTrace:
    """Per-agent counters: who answered and what it cost."""

    model_calls: int = 0
    fallbacks: int = 0
    tokens: int = 0
    last_error: str | None = None
    sources: list[str] = field(default_factory=list)

    def record(self, source: str) -> None:
        self.sources.append(source)
        if len(self.sources) > 50:  # a long search must not grow this without bound
            del self.sources[:-50]


def predict(signature: Any, lm: Any, trace: AgentTrace, **inputs: Any) -> Any | None:
    """Run ``dspy.Predict(signature)`` with ``lm``; None (and a recorded reason) on failure."""
    import dspy

    before = len(getattr(lm, "history", []) or [])
    try:
        with dspy.context(lm=lm):
            prediction = dspy.Predict(signature)(**inputs)
    except Exception as exc:  # any model failure degrades to the rules, visibly
        trace.tokens += _new_tokens(lm, before)  # an unusable answer still cost its tokens
        trace.fallbacks += 1
        trace.last_error = f"{type(exc).__name__}: {exc}"[:300]
        trace.record("fallback")
        return None
    trace.model_calls += 1
    trace.tokens += _new_tokens(lm, before)
    trace.record("model")
    return prediction


def _new_tokens(lm: Any, before: int) -> int:
    """Tokens of the history entries added since ``before``. ``usage`` may be a dict or a
    LiteLLM object, and a local server may report only prompt and completion counts."""
    total = 0
    for entry in (getattr(lm, "history", []) or [])[before:]:
        usage = entry.get("usage") if isinstance(entry, dict) else None
        total += _usage_tokens(usage)
    return total


def _usage_tokens(usage: Any) -> int:
    def field(name: str) -> int:
        value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, None)
        return int(value) if isinstance(value, int | float) else 0

    if usage is None:
        return 0
    return field("total_tokens") or field("prompt_tokens") + field("completion_tokens")
