"""``veristep mcp --http``: streamable HTTP on 127.0.0.1, two real SDK clients at once, the
localhost-only Host check, and the command line's usage errors."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from anyio.from_thread import start_blocking_portal
from mcp import Client

VERISTEP = str(Path(sys.executable).with_name("veristep"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def http_server(tmp_path_factory):
    port = _free_port()
    env = {**os.environ, "VERISTEP_DATA_DIR": str(tmp_path_factory.mktemp("mcp-http"))}
    proc = subprocess.Popen(
        [VERISTEP, "mcp", "--http", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/mcp", proc
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) is not None


def test_two_clients_at_once_each_get_their_own_answers(http_server) -> None:
    url, _ = http_server
    chains = {"a": ["2x + 3 = 7", "2x = 4", "x = 2"], "b": ["2x + 3 = 7", "2x = 5"]}
    answers: dict[str, dict] = {}

    async def one(key: str) -> None:
        async with Client(url) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert "check" in names and "coq_run" in names
            derived = await client.call_tool("derive", {"start": "3x - 1 = 5", "target": "x = 2"})
            assert not derived.is_error and derived.structured_content["endpoint"]["reached"]
            result = await client.call_tool("check", {"states": chains[key]})
            answers[key] = result.structured_content
            bad = await client.call_tool("check", {"states": 3})
            assert bad.is_error and bad.content[0].text.startswith("check: argument 'states'")

    async def both() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(one, "a")
            group.start_soon(one, "b")

    with start_blocking_portal() as portal:
        portal.call(both)
    assert answers["a"]["confidence"]["tier"] == "grounded"
    assert answers["b"]["steps"][0]["tier"] == "refuted"


def test_only_localhost_host_headers_are_served(http_server) -> None:
    import httpx

    url, _ = http_server
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"Host": "evil.example", "Accept": "application/json, text/event-stream"}
    answer = httpx.post(url, json=body, headers=headers, timeout=10)
    assert answer.status_code in (400, 403, 421)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--host", "0.0.0.0"], "--host and --port need --http"),
        (["--http", "--port", "70000"], "--port must be between 1 and 65535, got 70000"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    done = subprocess.run([VERISTEP, "mcp", *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"veristep mcp: {message}"]
