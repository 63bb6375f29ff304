"""`veristep review` end to end: a proof file, bad input, and the OPC harness over a stub server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veristep.cli import main

PROOF = """# A small claim

We have $6 \\cdot 7 = 42$.

Hence, in total, there are $420 + 48 = 478$ seconds.
"""


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VERISTEP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("VERISTEP_MODEL", raising=False)
    monkeypatch.setenv("DSPY_CACHEDIR", str(tmp_path / "dspy-cache"))
    return tmp_path / "data"


def test_review_without_a_model_grounds_and_rejects_the_computational_error(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proof = tmp_path / "proof.md"
    proof.write_text(PROOF, encoding="utf-8")
    html = tmp_path / "out.html"
    assert main(["review", str(proof), "--json", "--html", str(html)]) == 0
    doc = json.loads(capsys.readouterr().out)
    steps = {s["id"]: s for s in doc["steps"]}
    assert steps["s1"]["state"] == "verified" and steps["s1"]["tier"] == "grounded"
    assert steps["s1"]["location"] == "3:1"
    assert steps["s2"]["state"] == "flawed" and "468" in steps["s2"]["flaw"]["witness"]
    assert doc["verdict"] == "rejected" and doc["calls"] == []
    assert Path(doc["trace_path"]).is_file()
    page = html.read_text(encoding="utf-8")
    assert 'data-step="s2"' in page and "verdict: rejected" in page


def test_review_with_the_problem_tries_claims_under_its_hypotheses(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problem, proof = tmp_path / "problem.md", tmp_path / "proof.md"
    problem.write_text("Let $a, b, c$ be positive reals such that $abc = 1$. Prove it.\n")
    proof.write_text("We prove the lemma $a^5 + b^5 + c^2 \\ge a + b + c$.\n\nHence it.\n")
    assert main(["review", str(proof), "--problem", str(problem), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    flaw = doc["steps"][0]["flaw"]
    assert doc["verdict"] == "rejected" and flaw["kind"] == "false_statement"
    assert flaw["witness"].startswith(
        "a = 1, b = 4/5, c = 5/4 (satisfies the problem's hypotheses)"
    )
    # Without the problem the same proof has no hypotheses to try the lemma under.
    assert main(["review", str(proof), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "undecided"
    assert main(["review", str(proof), "--problem", str(tmp_path / "none.md")]) == 2
    assert "problem file not found" in capsys.readouterr().err


def test_review_text_report_says_undecided_for_prose_without_a_model(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proof = tmp_path / "proof.md"
    proof.write_text("Let $p$ be prime. Then $p$ has no divisor other than $1$ and $p$.\n")
    assert main(["review", str(proof)]) == 0
    out = capsys.readouterr().out
    assert "○ OPEN" in out
    assert "verdict: undecided — no model configured: 2 step(s) left OPEN" in out


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("Let $x = 1. Then $x > 0$.\n", "unclosed math delimiter '$' on line 1"), ("", "no steps")],
)
def test_bad_proof_is_a_located_one_line_error(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str], text: str, fragment: str
) -> None:
    proof = tmp_path / "bad.md"
    proof.write_text(text, encoding="utf-8")
    assert main(["review", str(proof)]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_and_bad_options_exit_2(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "no-such-proof.md"]) == 2
    assert "proof file not found" in capsys.readouterr().err
    assert main(["review", str(data_dir.parent)]) == 2  # a folder is not "not found"
    err = capsys.readouterr().err
    assert "is a folder" in err and "not found" not in err
    assert main(["review", "--bench", "opc", "--systems", "agent,oracle"]) == 2
    assert "unknown system 'oracle'" in capsys.readouterr().err
    proof = data_dir.parent / "p.md"
    proof.write_text("Then the theorem holds.\n", encoding="utf-8")
    assert main(["review", str(proof), "--model", "gpt4"]) == 2
    assert "did you mean openai/gpt4?" in capsys.readouterr().err


def test_opc_harness_runs_end_to_end_against_the_openai_stub_server(
    tmp_path: Path,
    data_dir: Path,
    stub_server,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("VERISTEP_API_BASE", stub_server.api_base)
    monkeypatch.setenv("VERISTEP_API_KEY", "stub-key")
    out = tmp_path / "bench"
    args = ["review", "--bench", "opc", "--limit", "2", "--model", "openai/stub", "--out", str(out)]
    assert main(args) == 0
    table = capsys.readouterr().out
    for row in (
        "false-accept rate",
        "false-reject rate",
        "accuracy",
        "error-step localisation",
        "tokens / item",
    ):
        assert row in table
    assert all(name in table.splitlines()[1] for name in ("agent", "global", "sentence"))
    first = len(stub_server.requests)
    assert first > 0
    rows = [
        json.loads(x) for x in (out / "openai_stub" / "opc-agent.jsonl").read_text().splitlines()
    ]
    assert len(rows) == 2 and all(r["tokens"] > 0 for r in rows)
    assert {r["verdict"] for r in rows} <= {"accepted", "rejected", "undecided"}
    # Resume: nothing is asked again, and the metrics come out the same.
    assert main([*args, "--resume", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(stub_server.requests) == first
    assert doc["metrics"]["agent"]["n"] == 2 and set(doc["metrics"]) == {
        "agent",
        "global",
        "sentence",
    }


def test_review_with_a_model_over_http_saves_a_full_trace_openai_stub_server(
    tmp_path: Path,
    data_dir: Path,
    stub_server,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("VERISTEP_API_BASE", stub_server.api_base)
    monkeypatch.setenv("VERISTEP_API_KEY", "stub-key")
    proof = tmp_path / "proof.md"
    proof.write_text(
        "Suppose $\\sqrt{2} = p/q$ in lowest terms. Then $p^2 = 2q^2$, so $p$ is even.\n\n"
        "Hence we reach a contradiction with the choice of $p$ and $q$.\n",
        encoding="utf-8",
    )
    trace_path = tmp_path / "trace.json"
    argv = ["review", str(proof), "--model", "openai/stub", "--trace", str(trace_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "verdict: rejected — confirmed flaw in s3 (3:1): invalid_inference" in out
    assert "✓ VERIFIED  🔹 plausible" in out
    trace = json.loads(trace_path.read_text(encoding="utf-8"))
    assert [c["role"] for c in trace["calls"]] == ["elaborate"] * 3 + ["confirm"]
    assert all(c["ok"] and c["prompt_tokens"] > 0 for c in trace["calls"])
    assert trace["steps"][0]["elaborations"][0]["background"] == ["logic"]
    assert stub_server.requests[0]["temperature"] == 0.0
    # A finished trace resumed is not asked again.
    sent = len(stub_server.requests)
    assert main([*argv, "--resume"]) == 0
    assert len(stub_server.requests) == sent


def _dead_port() -> int:
    import socket

    with socket.socket() as sock:  # a port that nothing listens on
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_dead_model_endpoint_stops_at_once_with_a_model_unavailable_verdict(
    tmp_path: Path, data_dir: Path
) -> None:
    from veristep.core.settings import Settings
    from veristep.llm.config import make_lm
    from veristep.review.run import review_proof

    settings = Settings().replace(lm_num_retries=0)
    lm = make_lm("openai/stub", settings, api_base=f"http://127.0.0.1:{_dead_port()}/v1")
    path = tmp_path / "trace.json"
    proof = "First claim. Second claim. Third claim. Fourth claim."
    trace = review_proof(proof, lm=lm, trace_path=path)
    # One refused connection is enough: not "undecided — exhausted" after idle iterations.
    assert trace.verdict == "undecided"
    assert trace.reason.startswith("model unavailable: the model endpoint cannot be reached")
    assert len(trace.calls) == 1 and "refused" in trace.calls[0].error.lower()
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["verdict"] == "undecided" and saved["reason"] == trace.reason


def test_review_cli_against_a_dead_server_shows_the_model_error_and_exits_1(
    tmp_path: Path,
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("VERISTEP_API_BASE", f"http://127.0.0.1:{_dead_port()}/v1")
    monkeypatch.setenv("VERISTEP_API_KEY", "stub-key")
    proof = tmp_path / "proof.md"
    proof.write_text("First claim. Second claim.", encoding="utf-8")
    argv = ["review", str(proof), "--model", "openai/stub", "--trace", str(tmp_path / "t.json")]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert "verdict: undecided — model unavailable" in captured.out
    assert "model error (1×, elaborate): " in captured.out
    assert "refused" in captured.out.lower()
    assert "model unavailable" in captured.err and "--resume" in captured.err
    assert "Traceback" not in captured.err


def test_model_errors_reach_the_user_and_repeated_failures_stop_openai_stub_server(
    tmp_path: Path, data_dir: Path
) -> None:
    from veristep.core.settings import Settings
    from veristep.llm.config import make_lm
    from veristep.llm.stub_server import OpenAIStubServer
    from veristep.review.report import text_report
    from veristep.review.run import review_proof

    settings = Settings().replace(lm_num_retries=0)
    with OpenAIStubServer([], fail_with=500) as server:
        lm = make_lm("openai/stub", settings, api_base=server.api_base)
        trace = review_proof("First claim. Second claim.", lm=lm, settings=settings)
    # A server that answers but fails every call: three failures in a row, then stop.
    assert trace.reason.startswith("model unavailable: 3 model calls failed in a row")
    assert len(trace.calls) == 3
    report = text_report(trace)
    assert "model error (3×, elaborate): " in report
    assert "verdict: undecided — model unavailable" in report


def test_a_resumed_trace_asks_the_model_again_after_it_was_unavailable(
    tmp_path: Path, data_dir: Path, stub_server
) -> None:
    from veristep.core.settings import Settings
    from veristep.llm.config import make_lm
    from veristep.review.run import review_proof

    settings = Settings().replace(lm_num_retries=0)
    path = tmp_path / "trace.json"
    proof = "First claim. Second claim."
    dead = make_lm("openai/stub", settings, api_base=f"http://127.0.0.1:{_dead_port()}/v1")
    assert review_proof(proof, lm=dead, trace_path=path).reason.startswith("model unavailable")
    live = make_lm("openai/stub", settings, api_base=stub_server.api_base, api_key="k")
    trace = review_proof(proof, lm=live, trace_path=path, resume=True)
    assert trace.verdict == "accepted"
