"""``prove --model``: the built-in tactics run before any model call, tokens are counted (also
for answers the agents cannot use), and VERISTEP_MODEL is honoured. The model is the local stub
server (a fake LLM speaking the OpenAI protocol); Coq is real."""

from __future__ import annotations

import json

import pytest

from veristep.cli import main
from veristep.llm.stub_server import OpenAIStubServer

pytestmark = pytest.mark.coq


def _prove(capsys, *argv: str) -> dict:
    code = main(["prove", *argv, "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    return json.loads(out)


def test_builtin_tactics_first_no_model_call_stub_server(capsys, monkeypatch) -> None:
    with OpenAIStubServer(lambda body: "unused") as server:
        monkeypatch.setenv("VERISTEP_MODEL", "openai/stub-model")  # no --model: the variable
        monkeypatch.setenv("VERISTEP_API_BASE", server.api_base)
        code = main(
            [
                "prove",
                "Theorem t : forall n : nat, n + 0 = n.",
                "--header",
                "Require Import Arith.",
                "--theorem-budget",
                "60",
            ]
        )
        out, _ = capsys.readouterr()
        assert code == 0 and "PROVED t by portfolio" in out
        assert "model: 0 requests (0 unusable), tokens: 0" in out  # the model was configured
        assert server.requests == []  # the portfolio proved it: the model was never asked


def test_model_asked_after_builtins_and_unusable_answers_cost_tokens_stub_server(
    capsys, monkeypatch
) -> None:
    with OpenAIStubServer(lambda body: "I cannot help with that.") as server:
        monkeypatch.setenv("VERISTEP_API_BASE", server.api_base)
        result = _prove(
            capsys,
            "Theorem f : forall n : nat, n = 0.",
            "--header",
            "Require Import Arith.",
            "--model",
            "openai/stub-model",
            "--n",
            "17",
            "--mcts-iterations",
            "0",
            "--theorem-budget",
            "120",
        )
        assert not result["solved"]
        assert server.requests  # asked once the built-in tactics had failed
        assert result["tokens"] > 0  # unparseable replies still cost tokens, and are counted
