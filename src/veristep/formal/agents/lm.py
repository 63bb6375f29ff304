"""Running one DSPy predictor for an agent, and recording whether the model or the rules answered.

A model that fails (a network error, an unparsable answer) must not silently look like a model
answer: the trace says ``source="fallback"`` and keeps the reason, and the agent uses its rules.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

# The monotonic time by which a model answer is no longer useful (the theorem's budget): a model
# call never starts later, and one that starts waits at most until then.
_DEADLINE: ContextVar[float | None] = ContextVar("veristep_formal_model_deadline", default=None)
_MIN_CALL_S = 2.0  # less time than this left: do not start a model call at all


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


@contextmanager
def model_deadline(deadline: float) -> Iterator[None]:
    """Model calls inside this block end by ``deadline`` (a ``time.monotonic()`` value)."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def predict(signature: Any, lm: Any, trace: AgentTrace, **inputs: Any) -> Any | None:
    """Run ``dspy.Predict(signature)`` with ``lm``; None (and a recorded reason) on failure."""
    import dspy

    deadline = _DEADLINE.get()
    left = None if deadline is None else deadline - time.monotonic()
    if left is not None and left < _MIN_CALL_S:
        trace.fallbacks += 1
        trace.last_error = "no time left in the theorem's budget for a model call"
        trace.record("fallback")
        return None
    before = len(getattr(lm, "history", []) or [])
    kwargs = getattr(lm, "kwargs", None)
    saved = kwargs.get("timeout") if isinstance(kwargs, dict) else None
    try:
        if left is not None and isinstance(kwargs, dict):
            kwargs["timeout"] = min(saved or left, left)  # this request ends with the budget
        # One request per call: DSPy's JSON fallback would ask again after an unreadable reply,
        # doubling the time (and the wait past the budget) for an answer that is rarely better.
        adapter = dspy.ChatAdapter(use_json_adapter_fallback=False)
        with dspy.context(lm=lm, adapter=adapter):
            prediction = dspy.Predict(signature)(**inputs)
    except Exception as exc:  # any model failure degrades to the rules, visibly
        trace.tokens += _new_tokens(lm, before)  # an unusable answer still cost its tokens
        trace.fallbacks += 1
        trace.last_error = f"{type(exc).__name__}: {exc}"[:300]
        trace.record("fallback")
        return None
    finally:
        if left is not None and isinstance(kwargs, dict):
            kwargs["timeout"] = saved
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
