"""Per-call LM usage records — tokens, and cost where the provider's price is known.

The source is DSPy's own per-LM history (one entry per request, with ``usage``, ``cost`` and a
``uuid``), not a parallel count: whatever DSPy saw is what we report. Cost is ``None`` when DSPy has
no price for the model (a local server, a stub); totals then say how many calls had no price
instead of silently treating them as free.

>>> log = UsageLog()
>>> log.add_history([
...     {"uuid": "a", "model": "openai/gpt-4o-mini", "timestamp": "t1", "cost": 2e-05,
...      "usage": {"prompt_tokens": 95, "completion_tokens": 11, "total_tokens": 106}},
...     {"uuid": "b", "model": "hosted_vllm/qwen", "timestamp": "t2", "cost": None,
...      "usage": {"prompt_tokens": 10, "completion_tokens": 5}},
... ])
2
>>> t = log.totals()
>>> t["calls"], t["prompt_tokens"], t["completion_tokens"], t["total_tokens"], t["unpriced_calls"]
(2, 105, 16, 121, 1)
>>> UsageLog.from_json(log.to_json()).totals() == t
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

import veristep.llm  # noqa: F401  (sets LITELLM_LOCAL_MODEL_COST_MAP before DSPy is imported)


@dataclass(frozen=True)
class CallUsage:
    """One LM request: which model, how many tokens, what it cost (USD, ``None`` = unknown)."""

    model: str
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    cost_usd: float | None
    timestamp: str | None = None

    @classmethod
    def from_history_entry(cls, entry: Mapping[str, Any]) -> CallUsage:
        usage = entry.get("usage") or {}
        prompt = _count(usage.get("prompt_tokens"))
        completion = _count(usage.get("completion_tokens"))
        total = _count(usage.get("total_tokens")) or prompt + completion
        cost = entry.get("cost")
        return cls(
            model=str(entry.get("model") or "unknown"),
            prompt_tokens=prompt,
            completion_tokens=completion,
            total_tokens=total,
            cost_usd=float(cost) if isinstance(cost, (int, float)) else None,
            timestamp=entry.get("timestamp"),
        )


class UsageLog:
    """An append-only, thread-safe list of :class:`CallUsage`, JSON-serialisable."""

    def __init__(self, calls: Iterable[CallUsage] = ()) -> None:
        self._calls = list(calls)
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    @property
    def calls(self) -> list[CallUsage]:
        with self._lock:
            return list(self._calls)

    def add_history(self, entries: Iterable[Mapping[str, Any]]) -> int:
        """Record DSPy history entries not recorded before (by ``uuid``); returns how many."""
        added = 0
        with self._lock:
            for entry in entries:
                uid = entry.get("uuid")
                if uid is not None:
                    if uid in self._seen:
                        continue
                    self._seen.add(uid)
                self._calls.append(CallUsage.from_history_entry(entry))
                added += 1
        return added

    @contextmanager
    def watching(self, *lms: Any) -> Iterator[UsageLog]:
        """Record every request the given ``dspy.LM`` objects make inside the block.

        Entries present before the block are skipped by ``uuid``, so a history DSPy trims from the
        front (``max_history_size``) cannot shift what is counted.
        """
        before = {id(lm): {e.get("uuid") for e in lm.history} for lm in lms}
        try:
            yield self
        finally:
            for lm in lms:
                known = before[id(lm)]
                self.add_history(e for e in list(lm.history) if e.get("uuid") not in known)

    def totals(self) -> dict[str, Any]:
        calls = self.calls
        priced = [c.cost_usd for c in calls if c.cost_usd is not None]
        return {
            "calls": len(calls),
            "prompt_tokens": sum(c.prompt_tokens for c in calls),
            "completion_tokens": sum(c.completion_tokens for c in calls),
            "total_tokens": sum(c.total_tokens for c in calls),
            "cost_usd": sum(priced) if priced else None,
            "unpriced_calls": len(calls) - len(priced),
            "models": sorted({c.model for c in calls}),
        }

    def to_json(self) -> dict[str, Any]:
        return {"calls": [asdict(c) for c in self.calls], "totals": self.totals()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UsageLog:
        return cls(CallUsage(**call) for call in data.get("calls", []))


def _count(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0
