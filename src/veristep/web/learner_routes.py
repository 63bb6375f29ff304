"""The student loop's small endpoints: read a line back, a hint ladder, name a slip.

POST /api/parse  {"text"}                      → what the server read, as LaTeX to render
POST /api/hint   {"state"}                     → a nudge, the move, the line (offline planner)
POST /api/slip   {"previous", "next", "expected"?} → the most likely slip, or null

Each runs under the request deadline; the CAS work inside runs in the worker pool.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from veristep.core.errors import InputError
from veristep.web.engine import Deadline, with_deadline

router = APIRouter()

MAX_TEXT = 2_000  # a line typed in a form; longer input has no live preview


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ParseRequest(_Strict):
    text: str = Field(min_length=1, max_length=MAX_TEXT)


class HintRequest(_Strict):
    state: str = Field(min_length=1, max_length=MAX_TEXT)


class SlipRequest(_Strict):
    previous: str = Field(min_length=1, max_length=MAX_TEXT)
    next: str = Field(min_length=1, max_length=MAX_TEXT)
    expected: str | None = Field(default=None, max_length=MAX_TEXT)


def _settings(request: Request) -> Any:
    return request.app.state.settings


def _timeout(request: Request) -> float:
    return request.app.state.settings.web_request_timeout_s


def read_back(text: str, settings: Any) -> dict[str, Any]:
    """The line as the server reads it: ``{"ok", "latex", "reader"}`` or a located error.

    Only the reader runs (no CAS): the preview shows what will be judged, so that nothing typed
    is misread silently.
    """
    from veristep.mathgraph import to_latex
    from veristep.mathgraph.reader import parse_math, reader_for

    try:
        graph = parse_math(text, settings)
        return {"ok": True, "latex": to_latex(graph), "reader": reader_for(text)}
    except InputError as err:
        return {"ok": False, **err.to_json(), "located": err.located()}


@router.post("/parse")
async def parse(body: ParseRequest, request: Request) -> dict[str, Any]:
    settings = _settings(request)
    return await with_deadline(lambda _d: read_back(body.text, settings), _timeout(request))


@router.post("/hint")
async def hint(body: HintRequest, request: Request) -> dict[str, Any]:
    from veristep.workspace.hints import hint_ladder

    settings = _settings(request)

    def work(_deadline: Deadline) -> dict[str, Any]:
        rungs = hint_ladder(body.state, settings)
        if rungs is None:
            return {"hints": None, "message": "no hint here: the line is finished or unreadable"}
        return {"hints": rungs}

    return await with_deadline(work, _timeout(request))


@router.post("/slip")
async def slip(body: SlipRequest, request: Request) -> dict[str, Any]:
    from veristep.workspace.slips import name_slip

    settings = _settings(request)

    def work(_deadline: Deadline) -> dict[str, Any]:
        told = [body.expected] if body.expected else None
        found = name_slip(body.previous, body.next, settings, correct=told)
        return {"slip": found.to_json() if found else None}

    return await with_deadline(work, _timeout(request))
