"""``check --jsonl --ray`` and ``derive --batch --ray`` on a local Ray instance (one, shared by the
module: Ray starts slowly): the same lines as the local pool, a rerun that resumes, and a task
whose Ray worker is killed run again."""

from __future__ import annotations

import json
import textwrap

import pytest

from veristep.cli import main

pytestmark = [pytest.mark.ray, pytest.mark.slow]

LINES = [
    {"id": "a", "states": ["2x + 2 = 6", "x + 1 = 3", "x = 2"]},
    {"id": "b", "states": ["x^2 - 1 = 0", "(x - 1)(x + 2) = 0"]},
    {"states": "not a list"},
]


def _lines(capsys, *argv: str) -> tuple[list[dict], str]:
    main(list(argv))
    out, err = capsys.readouterr()
    return [json.loads(line) for line in out.splitlines()], err


def _tiers(rows: list[dict]) -> list[object]:
    return [(r["line"], r.get("confidence", {}).get("tier", r.get("error"))) for r in rows]


def test_check_on_ray_gives_the_local_lines_and_resumes(tmp_path, capsys, ray_backend, monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(item) + "\n" for item in LINES))
    local, _ = _lines(capsys, "check", "--jsonl", str(source), "--workers", "2")
    store = str(tmp_path / "ray.sqlite")
    on_ray, err = _lines(capsys, "check", "--jsonl", str(source), "--ray", "--store", store)
    assert _tiers(on_ray) == _tiers(local) == [(1, "grounded"), (2, "refuted"), (3, "input")]
    assert "2 done" in err
    again, err = _lines(capsys, "check", "--jsonl", str(source), "--ray", "--store", store)
    assert again == on_ray and "2 lines from" in err and "0 done" in err


def test_derive_batch_on_ray_matches_the_local_pool(tmp_path, capsys, ray_backend, monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    source = tmp_path / "tasks.jsonl"
    source.write_text('{"start": "2x + 3 = 7"}\n{"start": "x^2 - 5x + 6 = 0"}\n')
    local, _ = _lines(capsys, "derive", "--batch", str(source), "--workers", "2")
    on_ray, _ = _lines(capsys, "derive", "--batch", str(source), "--ray")
    assert _tiers(on_ray) == _tiers(local) == [(1, "grounded"), (2, "grounded")]
    assert [r["states"][-1]["latex"] for r in on_ray] == [r["states"][-1]["latex"] for r in local]


_DIES_ONCE = textwrap.dedent(
    """
    import os, signal
    from pathlib import Path

    def dies_once(task, context):
        mark = Path(context, f"died-{task}")
        if not mark.exists():
            mark.write_text("")
            os.kill(os.getpid(), signal.SIGKILL)
        return {"ok": task}
    """
)


def test_a_killed_ray_worker_s_task_runs_again(tmp_path, ray_backend, monkeypatch):
    import sys

    from veristep.core.batch import ResultStore, run_batch

    folder = tmp_path / "mods"
    folder.mkdir()
    (folder / "ray_dies_once.py").write_text(_DIES_ONCE)
    monkeypatch.syspath_prepend(str(folder))
    import ray_dies_once
    from ray import cloudpickle

    cloudpickle.register_pickle_by_value(ray_dies_once)  # Ray's workers cannot import it

    try:
        summary = run_batch(
            ray_dies_once.dies_once, [1, 2], ResultStore(), ray_backend, context=str(tmp_path)
        )
    finally:
        sys.modules.pop("ray_dies_once", None)
    assert summary.results == {0: {"ok": 1}, 1: {"ok": 2}}
    assert sorted(p.name for p in tmp_path.glob("died-*")) == ["died-1", "died-2"]
