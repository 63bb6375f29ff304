"""A real MCP client (the official SDK) driving ``veristep mcp`` in a subprocess.

The client's event loop runs in a thread behind an anyio blocking portal, so tests call it
synchronously and one server serves a whole test module. Each server gets a marker in its
environment that its children (CAS workers, coqtop) inherit: :func:`marked_processes` finds
them, so a test can prove that nothing outlives its client.
"""

from __future__ import annotations

import contextlib
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal

# The mcp extra is part of the dev setup: a missing SDK fails the server tests loudly (at their
# first connection), while the registry's own tests still run.

VERISTEP = str(Path(sys.executable).with_name("veristep"))
MARK = "VERISTEP_TEST_SERVER_MARK"


def server_params(data_dir: Path, mark: str, *args: str, cwd: Path | None = None) -> Any:
    from mcp import StdioServerParameters

    env = {**os.environ, "VERISTEP_DATA_DIR": str(data_dir), MARK: mark}
    return StdioServerParameters(command=VERISTEP, args=["mcp", *args], env=env, cwd=cwd)


class McpSession:
    """A connected client with synchronous calls (each a real JSON-RPC round trip)."""

    def __init__(self, portal: BlockingPortal, client: Any, mark: str) -> None:
        self.portal, self.client, self.mark = portal, client, mark

    def call(self, name: str, arguments: Any = None, **kw: Any) -> Any:
        return self.portal.call(lambda: self.client.call_tool(name, arguments, **kw))

    def ok(self, name: str, arguments: Any = None) -> dict[str, Any]:
        result = self.call(name, arguments)
        assert not result.is_error, result.content[0].text
        return result.structured_content

    def error(self, name: str, arguments: Any = None) -> str:
        result = self.call(name, arguments)
        assert result.is_error, f"{name} accepted {arguments!r}"
        text = result.content[0].text
        assert "Traceback" not in text and text.startswith(f"{name}: ")
        return text

    def run(self, fn: Any, *args: Any) -> Any:
        return self.portal.call(fn, *args)


@contextlib.contextmanager
def connect(data_dir: Path, *args: str, cwd: Path | None = None) -> Iterator[McpSession]:
    from mcp import Client

    mark = uuid.uuid4().hex
    with start_blocking_portal() as portal:
        client = Client(server_params(data_dir, mark, *args, cwd=cwd))
        with portal.wrap_async_context_manager(client) as connected:
            yield McpSession(portal, connected, mark)


def marked_processes(mark: str) -> list[tuple[int, str]]:
    """(pid, command name) of every live process whose environment carries ``mark``."""
    found = []
    needle = f"{MARK}={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append((int(entry.name), (entry / "comm").read_text().strip()))
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def mcp_session(tmp_path_factory) -> Iterator[McpSession]:
    """One ``veristep mcp`` server over stdio for the whole module."""
    with connect(tmp_path_factory.mktemp("mcp-data")) as session:
        yield session


@pytest.fixture
def mcp_connect():
    """:func:`connect`, for tests that need a server of their own."""
    return connect


@pytest.fixture
def marked():
    """:func:`marked_processes`."""
    return marked_processes
