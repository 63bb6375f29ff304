"""Server-sent events for long requests: progress events as they happen, then one final event.

A stream is ``started``, any number of progress events (``step``, ``attempt``), then exactly one of
``done`` (the answer) or ``error`` (the same JSON error shape as the plain endpoints). The work runs
under the request deadline of :func:`~veristep.web.engine.with_deadline`; a client that goes away
stops the events, while the worker ends at its own deadlines.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi.responses import StreamingResponse

from veristep.core.errors import InputError, VeristepError
from veristep.web.engine import Deadline, Progress, with_deadline
from veristep.web.limits import error_body

Work = Callable[[Progress, Deadline], dict[str, Any]]


def event_stream(started: dict[str, Any], work: Work, timeout: float) -> StreamingResponse:
    """Run ``work(emit, deadline)`` in a worker thread and stream what it emits as SSE."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    cancelled = threading.Event()

    def emit(event: dict[str, Any]) -> None:
        # Called from the worker thread: hand the event to the loop, never touch the queue here.
        if not cancelled.is_set():
            loop.call_soon_threadsafe(queue.put_nowait, event)

    async def events() -> AsyncIterator[str]:
        yield sse({"event": "started", **started})
        task = asyncio.ensure_future(with_deadline(lambda d: work(emit, d), timeout))
        try:
            while not (task.done() and queue.empty()):
                getter = asyncio.ensure_future(queue.get())
                await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield sse(getter.result())
                else:
                    getter.cancel()
            yield sse(final_event(task))
        finally:
            cancelled.set()
            # A client that left: the work ends on its own, and its outcome (often an error
            # from a cancelled tool) is nobody's to read; retrieve it so the log stays quiet.
            task.add_done_callback(_retrieved)

    return StreamingResponse(events(), media_type="text/event-stream")


def _retrieved(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def final_event(task: asyncio.Future[dict[str, Any]]) -> dict[str, Any]:
    """``done`` with the answer, or ``error`` with a message and never a traceback."""
    exc = task.exception()
    if exc is None:
        return {"event": "done", **task.result()}
    if isinstance(exc, InputError):
        return {"event": "error", **exc.to_json(), "message": exc.located()}
    if isinstance(exc, VeristepError):
        return {"event": "error", **error_body(type(exc).__name__.lower(), str(exc))}
    return {"event": "error", **error_body("internal", f"internal error: {type(exc).__name__}")}


def sse(event: dict[str, Any]) -> str:
    """One SSE frame named after the event.

    >>> sse({"event": "step", "index": 1})
    'event: step\\ndata: {"event": "step", "index": 1}\\n\\n'
    """
    return f"event: {event['event']}\ndata: {json.dumps(event, ensure_ascii=False)}\n\n"
