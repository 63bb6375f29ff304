"""The chat-agent tool: DSPy ReAct scripted with DummyLM, and OpenAI-style function calling."""

from __future__ import annotations

import json

import pytest

from veristep.web.agent import TOOL_SCHEMA, ProofAnimationTool, known_endpoints, react_agent

QF_START, QF_TARGET = known_endpoints("quadratic formula")


def _dummy_lm(answers):
    from dspy.utils.dummies import DummyLM

    return DummyLM(answers)


def test_schema_is_an_openai_function_with_the_documented_arguments():
    fn = TOOL_SCHEMA["function"]
    assert TOOL_SCHEMA["type"] == "function" and fn["name"] == "derive_proof_animation"
    assert set(fn["parameters"]["properties"]) == {"start_latex", "target_latex", "prompt"}
    assert fn["parameters"]["additionalProperties"] is False
    json.dumps(TOOL_SCHEMA)  # serialisable as sent to an API


def test_the_dspy_tool_exposes_the_same_arguments():
    import dspy

    agent = react_agent(ProofAnimationTool(lambda s, t: {}))
    tool = agent.tools["derive_proof_animation"]
    assert isinstance(tool, dspy.Tool)
    assert set(tool.args) == {"start_latex", "target_latex", "prompt"}


def test_tool_infers_a_well_known_start_and_refuses_an_unknown_one():
    seen = []

    def run(start, target):
        seen.append((start, target))
        return {"id": "x", "url": "/d/x", "payload": {}, "derivation": {
            "confidence": {"tier": "grounded", "summary": "ok"}, "endpoint": {"reached": True},
            "steps": [{"index": 1, "tier": "grounded", "operation": "op"}]}}  # fmt: skip

    tool = ProofAnimationTool(run)
    out = tool(target_latex="", prompt="derive the quadratic formula")
    assert seen == [(QF_START, QF_TARGET)] and out["overall_tier"] == "grounded"
    assert "error" in tool(target_latex="y = 7")
    assert "error" in json.loads(tool.call_json('{"target_latex": "x", "bogus": 1}'))
    assert "error" in json.loads(tool.call_json("{not json"))


def test_chat_with_dummy_lm_derives_the_quadratic_formula(client_with_lm):
    client = client_with_lm(
        [
            {
                "next_thought": "The user wants the quadratic formula; call the tool.",
                "next_tool_name": "derive_proof_animation",
                "next_tool_args": {
                    "target_latex": QF_TARGET,
                    "prompt": "derive the quadratic formula",
                },
            },
            {
                "next_thought": "I have the verified result.",
                "next_tool_name": "finish",
                "next_tool_args": {},
            },
            {
                "reasoning": "The tool returned tiers.",
                "answer": "Every step is proven beyond doubt!",
            },
        ]
    )
    r = client.post("/api/chat", json={"message": "derive the quadratic formula"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["tool_calls"] == 1
    assert body["verdict"] == body["result"]["derivation"]["confidence"]["summary"]
    result = body["result"]
    # Whatever the model says, the tiers come from the verifier and the saved page exists.
    verifier_tiers = [s["tier"] for s in result["derivation"]["steps"]]
    assert [s["tier"] for s in result["payload"]["steps"]] == verifier_tiers
    assert result["derivation"]["start"] == QF_START
    assert result["derivation"]["endpoint"]["reached"] is True
    assert client.get(result["url"]).status_code == 200


def test_chat_without_a_model_is_a_json_503(client):
    r = client.post("/api/chat", json={"message": "derive the quadratic formula"})
    assert r.status_code == 503 and "VERISTEP_MODEL" in r.json()["message"]


def test_openai_style_tool_call_endpoint(client):
    args = json.dumps({"start_latex": "2x + 3 = 9", "target_latex": "x = 3"})
    r = client.post("/api/tools/derive_proof_animation", json={"arguments": args})
    assert r.status_code == 200
    result = r.json()["result"]
    assert result["overall_tier"] == "grounded" and result["endpoint_reached"] is True
    assert [s["tier"] for s in result["steps"]] == [s["tier"] for s in r.json()["payload"]["steps"]]
    listed = client.get("/api/tools").json()["tools"]
    assert listed == [TOOL_SCHEMA]


@pytest.fixture
def client_with_lm(make_client, settings):
    def make(answers):
        return make_client(settings, lm=_dummy_lm(answers))

    return make


def _stub_openai_server(replies: list[str]):
    """A local OpenAI-compatible chat-completions stub on 127.0.0.1 that replays ``replies``."""
    import http.server
    import threading

    calls: list[dict] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            calls.append(body)
            text = replies[min(len(calls), len(replies)) - 1]
            out = json.dumps({
                "id": f"stub-{len(calls)}", "object": "chat.completion", "created": 0,
                "model": body.get("model", "stub"),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": text}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }).encode()  # fmt: skip
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, calls


def _fields(**fields: str) -> str:
    parts = [f"[[ ## {k} ## ]]\n{v}" for k, v in fields.items()]
    return "\n\n".join([*parts, "[[ ## completed ## ]]"])


def test_chat_with_a_configured_model_via_stub_openai_server(make_client, settings, monkeypatch):
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    args = json.dumps({"start_latex": "2x + 3 = 9", "target_latex": "x = 3"})
    server, calls = _stub_openai_server([
        _fields(next_thought="Solve it with the tool.", next_tool_name="derive_proof_animation",
                next_tool_args=args),
        _fields(next_thought="Done.", next_tool_name="finish", next_tool_args="{}"),
        _fields(reasoning="The tool graded every step.", answer="x = 3, every step grounded."),
    ])  # fmt: skip
    try:
        configured = settings.replace(
            model="openai/stub-model",
            api_base=f"http://127.0.0.1:{server.server_address[1]}/v1",
            api_key="local",
        )
        client = make_client(configured)
        r = client.post("/api/chat", json={"message": "solve 2x + 3 = 9 for x"})
    finally:
        server.shutdown()
    assert r.status_code == 200, r.text
    body = r.json()
    assert len(calls) == 3 and calls[0]["model"] == "stub-model"
    assert body["tool_calls"] == 1 and body["answer"] == "x = 3, every step grounded."
    assert body["result"]["derivation"]["confidence"]["tier"] == "grounded"
