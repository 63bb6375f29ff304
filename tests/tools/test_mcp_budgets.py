"""The server's budget and cancellation machinery on tools made for the test (a tool that
ignores its budget, a tool that registers a kill hook), served in-process to the SDK's client."""

from __future__ import annotations

import threading
import time
from typing import Any

import anyio
import pytest
from anyio.from_thread import start_blocking_portal
from mcp import Client

from veristep.core.settings import Settings
from veristep.tools.mcp_server import GRACE_S, VeristepMCP
from veristep.tools.registry import Call, Registry, ToolSpec, budget, obj

STOP = threading.Event()  # ends the stubborn tool's thread when the test is over
KILLED = threading.Event()


def stubborn(args: dict[str, Any], call: Call) -> dict[str, Any]:
    """Ignores its budget and never checks for cancellation: only the server can stop it."""
    STOP.wait(60)
    return {"late": True}


def killable(args: dict[str, Any], call: Call) -> dict[str, Any]:
    call.on_cancel(KILLED.set)
    call.report(0, None, "started")
    STOP.wait(60)
    return {"late": True}


REGISTRY = Registry(
    [
        ToolSpec("stubborn", "A tool that overruns.", obj({"budget_s": budget(1)}, []), stubborn),
        ToolSpec("killable", "A tool with a kill hook.", obj({}, []), killable, long=True),
    ]
)


@pytest.fixture
def served(tmp_path):
    server = VeristepMCP(Settings(data_dir=tmp_path), REGISTRY)
    STOP.clear()
    KILLED.clear()
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(Client(server.server)) as client:
            yield portal, client
        STOP.set()


def test_a_call_past_its_budget_is_answered_as_a_located_tool_error(served) -> None:
    portal, client = served
    began = time.monotonic()
    result = portal.call(lambda: client.call_tool("stubborn", {"budget_s": 0.5}))
    took = time.monotonic() - began
    assert result.is_error
    assert result.content[0].text == "stubborn: stopped: budget of 0.5 s spent"
    assert 0.5 <= took < 0.5 + GRACE_S + 3


def test_cancelling_a_call_runs_its_kill_hooks_and_the_server_goes_on(served) -> None:
    portal, client = served
    started = anyio.Event()

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        started.set()

    async def cancel_it() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(
                lambda: client.call_tool("killable", {}, progress_callback=on_progress)
            )
            with anyio.fail_after(30):
                await started.wait()
            group.cancel_scope.cancel()

    portal.call(cancel_it)
    assert KILLED.wait(10), "the kill hook did not run"
    listed = portal.call(client.list_tools)
    assert [t.name for t in listed.tools] == ["stubborn", "killable"]
