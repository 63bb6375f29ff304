"""Request limits and error shapes: every failure is JSON with a message, never a stack trace.

The body limit is a plain ASGI middleware so that an oversized body is refused before any route
(or the JSON decoder) touches it, whether it declares its length or arrives chunked. The same
middleware gives up on a body that stops arriving (408) and refuses JSON that no route could
answer without a 500: a lone surrogate (no UTF-8 can carry it back out) or nesting too deep
for the decoder.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def error_body(kind: str, message: str, **extra: Any) -> dict[str, Any]:
    """The one error shape of the API: ``{"error": kind, "message": text, ...}``."""
    return {"error": kind, "message": message, **extra}


BODY_READ_TIMEOUT_S = 20.0  # a body that stops arriving for this long gets 408
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` as ``U+D800``, or None when ``text`` is valid text.

    >>> lone_surrogate("x" + chr(0xD800) + " = 1"), lone_surrogate("x = 1")
    ('U+D800', None)
    """
    found = _SURROGATE.search(text)
    return f"U+{ord(found.group()):04X}" if found else None


def json_problem(body: bytes) -> str | None:
    """Why a JSON body cannot be answered at all, or None (bad JSON is left to the route)."""
    try:
        doc = json.loads(body)
    except RecursionError:
        return "the JSON body is nested too deeply"
    except ValueError:
        return None
    stack = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            bad = lone_surrogate(item)
            if bad:
                return f"the JSON body holds a lone surrogate {bad}, which is not text"
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413, reading at most ``max_bytes + 1``;
    a body that stalls for ``read_timeout_s`` gets 408; unanswerable JSON gets 400."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, read_timeout_s: float = BODY_READ_TIMEOUT_S
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.read_timeout_s = read_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            try:
                message = await asyncio.wait_for(receive(), self.read_timeout_s)
            except TimeoutError:
                await _send_error(send, 408, "timeout", "the request body stopped arriving")
                return
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        problem = json_problem(body) if body and _is_json(scope) else None
        if problem:
            await _send_error(send, 400, "input", problem)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        message = f"request body exceeds the limit of {self.max_bytes} bytes"
        await _send_error(send, 413, "too_large", message)


async def _send_error(send: Send, status: int, kind: str, message: str) -> None:
    """One JSON error answer that closes the connection (the rest of the body is not read)."""
    body = json.dumps(error_body(kind, message)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _is_json(scope: Scope) -> bool:
    """Whether the routes will decode this body as JSON (they do when no type is declared)."""
    for name, value in scope.get("headers", []):
        if name == b"content-type":
            return b"json" in value.lower()
    return True


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
