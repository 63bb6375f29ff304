"""``veristep mcp`` over stdio, driven by the official SDK's client in a subprocess: the tool list,
every algebra, ALPS and review tool with good and bad input, resources, prompts, progress, and
concurrent calls. One server serves the module (see conftest)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from veristep.tools import default_registry

McpSession = Any  # conftest's McpSession: a connected client with synchronous calls
TIERS = {"grounded", "verified", "plausible", "unchecked", "refuted"}


def test_the_tool_list_is_the_registry_with_its_schemas(mcp_session: McpSession) -> None:
    listed = mcp_session.run(mcp_session.client.list_tools).tools
    registry = {spec.name: spec for spec in default_registry()}
    assert [t.name for t in listed] == list(registry)
    for tool in listed:
        assert tool.input_schema == registry[tool.name].input_schema
        assert tool.description == registry[tool.name].description
    names = set(registry)
    assert {"check", "derive", "apply", "next_step", "animation", "parse"} <= names
    assert {"coq_open", "coq_run", "coq_try", "coq_back", "coq_check", "coq_search"} <= names
    assert {"alps_id", "alps_screen", "alps_judge", "review_check", "prove"} <= names


def test_check_grades_every_step_and_refutes_with_a_witness(mcp_session: McpSession) -> None:
    good = mcp_session.ok("check", {"states": ["2x + 3 = 7", "2x = 4", "x = 2"]})
    assert [s["tier"] for s in good["steps"]] == ["grounded", "grounded"]
    assert good["endpoint"]["reached"] and good["confidence"]["tier"] == "grounded"
    bad = mcp_session.ok("check", {"states": ["2x + 3 = 7", "2x = 5"]})
    (step,) = bad["steps"]
    assert step["tier"] == "refuted" and bad["confidence"]["tier"] == "refuted"
    lost = mcp_session.ok("check", {"states": ["x^2 = 4", "x = 2"]})
    assert lost["steps"][0]["tier"] not in ("grounded", "verified")  # a lost root is not proven


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"states": "2x = 4"}, "argument 'states': must be of type array"),
        ({}, "argument 'states': is required"),
        ({"states": []}, "fewer than 1 items"),
        ({"states": ["x"] * 41}, "more than 40 items"),
        ({"states": ["x" * 4001]}, "argument 'states[0]': longer than 4000"),
        ({"states": ["x = 1"], "sneaky": 1}, "unknown argument 'sneaky'"),
        ({"states": ["x=1", "x=1"], "change_types": ["teleport"]}, "must be one of"),
    ],
)
def test_check_refuses_bad_input_with_a_located_message(
    mcp_session: McpSession, arguments: dict, message: str
) -> None:
    assert message in mcp_session.error("check", arguments)


def test_check_reports_an_unparseable_state_and_keeps_it_unchecked(
    mcp_session: McpSession,
) -> None:
    out = mcp_session.ok("check", {"states": ["x + 1 = 2", "\\frac{1}{"]})
    assert out["steps"][0]["tier"] == "unchecked"
    assert mcp_session.error("parse", {"latex": "\\frac{1}{"}).startswith("parse: ")


def test_parse_returns_the_graph_forms(mcp_session: McpSession) -> None:
    out = mcp_session.ok("parse", {"latex": "x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}"})
    assert out["statement"] and "\\pm" in out["latex"]
    assert out["sympy"] or len(out["branches"]) == 2
    assert "htmlData" in out["latex_ids"]


def test_derive_apply_next_step_and_animation(mcp_session: McpSession, tmp_path: Path) -> None:
    progress: list[tuple[float, str]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, message or ""))

    result = mcp_session.call(
        "derive", {"start": "2x + 3 = 7", "target": "x = 2"}, progress_callback=on_progress
    )
    assert not result.is_error, result.content[0].text
    derived = result.structured_content
    assert derived["endpoint"]["reached"]
    assert all(s["tier"] in TIERS for s in derived["steps"])
    assert [m for _, m in progress] == [
        f"step {s['index']}: {s['tier']}" for s in derived["steps"]
    ]  # one notification per graded step, saying the verifier's tier
    page = mcp_session.ok("animation", {"id": derived["id"]})
    html = Path(page["file"]).read_text(encoding="utf-8")
    assert page["bytes"] == len(html.encode()) and "<html" in html.lower()
    assert "animation: argument 'id'" in mcp_session.error("animation", {"id": "0123456789ab"})
    assert "unknown argument" in mcp_session.error("animation", {"id": "ab", "path": "/etc"})

    applied = mcp_session.ok(
        "apply", {"state": "2x + 3 = 7", "operation": "subtract 3 from both sides"}
    )
    assert applied["result"].replace(" ", "") == "2x=4"
    assert applied["steps"][-1]["verdict"]["tier"] == "grounded"
    risky = mcp_session.ok("apply", {"state": "x^2 = x", "operation": "divide both sides by x"})
    assert risky["steps"][-1]["verdict"]["tier"] not in ("grounded", "verified")
    assert "apply: " in mcp_session.error(
        "apply", {"state": "2x = 4", "operation": "frobnicate the cheese"}
    )
    nxt = mcp_session.ok("next_step", {"state": "2x + 3 = 7"})
    assert nxt["move"]["operation"] and nxt["step"]["verdict"]["tier"] == "grounded"
    assert "next_step: " in mcp_session.error("next_step", {"state": "2x + = 7"})


def test_derive_refuses_what_it_cannot_run(mcp_session: McpSession) -> None:
    assert "must be one of" in mcp_session.error(
        "derive", {"start": "x=1", "target": "x=1", "domain": "astrology"}
    )
    assert "no model is configured" in mcp_session.error(
        "derive", {"start": "x + 1 = 2", "target": "x = 1", "proposer": "llm"}
    )


def test_alps_tools(mcp_session: McpSession) -> None:
    assert mcp_session.ok("alps_id", {"law": "x = x ◇ y"})["id"] == 4
    assert mcp_session.ok("alps_id", {"id": 4})["law"] == "x = x ◇ y"
    assert "either 'law' or 'id'" in mcp_session.error("alps_id", {})
    assert "alps_id: " in mcp_session.error("alps_id", {"law": "x = = y"})
    screened = mcp_session.ok("alps_screen", {"law": "x = x ◇ y", "budget_s": 30})
    assert screened["status"] == "HAS_FINITE_MODEL" and screened["model"]
    good = mcp_session.ok(
        "alps_judge", {"law": "x = y ◇ z", "submission": json.dumps({"chain": ["a", "a ◇ a", "b"]})}
    )
    assert good["status"] == "accepted" and good["certificate_hash"]
    jump = mcp_session.ok(
        "alps_judge", {"law": "x = y ◇ z", "submission": json.dumps({"chain": ["a", "b"]})}
    )
    assert jump["status"] != "accepted"
    assert (
        mcp_session.ok("alps_judge", {"law": "x = y", "submission": "{no"})["status"] == "invalid"
    )
    assert "maximum" in json.dumps(default_registry().get("alps_screen").input_schema)
    assert "at most 300" in mcp_session.error("alps_screen", {"law": "x = y", "budget_s": 1e9})


def test_review_check_finds_the_flaw_and_leaves_the_rest_open(mcp_session: McpSession) -> None:
    out = mcp_session.ok("review_check", {"proof": "We have $2 + 2 = 5$. Hence $x = 1$."})
    first, second = out["steps"]
    assert first["tier"] == "refuted" and first["flaw"]["witness"]
    assert second["state"] == "open" and second["tier"] not in ("grounded", "verified")
    assert out["verdict"] == "rejected"
    assert "review_check: " in mcp_session.error("review_check", {"proof": ""})


def test_unknown_tools_and_malformed_calls_are_tool_errors(mcp_session: McpSession) -> None:
    assert "no such tool" in mcp_session.error("frobnicate", {})
    assert "budget_s" in mcp_session.error("derive", {"start": "x", "target": "x", "budget_s": "1"})


def test_resources_and_prompts(mcp_session: McpSession) -> None:
    client = mcp_session.client
    assert [r.uri for r in mcp_session.run(client.list_resources).resources] == ["veristep://tiers"]
    templates = mcp_session.run(client.list_resource_templates).resource_templates
    assert {t.uri_template for t in templates} == {
        "veristep://minif2f/{name}",
        "veristep://derivation/{id}",
    }
    tiers = mcp_session.run(client.read_resource, "veristep://tiers").contents[0].text
    assert all(t in tiers for t in TIERS)
    statement = mcp_session.run(client.read_resource, "veristep://minif2f/mathd_algebra_412")
    assert "Theorem mathd_algebra_412" in statement.contents[0].text
    checked = mcp_session.ok("check", {"states": ["x + 1 = 2", "x = 1"]})
    saved = mcp_session.run(client.read_resource, f"veristep://derivation/{checked['id']}")
    assert json.loads(saved.contents[0].text)["steps"] == checked["steps"]
    with pytest.raises(MCPError, match="unknown miniF2F theorem"):
        mcp_session.run(client.read_resource, "veristep://minif2f/mathd_algebra_41")
    with pytest.raises(MCPError, match="unknown resource"):
        mcp_session.run(client.read_resource, "file:///etc/passwd")
    prompts = mcp_session.run(client.list_prompts).prompts
    assert {p.name for p in prompts} == {
        "check_my_derivation",
        "prove_coq_theorem",
        "review_this_proof",
    }
    text = mcp_session.run(client.get_prompt, "prove_coq_theorem", {"name": "mathd_algebra_412"})
    assert "coq_check" in text.messages[0].content.text
    with pytest.raises(MCPError, match="needs the argument 'name'"):
        mcp_session.run(client.get_prompt, "prove_coq_theorem", {})


def test_concurrent_calls_on_one_connection_each_get_their_own_answer(
    mcp_session: McpSession,
) -> None:
    chains = [["2x + 3 = 7", "2x = 4", "x = 2"], ["x + 1 = 3", "x = 3"], ["3x = 9", "x = 3"]]
    answers: dict[int, dict] = {}

    async def one(i: int) -> None:
        result = await mcp_session.client.call_tool("check", {"states": chains[i]})
        answers[i] = result.structured_content

    async def all_at_once() -> None:
        async with anyio.create_task_group() as group:
            for i in range(len(chains)):
                group.start_soon(one, i)

    mcp_session.run(all_at_once)
    assert [answers[i]["start"] for i in range(3)] == [c[0] for c in chains]
    assert [answers[i]["confidence"]["tier"] for i in range(3)] == [
        "grounded",
        "refuted",
        "grounded",
    ]


def test_garbage_on_the_wire_leaves_the_server_answering(tmp_path: Path) -> None:
    """Lines that are not JSON-RPC (not JSON, a lone surrogate escape, arguments that are not an
    object) never stop the server: each gets an error or is dropped, and the next call is
    answered. Raw JSON-RPC lines, since the SDK's client cannot send such text."""
    env = {**os.environ, "VERISTEP_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "veristep.cli", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def send(line: str) -> None:
        proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()

    def call(i: int, arguments: str) -> str:
        return (
            f'{{"jsonrpc":"2.0","id":{i},"method":"tools/call",'
            f'"params":{{"name":"check","arguments":{arguments}}}}}'
        )

    try:
        hello = {"protocolVersion": "2025-11-25", "capabilities": {},
                 "clientInfo": {"name": "raw", "version": "0"}}  # fmt: skip
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}))
        assert json.loads(proc.stdout.readline())["id"] == 1
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        send("this is not json")
        send(call(2, '{"states": ["x = \\ud800"]}'))
        send(call(3, "[1]"))
        refused = json.loads(proc.stdout.readline())
        assert refused["id"] == 3 and "error" in refused
        send(call(4, '{"states": [1, 2]}'))
        typed = json.loads(proc.stdout.readline())
        assert typed["id"] == 4 and typed["result"]["isError"]
        assert "must be of type string" in typed["result"]["content"][0]["text"]
        send(call(5, '{"states": ["x + 1 = 2", "x = 1"]}'))
        answer = json.loads(proc.stdout.readline())
        assert answer["id"] == 5 and answer["result"]["structuredContent"]["steps"][0]["tier"]
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0  # stdin closed: the server ends cleanly
