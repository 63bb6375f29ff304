"""A killed driver on Ray: each batch command runs in its own process, joined to a local Ray
instance, and is killed with SIGKILL (no handler runs) once a few inputs are stored. The rerun
takes those from the store and runs only the others: nothing is graded twice. Where the command
reports what it resumed, the counts say so; every stored row is also left exactly as it was (a
proof search or a review graded again would store a new time)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from veristep.cli import main

pytestmark = [pytest.mark.ray, pytest.mark.slow]
SEEDS = Path(__file__).parent / "data" / "alps_dev" / "order5_seeds.jsonl"


@dataclass
class Command:
    argv: Callable[[Path], list[str]]  # the command line, given the test's folder
    store: str  # the store file, in that folder
    table: str  # its table of finished inputs
    inputs: int
    rerun_counts: Callable[[str, str], tuple[int, int]] | None  # (resumed, run) from its output
    rerun_flag: tuple[str, ...] = ()


def _lines_report(command: str) -> Callable[[str, str], tuple[int, int]]:
    def counts(out: str, err: str) -> tuple[int, int]:
        line = next(x for x in err.splitlines() if x.startswith(f"veristep {command}: "))
        words = line.split()
        return int(words[2]), int(words[-2])  # "veristep check: K lines from DB, N done"

    return counts


def _screen_report(out: str, err: str) -> tuple[int, int]:
    summary = json.loads(out)
    return summary["resumed"], summary["screened_now"]


def _check_argv(folder: Path) -> list[str]:
    chains = [[f"{a}x + {a} = {3 * a}", "x + 1 = 3", "x = 2"] for a in range(2, 26)]
    source = folder / "in.jsonl"
    source.write_text("".join(json.dumps({"states": c}) + "\n" for c in chains))
    return ["check", "--jsonl", str(source), "--ray", "--store", str(folder / "run.sqlite")]


def _derive_argv(folder: Path) -> list[str]:
    source = folder / "tasks.jsonl"
    source.write_text("".join(json.dumps({"start": f"2x + {a} = {a + 8}"}) + "\n"
                              for a in range(1, 17)))  # fmt: skip
    return ["derive", "--batch", str(source), "--ray", "--store", str(folder / "run.sqlite")]


def _screen_argv(folder: Path) -> list[str]:
    source = folder / "seeds.jsonl"
    source.write_text("".join(SEEDS.read_text(encoding="utf-8").splitlines(True)[:12]))
    return ["alps", "screen", str(source), "--out", str(folder / "out.jsonl"), "--ray",
            "--timeout", "3", "--max-model-size", "3", "--completion-seconds", "0",
            "--no-progress"]  # fmt: skip


def _prove_argv(folder: Path) -> list[str]:
    names = "amc12b_2002_p2,aime_1989_p8,aime_1983_p1,aime_1983_p2,aime_1983_p3,aime_1984_p1"
    return ["prove", "--bench", "minif2f-rocq", "--names", names, "--json", "--ray",
            "--theorem-budget", "20", "--tactic-timeout", "3", "--n", "4",
            "--mcts-iterations", "0", "--out", str(folder / "run.jsonl")]  # fmt: skip


def _review_argv(folder: Path) -> list[str]:
    return ["review", "--bench", "prmbench", "--limit", "60", "--systems", "agent", "--json",
            "--ray", "--out", str(folder)]  # fmt: skip


COMMANDS = {
    "check --jsonl": Command(_check_argv, "run.sqlite", "results", 24, _lines_report("check")),
    "derive --batch": Command(_derive_argv, "run.sqlite", "results", 16, _lines_report("derive")),
    "alps screen": Command(_screen_argv, "out.sqlite", "laws", 12, _screen_report),
    "prove --bench": Command(_prove_argv, "run.sqlite", "results", 6, None, ("--resume",)),
    "review --bench": Command(
        _review_argv, "no-model/prmbench.sqlite", "results", 60, None, ("--resume",)
    ),
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_killed_driver_is_resumed_with_nothing_graded_twice(
    name, tmp_path, capsys, monkeypatch, ray_address
):
    _needs(name)
    command = COMMANDS[name]
    argv = command.argv(tmp_path)
    monkeypatch.delenv("VERISTEP_MODEL", raising=False)  # review: the agent's machine checks
    store = tmp_path / command.store
    driver = subprocess.Popen(
        [sys.executable, "-c", "from veristep.cli import entry; entry()", *argv],
        env={**os.environ, "RAY_ADDRESS": ray_address},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while (
            _stored(store, command.table) < 2
            and driver.poll() is None
            and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        driver.send_signal(signal.SIGKILL)
    finally:
        driver.kill()
        driver.wait()
    kept = _stored(store, command.table)
    assert 2 <= kept < command.inputs, "the driver must die mid-run"
    before = _rows(store, command.table)
    main([*argv, *command.rerun_flag])
    out, err = capsys.readouterr()
    if command.rerun_counts is not None:
        assert command.rerun_counts(out, err) == (kept, command.inputs - kept)
    assert _stored(store, command.table) == command.inputs
    assert before <= _rows(store, command.table)  # no stored row was graded again


def _needs(name: str) -> None:
    import shutil

    if name == "alps screen":
        from veristep.alps.provers import EProver

        if EProver("auto").unavailable():
            pytest.skip(EProver("auto").unavailable())
    if name == "prove --bench" and shutil.which("coqtop") is None:
        pytest.skip("coqtop is not installed")


def _rows(store: Path, table: str) -> set[tuple]:
    with sqlite3.connect(store) as db:
        return set(db.execute(f"SELECT * FROM {table}"))


def _stored(store: Path, table: str) -> int:
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store) as db:
            return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.OperationalError:  # the driver is still creating the table
        return 0
