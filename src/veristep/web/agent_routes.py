"""Chat endpoint and tool endpoints: the agent page's API and OpenAI-style function calling.

``POST /api/chat`` runs the ReAct agent with the configured model (``create_app(..., lm=...)``
or ``settings.model``). ``GET /api/tools`` lists the function schema; ``POST /api/tools/<name>``
executes a call made by any OpenAI-compatible client, with the arguments as a JSON string.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from veristep.web.agent import TOOL_NAME, TOOL_SCHEMA, ProofAnimationTool, chat
from veristep.web.api import answer
from veristep.web.engine import Deadline, with_deadline

router = APIRouter(prefix="/api")


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    message: str = Field(min_length=1, max_length=4000)


class ToolCall(BaseModel):
    model_config = ConfigDict(extra="forbid")
    arguments: str = Field(max_length=50_000)


def _tool(request: Request, deadline: Deadline) -> ProofAnimationTool:
    engine, store = request.app.state.engine, request.app.state.store
    return ProofAnimationTool(
        lambda s, t: answer(
            store, engine.derive(s, t), save=True, deadline=deadline, only_if_worth=True
        )
    )


def _lm(request: Request) -> Any:
    lm = getattr(request.app.state, "lm", None)
    if lm is not None:
        return lm
    settings = request.app.state.settings
    if not settings.model:
        raise HTTPException(503, "no language model is configured (set VERISTEP_MODEL)")
    # The proposer's factory: the project's LM configuration when present, else dspy.LM.
    from veristep.llm.config import make_lm

    return make_lm(settings.model, settings)


@router.get("/tools")
def tools() -> dict[str, Any]:
    return {"tools": [TOOL_SCHEMA]}


@router.post(f"/tools/{TOOL_NAME}")
async def call_tool(body: ToolCall, request: Request) -> dict[str, Any]:
    def work(deadline: Deadline) -> dict[str, Any]:
        tool = _tool(request, deadline)
        out = json.loads(tool.call_json(body.arguments))
        return {"result": out, "payload": tool.results[-1]["payload"] if tool.results else None}

    return await with_deadline(work, request.app.state.settings.web_request_timeout_s)


@router.post("/chat")
async def chat_endpoint(body: ChatRequest, request: Request) -> dict[str, Any]:
    lm = _lm(request)
    return await with_deadline(
        lambda deadline: chat(body.message, _tool(request, deadline), lm),
        request.app.state.settings.web_request_timeout_s,
    )
