"""One agent loop of a real small model through the MCP tools: SmolLM2-135M-Instruct (served by
llama-cpp-python on 127.0.0.1) picks tools and arguments, its reply constrained to the tools'
JSON schemas, and the calls go to ``veristep mcp`` over stdio with the official SDK client.

A 135M model writes little that is useful; the point is the contract whatever it writes: the
loop ends without a crash, every tool call gets an answer (a result or a located tool error),
the server is still serving afterwards, and every tier the agent saw is one the verifier gives
again for the same call.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from veristep.llm.testing import smollm2_server

pytestmark = [pytest.mark.llm_real, pytest.mark.timeout(900)]

TOOLS = ("check", "apply", "next_step", "parse")  # a small model gets a short tool list


@pytest.fixture(scope="module")
def smollm2(tmp_path_factory) -> Iterator[str]:
    """llama.cpp's OpenAI-compatible server with SmolLM2 on a free port, for this module."""
    with smollm2_server(tmp_path_factory.mktemp("llama") / "server.log") as (base, _):
        yield base


def _bounded(schema: Any) -> Any:
    """The tool's input schema with short strings and lists, so a 135M model's constrained
    reply stays within its token budget (the server checks the real limits anyway)."""
    if isinstance(schema, dict):
        out = {k: _bounded(v) for k, v in schema.items() if k not in ("description", "title")}
        if out.get("type") == "string" and "enum" not in out:
            out["maxLength"] = min(out.get("maxLength", 60), 60)
        if out.get("type") == "array":
            out["maxItems"] = min(out.get("maxItems", 5), 5)
        return out
    return schema


def _ask(base: str, messages: list[dict], schema: dict) -> str:
    """One chat completion whose reply llama.cpp constrains to ``schema`` (JSON mode)."""
    body = {"model": "smollm2", "max_tokens": 200, "temperature": 0, "messages": messages,
            "response_format": {"type": "json_object", "schema": schema}}  # fmt: skip
    request = urllib.request.Request(
        f"{base}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=300) as reply:
        return json.loads(reply.read())["choices"][0]["message"]["content"]


def test_a_real_small_model_runs_one_agent_loop_through_the_mcp_tools(
    smollm2: str, mcp_connect: Any, tmp_path: Path
) -> None:
    """The loop: the model picks a tool and its arguments (its reply constrained to the tools'
    JSON schemas, the first turn to a tool call), the call goes to ``veristep mcp`` over stdio,
    the result goes back to the model, up to three turns or until it answers."""
    calls: list[tuple[str, dict, dict]] = []  # (tool, arguments, what the model was shown)
    with mcp_connect(tmp_path) as session:
        listed = {t.name: t for t in session.run(session.client.list_tools).tools}
        choices = [
            {"type": "object", "required": ["tool", "arguments"],
             "properties": {"tool": {"const": name},
                            "arguments": _bounded(listed[name].input_schema)}}
            for name in TOOLS
        ]  # fmt: skip
        answer = {"type": "object", "required": ["tool", "text"],
                  "properties": {"tool": {"const": "answer"},
                                 "text": {"type": "string", "maxLength": 200}}}  # fmt: skip
        menu = "; ".join(f"{n}: {listed[n].description.split('.')[0]}" for n in TOOLS)
        system = (
            f"Answer with JSON only. Tools: {menu}; answer: stop and report each step's tier "
            "exactly as the check tool gave it."
        )
        request = "Check my derivation: 2x + 3 = 7, then 2x = 4, then x = 2."
        messages = [{"role": "system", "content": system}, {"role": "user", "content": request}]
        for turn in range(3):
            schema = {"anyOf": choices if turn == 0 else [*choices, answer]}
            reply = _ask(smollm2, messages, schema)
            move = json.loads(reply)  # constrained decoding: a JSON object of the schema
            if move["tool"] == "answer":
                break
            result = session.call(move["tool"], move["arguments"])  # a real JSON-RPC round trip
            shown = (
                {"error": result.content[0].text} if result.is_error else result.structured_content
            )
            calls.append((move["tool"], move["arguments"], shown))
            messages += [
                {"role": "assistant", "content": reply},
                {"role": "user", "content": f"Tool result: {json.dumps(shown)[:1200]}"},
            ]

        assert calls, "the model made no tool call"
        # Every tier the model was shown is the verifier's: the same call gives it again.
        for name, arguments, shown in calls:
            again = session.call(name, arguments)
            replay = (
                {"error": again.content[0].text} if again.is_error else again.structured_content
            )
            assert _tiers(shown) == _tiers(replay), (name, arguments)
            if "error" in shown:
                assert shown["error"].startswith(f"{name}: ") and "Traceback" not in shown["error"]
        # And the server is still serving.
        after = session.ok("check", {"states": ["2x + 3 = 7", "2x = 4", "x = 2"]})
        assert [s["tier"] for s in after["steps"]] == ["grounded", "grounded"]


def _tiers(value: Any) -> list[str]:
    """Every ``tier`` value in a result, in order (the verifier's grades, wherever they sit)."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "tier" and isinstance(item, str):
                found.append(item)
            else:
                found += _tiers(item)
    elif isinstance(value, list):
        for item in value:
            found += _tiers(item)
    return found


def test_tiers_helper_reads_nested_results() -> None:
    result = json.loads('{"steps": [{"tier": "grounded"}, {"verdict": {"tier": "refuted"}}]}')
    assert _tiers(result) == ["grounded", "refuted"]
