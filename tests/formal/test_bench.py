"""Benchmark bookkeeping: loading, resume after a torn line, summaries (a fake solver, no Coq)."""

from __future__ import annotations

import json

from veristep.formal.backends.base import Theorem
from veristep.formal.bench import done_names, load_minif2f, run_benchmark, summarize
from veristep.formal.search import SearchResult


def test_minif2f_test_split_has_239_compiling_statements() -> None:
    theorems = load_minif2f("test")
    assert len(theorems) == 239
    assert len(load_minif2f("test", only_compiling=False)) == 244
    valid = {t.name: t for t in load_minif2f("valid")}
    # The one header that declares its own Parameter/Axiom: those are allowlisted for it.
    assert valid["amc12a_2016_p3"].allowed_axioms == frozenset({"Rfloor", "Rfloor_spec"})


def _fake_solver(solved: set[str]):
    def solve(theorem: Theorem) -> SearchResult:
        ok = theorem.name in solved
        phase = ("portfolio" if theorem.name.endswith("0") else "mcts") if ok else None
        failures = {} if ok else {"tactic": 3, "type": 1}
        return SearchResult(
            theorem.name, ok, phase, "lia." if ok else None, 4, 0.5, failures=failures
        )

    return solve


def test_fake_solver_resume_and_summary(tmp_path) -> None:
    theorems = [Theorem(f"t{i}", "", f"Theorem t{i} : True.") for i in range(6)]
    out = tmp_path / "run.jsonl"
    solve = _fake_solver({"t0", "t1", "t3"})
    run_benchmark(theorems[:3], solve, out)
    with out.open("a") as handle:
        handle.write('{"name": "t9", "sol')  # a torn line from a killed run
    assert done_names(out) == {"t0", "t1", "t2"}
    new = run_benchmark(theorems, solve, out, resume=True)
    assert [r["name"] for r in new] == ["t3", "t4", "t5"]
    rows = [json.loads(x) for x in out.read_text().splitlines() if x.endswith("}")]
    summary = summarize(rows, total=6)
    assert summary["systems"]["portfolio"]["solved"] == 1
    assert summary["systems"]["two_phase"]["solved"] == 3
    assert summary["unsolved_by_dominant_signal"] == {"tactic": 3}


def test_a_theorem_whose_search_raises_costs_only_its_own_row(tmp_path) -> None:
    theorems = [Theorem(f"t{i}", "", f"Theorem t{i} : True.") for i in range(3)]
    fine = _fake_solver({"t0", "t2"})

    def solve(theorem: Theorem) -> SearchResult:
        if theorem.name == "t1":
            raise RuntimeError("coqtop went away")
        return fine(theorem)

    out = tmp_path / "run.jsonl"
    rows = {r["name"]: r for r in run_benchmark(theorems, solve, out, resume=False)}
    assert rows["t1"]["two_phase_solved"] is False and "coqtop went away" in rows["t1"]["error"]
    assert rows["t0"]["two_phase_solved"] and rows["t2"]["two_phase_solved"]
    summary = summarize([json.loads(x) for x in out.read_text().splitlines()], total=3)
    assert summary["systems"]["two_phase"]["solved"] == 2
    assert summary["unsolved_by_dominant_signal"] == {"error": 1}


def test_a_rerun_takes_finished_theorems_from_the_store(tmp_path) -> None:
    theorems = [Theorem(f"t{i}", "", f"Theorem t{i} : True.") for i in range(3)]
    out = tmp_path / "run.jsonl"
    first = run_benchmark(theorems, _fake_solver({"t0"}), out, resume=False)
    out.unlink()  # the JSONL is lost; the store beside it is not

    def must_not_run(theorem: Theorem) -> SearchResult:
        raise AssertionError(f"{theorem.name} was proved twice")

    again = run_benchmark(theorems, must_not_run, out, resume=True)
    assert sorted(again, key=lambda r: r["name"]) == sorted(first, key=lambda r: r["name"])
