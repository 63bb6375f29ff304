"""The JSON API: derive (plain and streamed), check, saved derivations, export.

Every answer that carries a derivation has the derivation JSON of DESIGN.md under ``derivation``,
its animation payload under ``payload`` and, once saved, its ``id`` and page ``url``.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from veristep.animate import build_payload, export_html
from veristep.core.errors import InputError, VeristepError
from veristep.core.verdicts import Derivation
from veristep.web.engine import Deadline, Engine, with_deadline
from veristep.web.limits import error_body
from veristep.web.store import DerivationStore

router = APIRouter(prefix="/api")

MAX_STATES = 200
MAX_LATEX = 20_000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a typo'd field is an error, not ignored


class DeriveRequest(_Strict):
    start: str = Field(min_length=1, max_length=MAX_LATEX)
    target: str = Field(min_length=1, max_length=MAX_LATEX)
    proposer: str = "symbolic"
    save: bool = True


class CheckRequest(_Strict):
    states: list[str] = Field(min_length=1, max_length=MAX_STATES)
    change_types: list[str] | None = None
    target: str | None = Field(default=None, max_length=MAX_LATEX)
    save: bool = False


class SaveRequest(_Strict):
    derivation: dict[str, Any]
    title: str | None = Field(default=None, max_length=500)


def _store(request: Request) -> DerivationStore:
    return request.app.state.store


def _engine(request: Request) -> Engine:
    return request.app.state.engine


def _timeout(request: Request) -> float:
    return request.app.state.settings.web_request_timeout_s


def answer(
    store: DerivationStore,
    derivation: dict[str, Any],
    save: bool,
    title: str | None = None,
    deadline: Deadline | None = None,
) -> dict[str, Any]:
    """Payload built, saved if asked: ``{"id", "url", "derivation", "payload"}``.

    With a ``deadline``, nothing is saved once the request has timed out.
    """
    payload = build_payload(derivation)
    out: dict[str, Any] = {"id": None, "url": None, "derivation": derivation, "payload": payload}
    if save and (deadline is None or deadline.commit()):
        ident = store.save(derivation, payload, title)
        out.update(id=ident, url=f"/d/{ident}")
    return out


@router.get("/health")
def health(request: Request) -> dict[str, Any]:
    return {"ok": True, "katex": request.app.state.katex_version}


@router.post("/derive")
async def derive(body: DeriveRequest, request: Request) -> dict[str, Any]:
    engine, store = _engine(request), _store(request)

    def work(deadline: Deadline) -> dict[str, Any]:
        derivation = engine.derive(body.start, body.target, body.proposer)
        return answer(store, derivation, body.save, deadline=deadline)

    return await with_deadline(work, _timeout(request))


@router.post("/check")
async def check(body: CheckRequest, request: Request) -> dict[str, Any]:
    engine, store = _engine(request), _store(request)

    def work(deadline: Deadline) -> dict[str, Any]:
        derivation = engine.check(body.states, body.change_types, body.target)
        return answer(store, derivation, body.save, deadline=deadline)

    return await with_deadline(work, _timeout(request))


@router.get("/derive/stream")
async def derive_stream(
    request: Request, start: str, target: str, proposer: str = "symbolic"
) -> StreamingResponse:
    """Server-sent events: ``started``, one ``attempt`` per judged draft (with its steps
    and their tiers), then ``done`` (saved: id, url, derivation, payload) or ``error``."""
    if not start.strip() or not target.strip() or len(start) + len(target) > 2 * MAX_LATEX:
        raise InputError("start and target must be non-empty LaTeX", kind="endpoints")
    engine, store, timeout = _engine(request), _store(request), _timeout(request)
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    cancelled = threading.Event()

    def emit(event: dict[str, Any]) -> None:
        if not cancelled.is_set():
            loop.call_soon_threadsafe(queue.put_nowait, event)

    def work(deadline: Deadline) -> dict[str, Any]:
        derivation = engine.derive(start, target, proposer, progress=emit)
        return answer(store, derivation, save=True, deadline=deadline)

    async def events() -> AsyncIterator[str]:
        yield _sse({"event": "started", "start": start, "target": target, "proposer": proposer})
        task = asyncio.ensure_future(with_deadline(work, timeout))
        try:
            while not (task.done() and queue.empty()):
                getter = asyncio.ensure_future(queue.get())
                await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    yield _sse(getter.result())
                else:
                    getter.cancel()
            yield _sse(_final(task))
        finally:
            cancelled.set()

    return StreamingResponse(events(), media_type="text/event-stream")


def _final(task: asyncio.Future[dict[str, Any]]) -> dict[str, Any]:
    exc = task.exception()
    if exc is None:
        return {"event": "done", **task.result()}
    if isinstance(exc, InputError):
        return {"event": "error", **exc.to_json(), "message": exc.located()}
    if isinstance(exc, VeristepError):
        return {"event": "error", **error_body(type(exc).__name__.lower(), str(exc))}
    return {"event": "error", **error_body("internal", f"internal error: {type(exc).__name__}")}


def _sse(event: dict[str, Any]) -> str:
    return f"event: {event['event']}\ndata: {json.dumps(event, ensure_ascii=False)}\n\n"


@router.get("/derivations")
def list_derivations(request: Request, limit: int = 100, offset: int = 0) -> dict[str, Any]:
    limit = max(1, min(limit, 500))
    rows = _store(request).list(limit=limit, offset=max(offset, 0))
    return {"derivations": [r.summary() for r in rows], "total": _store(request).count()}


@router.post("/derivations")
def save_derivation(body: SaveRequest, request: Request) -> dict[str, Any]:
    """Save a derivation JSON made elsewhere (e.g. ``veristep derive --json``)."""
    try:
        Derivation.from_json(body.derivation)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"not a derivation JSON: {type(exc).__name__}: {exc}") from None
    out = answer(_store(request), body.derivation, save=True, title=body.title)
    return {"id": out["id"], "url": out["url"]}


@router.get("/derivations/{ident}")
def get_derivation(ident: str, request: Request) -> dict[str, Any]:
    saved = _store(request).get(ident)
    if saved is None:
        raise HTTPException(404, f"no saved derivation {ident!r}")
    payload = saved.payload or build_payload(saved.derivation)
    return {**saved.summary(), "derivation": saved.derivation, "payload": payload}


@router.get("/derivations/{ident}/export", response_class=HTMLResponse)
def export(ident: str, request: Request) -> HTMLResponse:
    saved = _store(request).get(ident)
    if saved is None:
        raise HTTPException(404, f"no saved derivation {ident!r}")
    return HTMLResponse(
        export_html(saved.derivation, title=saved.title, payload=saved.payload),
        headers={"content-disposition": f'attachment; filename="veristep-{ident}.html"'},
    )
