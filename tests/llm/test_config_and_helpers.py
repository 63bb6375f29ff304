"""make_lm's model-string handling, the scripted DummyLM wrapper, and the usage log."""

from __future__ import annotations

import json

import dspy
import pytest

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.llm.config import OLLAMA_DEFAULT_BASE, make_lm, split_model
from veristep.llm.testing import scripted_lm
from veristep.llm.usage import CallUsage, UsageLog


def test_make_lm_takes_budgets_from_settings() -> None:
    settings = Settings().replace(
        lm_temperature=0.7, lm_max_tokens=123, lm_timeout_s=9.0, lm_num_retries=1
    )
    lm = make_lm("anthropic/claude-x", settings)
    assert lm.model == "anthropic/claude-x"
    assert (lm.kwargs["temperature"], lm.kwargs["max_tokens"], lm.kwargs["timeout"]) == (
        0.7,
        123,
        9.0,
    )
    assert lm.num_retries == 1 and lm.cache is False
    assert make_lm("anthropic/claude-x", settings.replace(lm_cache=True)).cache is True
    assert "api_key" not in lm.kwargs  # a hosted provider's key comes from its own env variable


def test_api_base_and_key_from_settings_and_arguments() -> None:
    settings = Settings().replace(api_base="http://127.0.0.1:9/v1", api_key="sk-from-settings")
    lm = make_lm("openai/local", settings)
    assert lm.kwargs["api_base"] == "http://127.0.0.1:9/v1"
    assert lm.kwargs["api_key"] == "sk-from-settings"
    lm = make_lm("openai/local", settings, api_base="http://127.0.0.1:10/v1", api_key="sk-arg")
    assert (lm.kwargs["api_base"], lm.kwargs["api_key"]) == ("http://127.0.0.1:10/v1", "sk-arg")


def test_ollama_gets_its_default_base_and_the_v1_suffix() -> None:
    assert make_lm("ollama_chat/llama3", Settings()).kwargs["api_base"] == OLLAMA_DEFAULT_BASE
    lm = make_lm("ollama_chat/llama3", Settings(), api_base="http://gpu-box:11434/")
    assert lm.kwargs["api_base"] == "http://gpu-box:11434/v1"


@pytest.mark.parametrize(
    ("model", "message", "hint"),
    [
        ("gpt-4o", "no provider prefix", "openai/gpt-4o"),
        ("opneai/gpt-4o", "unknown model provider 'opneai'", "openai/gpt-4o"),
        ("openai/", "needs both a provider and a name", None),
        ("/gpt", "needs both a provider and a name", None),
    ],
)
def test_bad_model_strings_are_located_input_errors(model, message, hint) -> None:
    with pytest.raises(InputError) as info:
        split_model(model)
    assert message in info.value.message and info.value.hint == hint


def test_unlisted_providers_are_not_refused() -> None:
    assert split_model("cerebras/llama-70b") == ("cerebras", "llama-70b")


def test_hosted_vllm_without_base_is_an_input_error() -> None:
    with pytest.raises(InputError, match="needs an api_base"):
        make_lm("hosted_vllm/qwen", Settings())


def test_scripted_lm_drives_predict_and_chain_of_thought_with_dummy_lm() -> None:
    lm = scripted_lm([{"answer": "4"}, {"reasoning": "2+2", "answer": "four"}])
    with dspy.context(lm=lm):
        assert dspy.Predict("question -> answer")(question="2+2?").answer == "4"
        cot = dspy.ChainOfThought("question -> answer")(question="2+2 in words?")
    assert (cot.reasoning, cot.answer) == ("2+2", "four")


def test_scripted_lm_explains_the_missing_reasoning_key() -> None:
    with pytest.raises(ValueError, match=r"response 1 has no 'reasoning' key: dspy.ChainOfThought"):
        scripted_lm([{"reasoning": "r", "answer": "a"}, {"answer": "b"}], chain_of_thought=True)
    with pytest.raises(ValueError, match="dict of output field names"):
        scripted_lm(["just a string"])  # type: ignore[list-item]


def test_usage_log_from_dummy_lm_history_counts_calls_without_price() -> None:
    lm = scripted_lm([{"answer": "1"}, {"answer": "2"}])
    log = UsageLog()
    with dspy.context(lm=lm):
        dspy.Predict("q -> answer")(q="before")  # outside the watch: not counted
        with log.watching(lm):
            dspy.Predict("q -> answer")(q="inside")
    totals = log.totals()
    assert totals["calls"] == 1 and totals["cost_usd"] is None and totals["unpriced_calls"] == 1
    assert log.add_history(lm.history) == 1  # the earlier call, once; the watched one is known


def test_usage_log_json_round_trip_and_cost_sum() -> None:
    log = UsageLog(
        [
            CallUsage("openai/gpt-4o-mini", 100, 10, 110, 0.25),
            CallUsage("openai/gpt-4o-mini", 50, 5, 55, 0.5),
        ]
    )
    data = json.loads(json.dumps(log.to_json()))
    again = UsageLog.from_json(data)
    assert again.calls == log.calls
    assert again.totals()["cost_usd"] == pytest.approx(0.75)
    assert again.totals()["total_tokens"] == 165
