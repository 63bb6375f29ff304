"""Regression tests for the LLM paths of ``derive`` found by running a real small model by hand.

Each case is shown with DSPy's DummyLM or the local OpenAI-compatible stub server (both fakes of a
model; the HTTP path, DSPy, LiteLLM and grounding are real). A server that is "down" is a closed
port on 127.0.0.1, a slow one is the stub server sleeping before it answers.
"""

from __future__ import annotations

import socket
import time

import pytest
from dspy.utils.dummies import DummyLM

from veristep.cli import main
from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.llm.config import make_lm
from veristep.llm.testing import OpenAIStubServer, chat_reply
from veristep.propose import derive
from veristep.propose.hybrid import HybridProposer
from veristep.propose.llm.proposer import LLMProposer
from veristep.propose.llm.trajectory import parse_trajectory

SETTINGS = Settings(step_timeout_s=5.0, cas_timeout_s=3.0, lm_num_retries=0, lm_timeout_s=20)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _down_server_proposer() -> LLMProposer:
    base = f"http://127.0.0.1:{_closed_port()}/v1"
    return LLMProposer(make_lm("hosted_vllm/down", SETTINGS, api_base=base), "hosted_vllm/down")


def _answer(trajectory: str) -> dict[str, str]:
    return {"reasoning": "one move at a time", "trajectory": trajectory}


def test_hybrid_falls_back_to_the_offline_planner_when_the_server_is_down_stub() -> None:
    hybrid = HybridProposer(_down_server_proposer(), SETTINGS)
    d = derive("2x + 1 = 7", "x = 3", proposer=hybrid, settings=SETTINGS)
    note = d.proposer["note"]
    assert "cannot reach the model server" in note and "offline symbolic planner" in note
    assert d.steps and d.endpoint.reached
    assert all(s.tier >= Tier.VERIFIED for s in d.steps)
    assert d.proposer["kind"] == "hybrid" and d.proposer["usage"]["calls"] == 0


def test_llm_with_the_server_down_is_never_graded_grounded_stub() -> None:
    d = derive("2x + 1 = 7", "x = 3", proposer=_down_server_proposer(), settings=SETTINGS)
    assert d.steps == [] and not d.endpoint.reached
    assert d.confidence.tier is not Tier.GROUNDED
    assert "cannot reach the model server at http://127.0.0.1:" in d.proposer["note"]
    assert "VERISTEP_API_BASE" in d.proposer["note"]


def test_an_unreadable_reply_costs_one_request_and_its_tokens_are_counted_stub() -> None:
    # Not in DSPy's field format: DSPy's JSON-adapter fallback would ask the model a second time.
    reply = "I think the answer is x = 3 but I am not sure how to format it."
    with OpenAIStubServer([reply, reply]) as server:
        settings = SETTINGS.replace(api_base=server.api_base)
        d = derive("2x + 1 = 7", "x = 3", proposer="llm", model="hosted_vllm/stub-model",
                   settings=settings)  # fmt: skip
    assert len(server.requests) == 1
    usage = d.proposer["usage"]
    assert usage["calls"] == 1 and usage["total_tokens"] > 0 and usage["completion_tokens"] > 0
    assert "unreadable model output" in d.proposer["note"]


def test_a_reply_outside_dspy_fields_is_still_read_stub() -> None:
    # A small model often writes the step blocks without DSPy's [[ ## field ## ]] markers.
    reply = "STEP 1\noperation: subtract 1\nexpr: 2x = 6\njustification: same on both sides\n"
    reply += "STEP 2\noperation: halve\nexpr: x = 3\njustification: divide by 2\n"
    with OpenAIStubServer([reply]) as server:
        settings = SETTINGS.replace(api_base=server.api_base)
        d = derive("2x + 1 = 7", "x = 3", proposer="llm", model="hosted_vllm/stub-model",
                   settings=settings)  # fmt: skip
    assert len(server.requests) == 1
    assert [s.expr_latex for s in d.steps] == ["2x = 6", "x = 3"] and d.endpoint.reached


def test_a_slow_server_gives_a_timeout_message_naming_the_setting_stub() -> None:
    def slow(body: dict) -> str:
        time.sleep(4)
        return chat_reply(reasoning="late", trajectory="STEP 1\nexpr: x = 3")

    with OpenAIStubServer(slow) as server:
        settings = SETTINGS.replace(api_base=server.api_base, lm_timeout_s=1.0)
        d = derive("2x + 1 = 7", "x = 3", proposer="llm", model="hosted_vllm/stub-model",
                   settings=settings)  # fmt: skip
    note = d.proposer["note"]
    assert "did not answer within 1 s" in note and "VERISTEP_LM_TIMEOUT" in note
    assert "Timeouts(" not in note
    assert d.steps == [] and d.confidence.tier is not Tier.GROUNDED


def test_max_tokens_timeout_and_retries_come_from_the_environment() -> None:
    env = {"VERISTEP_MAX_TOKENS": "256", "VERISTEP_LM_TIMEOUT": "30", "VERISTEP_LM_RETRIES": "0"}
    settings = Settings.from_env(env)
    lm = make_lm("hosted_vllm/m", settings, api_base="http://127.0.0.1:1/v1")
    assert (lm.kwargs["max_tokens"], lm.kwargs["timeout"], lm.num_retries) == (256, 30.0, 0)
    with pytest.raises(InputError, match="VERISTEP_MAX_TOKENS"):
        Settings.from_env({"VERISTEP_MAX_TOKENS": "lots"})


def test_max_tokens_reaches_a_local_server_as_max_tokens_stub() -> None:
    # llama.cpp's server ignores max_completion_tokens (what openai/ sends), not max_tokens.
    with OpenAIStubServer([chat_reply(reasoning="r", trajectory="STEP 1\nexpr: x = 3")]) as server:
        settings = SETTINGS.replace(api_base=server.api_base, lm_max_tokens=123)
        derive("2x + 1 = 7", "x = 3", proposer="llm", model="hosted_vllm/stub-model",
               settings=settings)  # fmt: skip
    assert server.requests[0].get("max_tokens") == 123


@pytest.mark.parametrize("proposer", ["llm", "hybrid"])
def test_no_model_is_said_at_once_before_the_input_is_read(
    proposer: str, monkeypatch, capsys
) -> None:
    monkeypatch.delenv("VERISTEP_MODEL", raising=False)
    assert main(["derive", r"\frac{", "x = 1", "--proposer", proposer]) == 2
    err = capsys.readouterr().err
    assert "needs a model" in err and "VERISTEP_MODEL" in err and "frac" not in err


def test_prose_after_expr_is_not_glued_so_a_wrong_step_is_refuted_dummylm() -> None:
    trajectory = (
        "STEP 1\noperation: subtract 1\nexpr: 2x = 5 which follows by subtracting 1\n"
        "This is because 7 - 1 = 5.\njustification: subtract 1 from both sides\n"
        "change_type: rewrite\n"
    )
    proposer = LLMProposer(DummyLM([_answer(trajectory)]), "dummy")
    d = derive("2x + 1 = 7", "2x = 5", proposer=proposer, settings=SETTINGS)
    (step,) = d.steps
    assert step.expr_latex == "2x = 5"
    assert step.tier is Tier.REFUTED


def test_prose_is_cut_but_mathematics_with_words_is_kept() -> None:
    text = (
        "STEP 1\nexpr: $x = 3$, as required\n"
        "STEP 2\nexpr: \\sin x = \\cos x \\text{ for all } x\n"
        "STEP 3\nexpr: x = 2 or x = 3 by the quadratic formula\n"
    )
    first, second, third = (s.expr_latex for s in parse_trajectory(text))
    assert first == "x = 3"
    assert second == "\\sin x = \\cos x \\text{ for all } x"
    assert third == "x = 2 or x = 3 by the quadratic formula"  # a logical word: left whole


def test_the_judge_asks_once_and_a_dead_server_is_no_opinion_stub() -> None:
    from veristep.propose.llm.judge import PedagogyJudge

    proposer = LLMProposer(DummyLM([_answer("STEP 1\nexpr: 2x = 6\nSTEP 2\nexpr: x = 3")]), "d")
    d = derive("2x + 1 = 7", "x = 3", proposer=proposer, settings=SETTINGS)
    with OpenAIStubServer(["no fields here, just chatter"]) as server:
        lm = make_lm("hosted_vllm/stub-model", SETTINGS, api_base=server.api_base)
        assert PedagogyJudge(lm)(d)[0] == 0.5
    assert len(server.requests) == 1  # no second, JSON-adapter request
    down = make_lm("hosted_vllm/down", SETTINGS, api_base=f"http://127.0.0.1:{_closed_port()}/v1")
    score, comment = PedagogyJudge(down)(d)
    assert score == 0.5 and comment.startswith("judge unavailable: cannot reach the model server")
