"""The JSON API: derive and check (plain and streamed), saved derivations, export.

Every answer that carries a derivation has the derivation JSON (docs/design.md) under
``derivation``, its animation payload under ``payload`` and, once saved, its ``id`` and page
``url``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from veristep.animate import build_payload, export_html
from veristep.core.errors import InputError
from veristep.core.verdicts import Derivation
from veristep.web.engine import Deadline, Engine, Progress, with_deadline
from veristep.web.grading import not_worth_saving, regrade, shown
from veristep.web.learner_routes import router as learner_router
from veristep.web.store import DerivationStore
from veristep.web.streaming import event_stream

router = APIRouter(prefix="/api")
router.include_router(learner_router)  # /api/parse, /api/hint, /api/slip

MAX_STATES = 200
MAX_LATEX = 20_000
MAX_OFFSET = 2**53  # SQLite integers are 64-bit: a larger offset would be an OverflowError (500)


class _Strict(BaseModel):
    # A typo'd field is an error, not ignored; "save": "yes" or 1 is not a boolean (strict).
    model_config = ConfigDict(extra="forbid", strict=True)


class DeriveRequest(_Strict):
    start: str = Field(min_length=1, max_length=MAX_LATEX)
    # Absent, null or blank: a goal-only task (the planner states the answer; see docs/derive.md).
    target: str | None = Field(default=None, max_length=MAX_LATEX)
    goal: str | None = Field(default=None, max_length=40)
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
    only_if_worth: bool = False,
) -> dict[str, Any]:
    """Payload built, saved if asked: ``{"id", "url", "derivation", "payload"}``.

    With a ``deadline``, nothing is saved once the request has timed out. ``only_if_worth`` (an
    automatic save) skips failed and wrong derivations and says why under ``not_saved``.
    """
    payload = build_payload(derivation)
    out: dict[str, Any] = {"id": None, "url": None, "derivation": derivation, "payload": payload}
    why = not_worth_saving(derivation) if only_if_worth and save else None
    if why is not None:
        out["not_saved"] = why
    elif save and (deadline is None or deadline.commit()):
        ident = store.save_unique(derivation, payload, title)
        out.update(id=ident, url=f"/d/{ident}")
    return out


@router.get("/health")
def health(request: Request) -> dict[str, Any]:
    return {"ok": True, "katex": request.app.state.katex_version}


@router.post("/derive")
async def derive(body: DeriveRequest, request: Request) -> dict[str, Any]:
    engine, store = _engine(request), _store(request)

    def work(deadline: Deadline) -> dict[str, Any]:
        derivation = engine.derive(body.start, body.target, body.proposer, goal=body.goal)
        return answer(store, derivation, body.save, deadline=deadline, only_if_worth=True)

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
    request: Request,
    start: str,
    target: str = "",
    proposer: str = "symbolic",
    goal: str | None = None,
) -> StreamingResponse:
    """Server-sent events: ``started``; per judged draft one ``step`` per step (index, total,
    tier, icon, reason) then its ``attempt`` (verdict and steps); then ``done`` (saved: id, url,
    derivation, payload) or ``error``."""
    if not start.strip():
        raise InputError("start must be non-empty maths", kind="endpoints")
    for name, text in (("start", start), ("target", target)):
        if len(text) > MAX_LATEX:
            raise InputError(
                f"{name} is {len(text):,} characters long; the limit is {MAX_LATEX:,}",
                kind="endpoints",
            )
    engine, store = _engine(request), _store(request)

    def work(emit: Progress, deadline: Deadline) -> dict[str, Any]:
        derivation = engine.derive(start, target, proposer, progress=emit, goal=goal)
        return answer(store, derivation, save=True, deadline=deadline, only_if_worth=True)

    started = {"start": start, "target": target or None, "proposer": proposer}
    return event_stream(started, work, _timeout(request))


@router.post("/derive/stream")
async def derive_stream_post(body: DeriveRequest, request: Request) -> StreamingResponse:
    """:func:`derive_stream` with the inputs in a JSON body (long LaTeX does not fit a URL)."""
    engine, store = _engine(request), _store(request)

    def work(emit: Progress, deadline: Deadline) -> dict[str, Any]:
        derivation = engine.derive(
            body.start, body.target, body.proposer, progress=emit, goal=body.goal
        )
        return answer(store, derivation, body.save, deadline=deadline, only_if_worth=True)

    started = {"start": body.start, "target": body.target, "proposer": body.proposer}
    return event_stream(started, work, _timeout(request))


@router.post("/check/stream")
async def check_stream(body: CheckRequest, request: Request) -> StreamingResponse:
    """:func:`check` as server-sent events: ``started`` (``total`` steps), one ``step`` per step
    as soon as it is judged, then ``done`` (the same answer as ``/api/check``) or ``error``."""
    engine, store = _engine(request), _store(request)

    def work(emit: Progress, deadline: Deadline) -> dict[str, Any]:
        derivation = engine.check(body.states, body.change_types, body.target, progress=emit)
        return answer(store, derivation, body.save, deadline=deadline)

    return event_stream({"total": len(body.states) - 1}, work, _timeout(request))


@router.get("/derivations")
def list_derivations(request: Request, limit: int = 100, offset: int = 0) -> dict[str, Any]:
    if not 0 <= offset <= MAX_OFFSET:
        raise InputError(f"offset must be between 0 and {MAX_OFFSET}, got {offset}", kind="offset")
    limit = max(1, min(limit, 500))
    rows = _store(request).list(limit=limit, offset=offset)
    return {"derivations": [r.summary() for r in rows], "total": _store(request).count()}


@router.post("/derivations")
async def save_derivation(body: SaveRequest, request: Request) -> dict[str, Any]:
    """Save a derivation JSON made elsewhere (e.g. ``veristep derive --json``). Its chain is
    graded again here: the tiers it arrives with are never stored or shown."""
    try:
        Derivation.from_json(body.derivation)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"not a derivation JSON: {type(exc).__name__}: {exc}") from None
    engine, store = _engine(request), _store(request)

    def work(deadline: Deadline) -> dict[str, Any]:
        graded = regrade(engine, body.derivation)
        return answer(store, graded, save=True, title=body.title, deadline=deadline)

    out = await with_deadline(work, _timeout(request))
    return {"id": out["id"], "url": out["url"], "tier": out["derivation"]["confidence"]["tier"]}


@router.get("/derivations/{ident}")
def get_derivation(ident: str, request: Request) -> dict[str, Any]:
    saved = _store(request).get(ident)
    if saved is None:
        raise HTTPException(404, f"no saved derivation {ident!r}")
    derivation, payload = shown(saved)
    return {**saved.summary(), "derivation": derivation, "payload": payload}


@router.get("/derivations/{ident}/export", response_class=HTMLResponse)
def export(ident: str, request: Request) -> HTMLResponse:
    saved = _store(request).get(ident)
    if saved is None:
        raise HTTPException(404, f"no saved derivation {ident!r}")
    derivation, payload = shown(saved)
    return HTMLResponse(
        export_html(derivation, title=saved.title, payload=payload),
        headers={"content-disposition": f'attachment; filename="veristep-{ident}.html"'},
    )
