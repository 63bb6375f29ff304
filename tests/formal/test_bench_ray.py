"""``prove --bench --ray`` on a local Ray instance: the same rows as the local pool, and a rerun
that takes every theorem from the result store (nothing proved twice)."""

from __future__ import annotations

import json

import pytest

from veristep.cli import main

pytestmark = [pytest.mark.ray, pytest.mark.coq, pytest.mark.slow]

NAMES = "amc12b_2002_p2,aime_1989_p8,aime_1983_p1"
SEARCH = ["--theorem-budget", "30", "--tactic-timeout", "3", "--n", "4", "--mcts-iterations", "0"]


def _bench(capsys, out, *extra: str) -> dict:
    argv = ["prove", "--bench", "minif2f-rocq", "--names", NAMES, "--json", *SEARCH]
    assert main([*argv, "--out", str(out), *extra]) == 0
    return json.loads(capsys.readouterr().out)


def _rows(out) -> dict[str, dict]:
    return {row["name"]: row for row in map(json.loads, out.read_text().splitlines())}


def _solved(rows: dict[str, dict]) -> dict[str, tuple[bool, bool]]:
    return {name: (r["portfolio_solved"], r["two_phase_solved"]) for name, r in rows.items()}


def test_prove_bench_on_ray_gives_the_local_rows_and_resumes_from_its_store(
    tmp_path, capsys, ray_backend
):
    local = _bench(capsys, tmp_path / "local.jsonl", "--workers", "2")
    on_ray = _bench(capsys, tmp_path / "ray.jsonl", "--ray")
    assert on_ray["systems"] == local["systems"] and on_ray["run"] == 3
    first = _rows(tmp_path / "ray.jsonl")
    assert _solved(first) == _solved(_rows(tmp_path / "local.jsonl"))
    assert _solved(first)["amc12b_2002_p2"] == (True, True)
    # Only the store is left: the resumed run takes every row from it, timings included.
    (tmp_path / "ray.jsonl").unlink()
    again = _bench(capsys, tmp_path / "ray.jsonl", "--ray", "--resume")
    assert again["systems"] == on_ray["systems"]
    assert _rows(tmp_path / "ray.jsonl") == first
