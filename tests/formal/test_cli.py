"""``veristep prove``: statements, --check, resumable benchmarks; exit codes, one-line errors."""

from __future__ import annotations

import json

import pytest

from veristep.cli import main


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["prove", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_missing_target_is_a_usage_error(capsys) -> None:
    code, _, err = _run(capsys, "--theorem-budget", "5")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_statement_without_theorem_is_a_located_error(capsys) -> None:
    code, out, err = _run(capsys, "forall n : nat, n = n.")
    assert code == 2 and out == ""
    assert "expected 'Theorem NAME : STATEMENT.'" in err and len(err.strip().splitlines()) == 1


def test_unknown_benchmark_name_suggests_the_closest(capsys) -> None:
    code, _, err = _run(capsys, "--check", __file__, "--expect", "aime_1983_p01")
    assert code == 2 and "did you mean aime_1983_p1" in err


def test_check_missing_file(capsys) -> None:
    code, _, err = _run(capsys, "--check", "no/such/file.v")
    assert code == 2 and "file not found" in err


def test_bad_tactic_timeout(capsys) -> None:
    code, _, err = _run(capsys, "Theorem a : True.", "--tactic-timeout", "0")
    assert code == 2 and "--tactic-timeout" in err


@pytest.mark.coq
def test_check_accepts_and_rejects(capsys, tmp_path) -> None:
    good = tmp_path / "good.v"
    good.write_text(
        "Require Import Arith Lia.\nTheorem g : forall n : nat, n + 0 = n.\n"
        "Proof. intros; lia. Qed.\n"
    )
    code, out, _ = _run(capsys, "--check", str(good), "--json")
    assert code == 0 and json.loads(out)["accepted"] is True
    bad = tmp_path / "bad.v"
    bad.write_text(
        "Axiom magic : forall P : Prop, P.\nTheorem b : 1 = 2.\nProof. apply magic. Qed.\n"
    )
    code, out, _ = _run(capsys, "--check", str(bad))
    assert code == 0 and out.startswith("REJECTED") and "Axiom" in out


@pytest.mark.coq
def test_prove_statement_json(capsys) -> None:
    code, out, _ = _run(
        capsys,
        "Theorem t : forall a b : nat, a < b -> a + 1 <= b.",
        "--header",
        "Require Import Arith.",
        "--json",
        "--theorem-budget",
        "20",
    )
    result = json.loads(out)
    assert code == 0 and result["solved"] and result["phase"] == "portfolio"
    assert result["coq_calls"] >= 2  # the candidate and the strict coqc confirmation


@pytest.mark.coq
def test_statement_coq_rejects_is_an_input_error(capsys) -> None:
    code, out, err = _run(capsys, "Theorem t : undefined_thing = 1.", "--theorem-budget", "5")
    assert code == 2 and out == ""
    assert "undefined_thing" in err and len(err.strip().splitlines()) == 1


@pytest.mark.coq
def test_bench_run_is_resumable(capsys, tmp_path) -> None:
    out_file = tmp_path / "run.jsonl"
    args = [
        "--bench",
        "minif2f-rocq",
        "--names",
        "amc12b_2002_p2,aime_1989_p8",
        "--json",
        "--theorem-budget",
        "15",
        "--tactic-timeout",
        "3",
        "--out",
        str(out_file),
    ]
    code, out, _ = _run(capsys, *args, "--resume")
    summary = json.loads(out)
    assert code == 0 and summary["run"] == 2
    assert summary["systems"]["portfolio"]["solved"] == 2
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert {r["name"] for r in rows} == {"amc12b_2002_p2", "aime_1989_p8"}
    assert all(r["two_phase_solved"] and r["proof"] for r in rows)
    code, out, _ = _run(capsys, *args, "--resume")  # nothing left to do: no new lines
    assert code == 0 and len(out_file.read_text().splitlines()) == 2
