"""The web app's bridge to the verifier and the proposers, with deadlines and progress events.

Routes never call grounding or propose directly: they go through an :class:`Engine`, which runs the
blocking work in a worker thread, bounds it by ``settings.web_request_timeout_s`` and reports
progress events. The CAS work itself runs in the killable worker pool of ``veristep.core.pool``
under its own per-call deadlines, so an abandoned request cannot run on unbounded.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
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
        progress: Progress | None = None,
    ) -> dict[str, Any]:
        """Judge a learner's chain of states; the derivation JSON. ``progress`` hears one
        :func:`step_event` per step as soon as it is judged."""
        from veristep.grounding import check

        if not states:
            raise InputError("at least one state is required", kind="states")

        def on_step(verdict: Any, total: int) -> None:
            if progress is not None:
                progress(step_event(verdict, total))

        derivation = check(
            list(states),
            change_types=list(change_types) if change_types else None,
            target=target,
            settings=self.settings,
            on_step=on_step,
        )
        return derivation.to_json()

    def derive(
        self,
        start: str,
        target: str | None,
        proposer: str = "symbolic",
        progress: Progress | None = None,
        goal: str | None = None,
    ) -> dict[str, Any]:
        """Propose and ground a derivation; ``progress`` hears a :func:`step_event` per judged step
        of every attempt, then that attempt's :func:`attempt_event`. Without a target (None or
        blank) the planner works to the ``goal``'s finished form and states the answer.

        Step events are live when ``propose.derive`` accepts ``on_step`` (forwarded to the
        grounding check of each draft); otherwise each attempt's steps are sent, in order, the
        moment the attempt has been judged, just before its attempt event.
        """
        from veristep.propose import derive

        if proposer not in PROPOSERS:
            raise InputError(
                f"unknown proposer {proposer!r}; expected one of: {', '.join(PROPOSERS)}",
                kind="proposer",
            )
        live = accepts_keyword(derive, "on_step")
        done = 0  # attempts judged so far; the steps being judged belong to attempt done + 1

        def on_step(verdict: Any, total: int) -> None:
            if progress is not None:
                progress(step_event(verdict, total, attempt=done + 1))

        def on_attempt(attempt: Any) -> None:
            nonlocal done
            done += 1
            if progress is None:
                return
            if not live:
                steps = attempt.derivation.steps
                for verdict in steps:
                    progress(step_event(verdict, len(steps), attempt=attempt.index))
            progress(attempt_event(attempt))

        extra: dict[str, Any] = {"on_step": on_step} if live else {}
        if goal is not None:
            extra["goal"] = goal
        target = target if target and target.strip() else None
        derivation = derive(start, target, settings=self.settings, proposer=proposer,
                            on_attempt=on_attempt, **extra)  # fmt: skip
        return derivation.to_json()


def accepts_keyword(fn: Callable[..., Any], name: str) -> bool:
    """Whether ``fn`` can be called with keyword ``name`` (so optional hooks degrade gracefully).

    >>> accepts_keyword(lambda a, *, on_step=None: a, "on_step")
    True
    >>> accepts_keyword(lambda a, **kw: a, "on_step"), accepts_keyword(lambda a: a, "on_step")
    (True, False)
    """
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(
        p.kind is inspect.Parameter.VAR_KEYWORD
        or (p.name == name and p.kind is not inspect.Parameter.POSITIONAL_ONLY)
        for p in params
    )


def step_event(verdict: Any, total: int, attempt: int | None = None) -> dict[str, Any]:
    """One judged step as a progress event: where it is in the chain, its tier, icon and reason.

    >>> from veristep.core.tiers import Tier
    >>> from veristep.core.verdicts import StepVerdict
    >>> e = step_event(StepVerdict(2, Tier.REFUTED, reason="x = 7 is not a root"), 3)
    >>> e["event"], e["index"], e["total"], e["tier"], e["icon"], e["reason"]
    ('step', 2, 3, 'refuted', '✗', 'x = 7 is not a root')
    """
    return {
        "event": "step",
        "attempt": attempt,
        "index": verdict.index,
        "total": total,
        "tier": verdict.tier.name_lower,
        "icon": verdict.tier.icon,
        "relation": verdict.relation.value,
        "check": verdict.check,
        "reason": verdict.reason,
        "operation": verdict.operation,
        "expr_latex": verdict.expr_latex,
        "witness": verdict.witness,
        # The learner's sentence as far as one step can word it (the final verdict re-words it
        # with both lines as written).
        "learner": verdict.to_json()["learner"],
    }


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
    loop = asyncio.get_running_loop()
    call = functools.partial(contextvars.copy_context().run, _in_lane, fn, deadline)
    task = asyncio.ensure_future(loop.run_in_executor(_request_threads(), call))
    try:
        return await asyncio.wait_for(asyncio.shield(task), timeout=seconds)
    except TimeoutError:
        if deadline.expire():
            raise DeadlineExceeded(f"the request ran past its deadline of {seconds:g} s") from None
        return await task  # it committed just in time: its save is already under way


# Requests get their own threads: asyncio's default executor has cpu_count + 4 of them (6 on two
# cores), so six slow checks used to leave a trivial one queued for a thread. A thread cannot be
# stopped, but each one's CAS work ends at its own deadlines in the worker pool.
REQUEST_THREADS = 64
_THREADS: ThreadPoolExecutor | None = None
_THREADS_LOCK = threading.Lock()


def _request_threads() -> ThreadPoolExecutor:
    global _THREADS
    with _THREADS_LOCK:
        if _THREADS is None:
            _THREADS = ThreadPoolExecutor(REQUEST_THREADS, thread_name_prefix="veristep-request")
        return _THREADS


def _in_lane(fn: Callable[[Deadline], Any], deadline: Deadline) -> Any:
    """``fn`` as one request of the CAS pool's fair scheduling (core.pool.request_lane)."""
    from veristep.core.pool import request_lane

    with request_lane():
        return fn(deadline)
