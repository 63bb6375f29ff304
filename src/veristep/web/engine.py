"""The web app's bridge to the verifier and the proposers, with deadlines and progress events.

Routes never call grounding or propose directly: they go through an :class:`Engine`, which runs the
blocking work in a worker thread, bounds it by ``settings.web_request_timeout_s`` and reports
progress events. The CAS work itself runs in the killable worker pool of ``veristep.core.pool``
under its own per-call deadlines, so an abandoned request cannot run on unbounded.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from veristep.core.errors import InputError, VeristepError
from veristep.core.settings import Settings

Progress = Callable[[dict[str, Any]], None]
PROPOSERS = ("symbolic", "llm")


class DeadlineExceeded(VeristepError):
    """The request ran past its wall-clock budget; nothing it produced is evidence."""


@dataclass
class Engine:
    settings: Settings

    def check(
        self,
        states: Sequence[str],
        change_types: Sequence[str] | None = None,
        target: str | None = None,
    ) -> dict[str, Any]:
        """Judge a learner's chain of states; the derivation JSON."""
        from veristep.grounding import check

        if not states:
            raise InputError("at least one state is required", kind="states")
        derivation = check(
            list(states),
            change_types=list(change_types) if change_types else None,
            target=target,
            settings=self.settings,
        )
        return derivation.to_json()

    def derive(
        self,
        start: str,
        target: str,
        proposer: str = "symbolic",
        progress: Progress | None = None,
    ) -> dict[str, Any]:
        """Propose and ground a derivation; ``progress`` hears each judged attempt and its steps."""
        from veristep.propose import derive

        if proposer not in PROPOSERS:
            raise InputError(
                f"unknown proposer {proposer!r}; expected one of: {', '.join(PROPOSERS)}",
                kind="proposer",
            )

        def on_attempt(attempt: Any) -> None:
            if progress is not None:
                progress(attempt_event(attempt))

        derivation = derive(start, target, settings=self.settings, proposer=proposer,
                            on_attempt=on_attempt)  # fmt: skip
        return derivation.to_json()


def attempt_event(attempt: Any) -> dict[str, Any]:
    """One judged draft as a progress event: its verdict and every step's tier."""
    d = attempt.derivation
    return {
        "event": "attempt",
        "attempt": attempt.index,
        "tier": d.confidence.tier.name_lower,
        "summary": d.confidence.summary,
        "steps": [s.to_json() for s in d.steps],
    }


class Deadline:
    """Decides, once, whether a request's side effects happen: the worker ``commit``s before it
    saves anything, the waiter ``expire``s at the deadline; whichever comes first wins. So a
    request that answered 504 never saves afterwards, and one that saved is never reported as
    timed out."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.expired = False
        self.committed = False

    def commit(self) -> bool:
        with self._lock:
            if not self.expired:
                self.committed = True
            return self.committed

    def expire(self) -> bool:
        with self._lock:
            if not self.committed:
                self.expired = True
            return self.expired


async def with_deadline(fn: Callable[[Deadline], Any], seconds: float) -> Any:
    """Run blocking ``fn(deadline)`` in a thread; past ``seconds`` raise :class:`DeadlineExceeded`.

    The thread cannot be stopped (its CAS calls end at their own deadlines in the worker pool), so
    ``fn`` must call ``deadline.commit()`` before any side effect and skip it when that is False.
    """
    deadline = Deadline()
    task = asyncio.ensure_future(asyncio.to_thread(fn, deadline))
    try:
        return await asyncio.wait_for(asyncio.shield(task), timeout=seconds)
    except TimeoutError:
        if deadline.expire():
            raise DeadlineExceeded(f"the request ran past its deadline of {seconds:g} s") from None
        return await task  # it committed just in time: its save is already under way
