"""``check --jsonl`` on the batch engine: a store makes a rerun resume (a graded line is not
graded again, a changed one is), worker processes give the same lines as one process, and a
driver killed half-way loses nothing it had finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from veristep.cli import main

LINES = [
    {"id": "a", "states": ["2x + 2 = 6", "x + 1 = 3", "x = 2"]},
    {"id": "b", "states": ["x^2 - 1 = 0", "(x - 1)(x + 2) = 0"]},
    {"states": "not a list"},
    {"id": "d", "states": ["3x = 9", "x = 3"]},
]


def _write(path: Path, items: list[dict]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items))
    return path


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict], str]:
    code = main(["check", "--jsonl", *argv])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def _verdicts(rows: list[dict]) -> list[object]:
    return [
        (r["line"], r.get("id"), r.get("confidence", {}).get("tier", r.get("error"))) for r in rows
    ]


def test_a_rerun_resumes_and_grades_only_a_changed_line(tmp_path, capsys) -> None:
    source, store = _write(tmp_path / "in.jsonl", LINES), str(tmp_path / "results.sqlite")
    code, first, err = _check(capsys, str(source), "--store", store)
    assert code == 2  # the bad line, reported on its own line
    assert _verdicts(first) == [
        (1, "a", "grounded"), (2, "b", "refuted"), (3, None, "input"), (4, "d", "grounded")
    ]  # fmt: skip
    assert "0 lines from" in err and "3 done" in err

    code, again, err = _check(capsys, str(source), "--store", store)
    assert again == first and "3 lines from" in err and "0 done" in err

    changed = [*LINES[:3], {"id": "d", "states": ["3x = 9", "x = 4"]}]
    code, third, err = _check(capsys, str(_write(source, changed)), "--store", store)
    assert third[:3] == first[:3] and third[3]["confidence"]["tier"] == "refuted"
    assert "2 lines from" in err and "1 done" in err


def test_worker_processes_give_the_same_lines_as_one_process(tmp_path, capsys) -> None:
    source = _write(tmp_path / "in.jsonl", LINES)
    _, alone, _ = _check(capsys, str(source))
    _, pooled, _ = _check(capsys, str(source), "--workers", "2")
    assert _verdicts(pooled) == _verdicts(alone)
    strip = [{k: v for k, v in r.items() if k not in ("steps", "states")} for r in pooled]
    assert strip == [{k: v for k, v in r.items() if k not in ("steps", "states")} for r in alone]


def test_a_killed_driver_keeps_what_finished_and_a_rerun_grades_the_rest(tmp_path) -> None:
    items = [{"id": n, "states": [f"{n}x = {2 * n}", "x = 2"]} for n in range(1, 13)]
    source, store = _write(tmp_path / "in.jsonl", items), str(tmp_path / "results.sqlite")
    argv = [sys.executable, "-m", "veristep.cli", "check", "--jsonl", str(source)]
    argv += ["--store", store, "--workers", "2"]
    driver = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert driver.stdout is not None
    first_line = driver.stdout.readline()  # one result is out: it is stored
    os.killpg(driver.pid, signal.SIGKILL)  # the driver and its workers, no clean-up at all
    driver.wait(timeout=30)
    assert json.loads(first_line)["line"] == 1

    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["confidence"]["tier"] for r in rows] == ["grounded"] * 12
    resumed = int(done.stderr.split(" lines from")[0].rsplit(" ", 1)[-1])
    graded = int(done.stderr.split(", ")[-1].split(" done")[0])
    assert resumed >= 1 and resumed + graded == 12  # nothing graded twice
