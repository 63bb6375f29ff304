"""LLM harness under ALPS's protocol: scripted DummyLM, and the real HTTP path to a local
OpenAI-compatible stub server. The judge behind both is the real one (E prover for E)."""

from __future__ import annotations

import json
from argparse import Namespace

import dspy
import pytest

from veristep.alps.harness import evaluate, run_eval_command, solve_law, summarize, waypoints
from veristep.alps.judge import JudgeConfig
from veristep.alps.terms import parse_law
from veristep.core.settings import Settings
from veristep.llm.config import make_lm
from veristep.llm.testing import OpenAIStubServer, chat_reply, scripted_lm

LAW = parse_law("x = y ◇ (z ◇ y)")
GOOD = '{"chain": ["a", "a ◇ (a ◇ a)", "b"]}'
BAD = '{"chain": ["a", "b"]}'
CFG = JudgeConfig(timeout_s=10, memory_mb=1024)


def _prompt_text(entry: dict) -> str:
    return "\n".join(str(m.get("content")) for m in entry["messages"])


def test_dummy_lm_solves_on_round_two_with_verbatim_feedback():
    lm = scripted_lm([{"submission": BAD}, {"submission": "Here it is: " + GOOD}])
    rows = solve_law(LAW, "chain", lm, "dummy", CFG, rounds=3)
    assert [(r.round, r.verdict) for r in rows] == [(1, "rejected"), (2, "accepted")]
    # The judge's message of round 1 is the feedback of round 2, verbatim.
    assert rows[0].feedback in _prompt_text(lm.history[1])
    assert _prompt_text(lm.history[0]).split("[[ ## feedback ## ]]")[-1].strip().startswith("none")


def test_dummy_lm_failing_three_rounds_counts_as_unsolved_and_pass_at_1_averages_runs():
    lm = scripted_lm([{"submission": BAD}] * 3 + [{"submission": GOOD}])
    rows = solve_law(LAW, "chain", lm, "dummy", CFG, rounds=3, run=0)
    rows += solve_law(LAW, "chain", lm, "dummy", CFG, rounds=3, run=1)
    assert [r.verdict for r in rows] == ["rejected"] * 3 + ["accepted"]
    summary = summarize(rows, "dummy", "chain")
    assert (summary.solved, summary.pass_at_1) == (1, 0.5)


def test_unparseable_model_reply_is_a_failed_round_not_a_crash():
    # DSPy retries a failed parse with its JSON adapter, which may consume more of the script:
    # the point is that every round yields a row and the loop goes on.
    lm = scripted_lm([{"nonsense": "x"}] * 4)
    rows = solve_law(LAW, "chain", lm, "dummy", CFG, rounds=2)
    assert [r.round for r in rows] == [1, 2]
    assert rows[0].verdict == "invalid" and rows[0].feedback.startswith("no answer:")


@pytest.mark.eprover
def test_construction_channel_over_http_stub_server_records_tokens(tmp_path):
    law = parse_law("x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))")
    replies = [
        chat_reply(submission='{"E": ["x ◇ y = x"]}'),
        chat_reply(submission=json.dumps({"E": [str(law)]}, ensure_ascii=False)),
    ]
    with OpenAIStubServer(replies) as server:
        lm = make_lm("openai/stub-model", Settings(), api_base=server.api_base, cache=False)
        out = tmp_path / "rows.jsonl"
        summary = evaluate([law], "construction", lm, "openai/stub-model", CFG, out, progress=False)
        assert len(server.requests) == 2
        assert "correctness(E|-law)=False, nonvacuity(E+a!=b sat)=True" in json.dumps(
            server.requests[1], ensure_ascii=False
        )
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["verdict"] for r in rows] == ["rejected", "accepted"]
    assert all(r["completion_tokens"] > 0 and r["prompt_tokens"] > 0 for r in rows)
    assert summary.pass_at_1 == 1.0 and summary.tokens_per_law > 0
    # The stub model has no price: the cost is "unpriced", never a made-up 0.0.
    assert all(r["cost"] is None for r in rows)
    assert summary.to_json()["cost"] == "unpriced" and summary.unpriced_rounds == 2


@pytest.mark.eprover
def test_waypoints_come_from_e_proof_of_triviality():
    hints = waypoints(parse_law("x = (((w ◇ y) ◇ (((x ◇ y) ◇ z) ◇ x)) ◇ y)"), timeout_s=20)
    assert hints == ["((x ◇ y) ◇ z) ◇ y = y"]


def test_eval_command_refuses_without_a_model(tmp_path):
    from veristep.core.errors import InputError

    laws = tmp_path / "l.jsonl"
    laws.write_text('{"law": "x = y ◇ z"}\n')
    args = Namespace(
        laws=laws,
        channel="chain",
        model=None,
        api_base=None,
        runs=1,
        rounds=3,
        waypoints=False,
        limit=None,
        timeout=None,
        out=tmp_path / "o.jsonl",
        no_progress=True,
    )
    with pytest.raises(InputError, match="no model"):
        run_eval_command(args, Settings(data_dir=tmp_path))
    laws.write_text("\n")  # a file with no law is an input error, not "0 laws evaluated"
    args.model = "openai/stub-model"
    with pytest.raises(InputError, match="no law to evaluate"):
        run_eval_command(args, Settings(data_dir=tmp_path))


def test_context_is_not_leaked():
    assert dspy.settings.lm is None


def test_summary_sums_priced_rounds_and_counts_unpriced_ones():
    from veristep.alps.harness import Row, summarize

    rows = [Row("x = y ◇ z", "m", "chain", 0, i, "", "rejected", "") for i in (1, 2)]
    rows[0].cost = 0.002
    summary = summarize(rows, "m", "chain")
    assert summary.cost == 0.002 and summary.unpriced_rounds == 1
    assert summary.to_json()["cost"] == 0.002
