"""DSPy programs over real HTTP to the local OpenAI-compatible stub server (no network)."""

from __future__ import annotations

import json
import re
import socket
import threading
import time

import dspy
import pytest

from veristep.core.settings import Settings
from veristep.llm.config import LOCAL_PLACEHOLDER_KEY, make_lm
from veristep.llm.testing import OpenAIStubServer, chat_reply
from veristep.llm.usage import UsageLog

SETTINGS = Settings().replace(lm_max_tokens=256, lm_num_retries=0, lm_timeout_s=5.0)


def test_predict_over_http_with_stub_server_returns_scripted_fields(monkeypatch) -> None:
    # An ambient OpenAI key must never be sent to a server the user named.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-real-secret")
    with OpenAIStubServer([chat_reply(answer="42")]) as server:
        lm = make_lm("openai/stub-model", SETTINGS, api_base=server.api_base)
        with dspy.context(lm=lm):
            result = dspy.Predict("question -> answer")(question="What is 6*7?")
    assert result.answer == "42"
    assert server.paths == ["/v1/chat/completions"]
    body = server.requests[0]
    assert body["model"] == "stub-model"
    assert body["max_completion_tokens"] == 256 and body["temperature"] == 0.0
    assert "What is 6*7?" in json.dumps(body["messages"])
    auth = server.headers[0]["authorization"]
    assert auth == f"Bearer {LOCAL_PLACEHOLDER_KEY}" and "sk-real-secret" not in auth


def test_chain_of_thought_over_http_with_stub_server() -> None:
    def reply(body: dict) -> str:
        # The reply depends on the request, proving the prompt really reached the server.
        question = json.dumps(body["messages"])
        answer = "x = 2 or x = -2" if "x^2 = 4" in question else "unknown"
        return chat_reply(reasoning="take square roots", answer=answer)

    with OpenAIStubServer(reply) as server:
        lm = make_lm("openai/stub-model", SETTINGS, api_base=server.api_base, api_key="sk-local")
        with dspy.context(lm=lm):
            result = dspy.ChainOfThought("question -> answer")(question="Solve x^2 = 4")
    assert (result.reasoning, result.answer) == ("take square roots", "x = 2 or x = -2")
    assert server.headers[0]["authorization"] == "Bearer sk-local"


def test_hosted_vllm_and_ollama_routes_with_stub_server() -> None:
    with OpenAIStubServer([chat_reply(answer="a"), chat_reply(answer="b")]) as server:
        vllm = make_lm("hosted_vllm/qwen", SETTINGS, api_base=server.api_base)
        base_without_v1 = server.api_base.removesuffix("/v1")
        ollama = make_lm("ollama_chat/llama3", SETTINGS, api_base=base_without_v1)
        for lm in (vllm, ollama):
            with dspy.context(lm=lm):
                dspy.Predict("question -> answer")(question="q")
    assert server.paths == ["/v1/chat/completions", "/v1/chat/completions"]
    assert (
        server.requests[0]["max_tokens"] == 256
        and "max_completion_tokens" not in server.requests[0]
    )
    assert server.requests[1]["model"] == "llama3"


def test_usage_is_recorded_per_call_with_stub_server() -> None:
    replies = [chat_reply(answer="one two three"), chat_reply(answer="four")]
    with OpenAIStubServer(replies) as server:
        stub = make_lm("openai/stub-model", SETTINGS, api_base=server.api_base)
        priced = make_lm("openai/gpt-4o-mini", SETTINGS, api_base=server.api_base)
        log = UsageLog()
        with log.watching(stub, priced):
            for lm in (stub, priced):
                with dspy.context(lm=lm):
                    dspy.Predict("question -> answer")(question="count")
    first, second = log.calls
    prompt_words = sum(len(m["content"].split()) for m in server.requests[0]["messages"])
    assert first.prompt_tokens == prompt_words
    assert first.completion_tokens == len(replies[0].split())
    assert first.cost_usd is None and second.cost_usd is not None and second.cost_usd > 0
    totals = json.loads(json.dumps(log.to_json()))["totals"]
    assert totals["calls"] == 2 and totals["unpriced_calls"] == 1
    assert totals["models"] == ["openai/gpt-4o-mini", "openai/stub-model"]
    assert totals["total_tokens"] == first.total_tokens + second.total_tokens


def test_unreachable_server_is_a_clear_error_not_a_hang() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    lm = make_lm("openai/stub-model", SETTINGS, api_base=f"http://127.0.0.1:{port}/v1")
    start = time.perf_counter()
    with pytest.raises(Exception, match=r"(?i)connect|refused") as info, dspy.context(lm=lm):
        dspy.Predict("question -> answer")(question="q")
    assert time.perf_counter() - start < 5
    assert isinstance(info.value, dspy.utils.exceptions.LMError)


def test_stalled_server_times_out_at_the_settings_deadline() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)  # accepts connections, never answers
        port = silent.getsockname()[1]
        lm = make_lm(
            "openai/stub-model",
            SETTINGS.replace(lm_timeout_s=1.0),
            api_base=f"http://127.0.0.1:{port}/v1",
        )
        start = time.perf_counter()
        with pytest.raises(Exception, match=r"(?i)time"), dspy.context(lm=lm):
            dspy.Predict("question -> answer")(question="q")
    assert time.perf_counter() - start < 4


def test_server_errors_surface_with_their_message() -> None:
    with OpenAIStubServer([]) as server:
        lm = make_lm("openai/stub-model", SETTINGS, api_base=server.api_base)
        with pytest.raises(Exception, match="no scripted responses left"), dspy.context(lm=lm):
            dspy.Predict("question -> answer")(question="q")
    assert len(server.requests) == 1  # num_retries=0: asked exactly once


def test_stub_server_serves_threads_concurrently() -> None:
    def echo_tag(body: dict) -> str:
        return chat_reply(answer=re.search(r"q\d\d", json.dumps(body["messages"])).group())

    with OpenAIStubServer(echo_tag) as s:
        lm = make_lm("openai/stub-model", SETTINGS, api_base=s.api_base)
        answers: dict[int, str] = {}

        def ask(i: int) -> None:
            with dspy.context(lm=lm):
                answers[i] = dspy.Predict("question -> answer")(question=f"q{i:02d}").answer

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    assert len(s.requests) == 6
    assert answers == {i: f"q{i:02d}" for i in range(6)}
