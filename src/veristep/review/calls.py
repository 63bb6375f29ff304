"""The seam between the review agent and a language model: build it, call a role, record the call.

Every call goes through :class:`RoleCaller`, which pins the chat adapter without its silent JSON
retry (a retry would be a second, unrecorded model call and would shift scripted test replies),
records tokens from the LM history, and turns any failure — unparseable output, a network error —
into ``None`` plus a recorded error, never an exception out of the agent loop.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from veristep.core.errors import VeristepError
from veristep.core.settings import Settings


@dataclass
class CallRecord:
    """One model call: which role, for which step, whether it parsed, and what it cost."""

    role: str
    step: str | None
    ok: bool
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None  # USD where the provider's price is known
    ms: float = 0.0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def make_model(model: str, settings: Settings) -> Any:
    """A DSPy LM for ``model``, built by the shared LM layer (temperature, retries, cache, keys)."""
    from veristep.llm.config import make_lm

    return make_lm(model, settings)


class ModelUnavailable(VeristepError):
    """The model endpoint keeps failing (not answering, refusing the key): stop, don't crawl."""


@dataclass
class Health:
    """Consecutive failed calls that were not parse errors, shared by every caller of one LM.

    ``limit`` counts failures of any other kind (a timeout, a 500): a few in a row mean the
    endpoint is not serving. An unreachable endpoint (refused connection, unknown host, rejected
    key, unknown model) stops at once: LiteLLM has already retried inside that one call.
    """

    failures_in_a_row: int = 0
    limit: int = 3


class RoleCaller:
    """Calls DSPy programs with one LM and appends a :class:`CallRecord` per call to ``log``.

    An unparseable reply is the model's answer and only recorded. Failures of the endpoint
    itself are recorded too, but ``health.limit`` of them in a row raise :class:`ModelUnavailable`
    — a sweep against a dead server must end with one clear line, not hours of retries.
    """

    def __init__(self, lm: Any, log: list[CallRecord], health: Health | None = None) -> None:
        self.lm = lm
        self.log = log
        self.health = health or Health()

    def __call__(self, role: str, program: Any, about: str | None, /, **inputs: Any) -> Any | None:
        import dspy

        history = getattr(self.lm, "history", [])
        seen = len(history)
        started = time.perf_counter()
        from dspy.utils.exceptions import AdapterParseError

        record = CallRecord(role=role, step=about, ok=False)
        endpoint_failed = unreachable = False
        try:
            with dspy.context(
                lm=self.lm, adapter=dspy.ChatAdapter(use_json_adapter_fallback=False)
            ):
                prediction = program(**inputs)
            record.ok = True
        except Exception as exc:  # the model's output is data: a failure is recorded, not raised
            prediction = None
            record.error = f"{type(exc).__name__}: {_first_line(str(exc))}"
            endpoint_failed = not isinstance(exc, AdapterParseError)
            unreachable = endpoint_failed and is_unreachable(exc)
        record.ms = (time.perf_counter() - started) * 1000
        new_entries = getattr(self.lm, "history", [])[seen:]
        record.prompt_tokens, record.completion_tokens = _usage(new_entries)
        costs = [e["cost"] for e in new_entries if e.get("cost") is not None]
        record.cost = sum(costs) if costs else None
        self.log.append(record)
        self.health.failures_in_a_row = (
            0 if record.ok or not endpoint_failed else (self.health.failures_in_a_row + 1)
        )
        if unreachable:
            raise ModelUnavailable(f"the model endpoint cannot be reached: {record.error}")
        if self.health.failures_in_a_row >= self.health.limit:
            raise ModelUnavailable(
                f"{self.health.failures_in_a_row} model calls failed in a row; last: {record.error}"
            )
        return prediction


# Exception classes (LiteLLM's, httpx's, the standard library's) meaning "nobody serves this
# model here": retrying the next step would fail the same way. Matched by name along the MRO so
# that this module need not import LiteLLM.
_UNREACHABLE = frozenset(
    {
        "APIConnectionError",
        "AuthenticationError",
        "PermissionDeniedError",
        "NotFoundError",
        "ConnectError",
        "ConnectionError",
        "ConnectionRefusedError",
        "gaierror",
    }
)
_UNREACHABLE_TEXT = ("connection refused", "connect call failed", "name or service not known")


def is_unreachable(exc: BaseException) -> bool:
    """True when ``exc`` (or what it wraps) says the endpoint is down or refuses us.

    >>> is_unreachable(ConnectionRefusedError(111, "Connection refused"))
    True
    >>> is_unreachable(ValueError("bad reply"))
    False
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        names = {cls.__name__ for cls in type(current).__mro__}
        if any("Timeout" in name for name in names):
            return False  # a slow answer (LiteLLM's Timeout is an APIConnectionError): counted
        if names & _UNREACHABLE or any(t in str(current).lower() for t in _UNREACHABLE_TEXT):
            return True
        current = current.__cause__ or current.__context__
    return False


def _usage(entries: list[dict[str, Any]]) -> tuple[int, int]:
    prompt = completion = 0
    for entry in entries:
        usage = entry.get("usage") or {}
        prompt += int(usage.get("prompt_tokens") or 0)
        completion += int(usage.get("completion_tokens") or 0)
    return prompt, completion


def _first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0][:300] if lines else ""
