"""``alps screen --ray`` and ``alps generate --ray`` on a local Ray instance: the same labels and
survivors as the local process pool, one SQLite store, and a rerun that resumes."""

from __future__ import annotations

import json

import pytest

from veristep.alps.generate import generate_order
from veristep.alps.screen import screen_many
from veristep.alps.stages import ScreenBudget
from veristep.alps.store import ScreenStore
from veristep.alps.terms import parse_law
from veristep.cli import main

pytestmark = [pytest.mark.ray, pytest.mark.eprover, pytest.mark.slow]

LAWS = [
    "x = y ◇ x",  # a finite model: HAS_FINITE_MODEL
    "x = y ◇ (z ◇ y)",  # TRIVIAL
    "x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))",  # AUSTIN_PROVEN (no finite model, saturates)
    "x = (y ◇ x) ◇ y",
]


def test_screen_on_ray_gives_the_local_labels_and_resumes(tmp_path, ray_backend, monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    budget = ScreenBudget(5.0, 1024, 4)
    local = ScreenStore(tmp_path / "local.sqlite")
    screen_many(LAWS, local, budget, "e/auto", 2, False)
    remote = ScreenStore(tmp_path / "ray.sqlite")
    first = screen_many(LAWS[:2], remote, budget, "e/auto", 2, False, ray_backend)
    assert sum(first.values()) == 2
    # A rerun over the whole file screens only what the first run did not finish.
    again = screen_many(LAWS, remote, budget, "e/auto", 2, False, ray_backend)
    assert sum(again.values()) == 2
    labels = {r["law"]: r["status"] for r in remote.export()}
    assert labels == {r["law"]: r["status"] for r in local.export()}
    assert len(labels) == len(LAWS) and "HAS_FINITE_MODEL" in labels.values()


def test_generate_on_ray_keeps_the_same_survivors_in_order(ray_backend):
    seeds = [parse_law("x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))"), parse_law("x = y ◇ (z ◇ (x ◇ y))")]
    here = generate_order(seeds, 2)
    there = generate_order(seeds, 2, backend=ray_backend)
    assert [str(s) for s in there.survivors] == [str(s) for s in here.survivors]
    assert there.candidates == here.candidates and here.survivors


def test_screen_command_takes_ray(tmp_path, capsys, monkeypatch, ray_backend):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    src = tmp_path / "laws.txt"
    src.write_text("\n".join(LAWS[:2]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    argv = ["alps", "screen", str(src), "--out", str(out), "--ray", "--timeout", "5"]
    assert main([*argv, "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["screened_now"] == 2 and summary["status"] == {"HAS_FINITE_MODEL": 1,
                                                                   "TRIVIAL": 1}  # fmt: skip
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
