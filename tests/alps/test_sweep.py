"""Portfolio sweep on the local process pool with the real E prover: ladder, resume, outputs."""

from __future__ import annotations

import json
from argparse import Namespace
from dataclasses import replace

import pytest

from veristep.alps.commands import run_sweep_command
from veristep.alps.selftest import SelftestFailed
from veristep.alps.sweep import Cell, CellResult, LocalBackend, SweepStore, run_ladder
from veristep.alps.sweep_report import write_outputs
from veristep.core.settings import Settings

pytestmark = pytest.mark.eprover
TRIVIAL = "x = y ◇ (z ◇ y)"
AUSTIN = "x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))"  # law 4916: saturates at once
CONFIGS = ["e/triv/auto", "e/sat/satauto"]


def test_ladder_resolves_rechecks_resumes_and_writes_table_and_plot(tmp_path):
    store = SweepStore(tmp_path / "s.sqlite", tmp_path / "certs")
    summary = run_ladder([TRIVIAL, AUSTIN], CONFIGS, [2, 5], store, LocalBackend(2), 1024, False)
    assert summary.ran == 4 and summary.reached == {2: 2, 5: 0}  # both left after the 2 s rung
    verdicts = {(r["law"], r["config"]): (r["verdict"], r["recheck"]) for r in store.rows()}
    assert verdicts[(TRIVIAL, "e/triv/auto")] == ("TRIVIAL", "judge: proof reproduced (8 s budget)")
    assert verdicts[(AUSTIN, "e/sat/satauto")] == (
        "AUSTIN",
        "judge: certified (E = {law}, 8 s budget)",
    )
    assert len(list((tmp_path / "certs").glob("*.json"))) == 4

    again = run_ladder([TRIVIAL, AUSTIN], CONFIGS, [2, 5], store, LocalBackend(2), 1024, False)
    assert again.ran == 0 and again.resumed == 4

    table = write_outputs(store, summary, tmp_path)
    assert "resolved 2/2 laws (100.0 %)" in table
    assert (tmp_path / "cumulative.svg").read_text().startswith("<svg")
    rows = [json.loads(line) for line in (tmp_path / "cells.jsonl").read_text().splitlines()]
    assert {r["verdict"] for r in rows} == {"TRIVIAL", "AUSTIN"}


def test_a_fresh_store_resumes_from_the_export_but_reruns_resolutions_for_their_certificate(
    tmp_path,
):
    export = tmp_path / "cells.jsonl"
    rows = [
        {"config": "e/triv/auto", "budget": 2, "verdict": "TRIVIAL", "secs": 0.1, "law": TRIVIAL},
        {
            "config": "e/sat/satauto",
            "budget": 2,
            "verdict": "",
            "secs": 2.0,
            "law": TRIVIAL,
            "status": "ResourceOut",
            "recheck": "",
        },
    ]
    lines = [json.dumps(r | {"status": r.get("status", "Unsatisfiable")}) for r in rows]
    # A wall-deadline timeout (a loaded machine) did not spend its CPU budget: never taken.
    lines.append(json.dumps(rows[1] | {"budget": 5, "status": "Timeout"}))
    export.write_text("\n".join([*lines, "{not json", '{"law": "x = y"}']) + "\n")
    store = SweepStore(tmp_path / "fresh.sqlite", tmp_path / "certs")
    assert store.seed_from_export(export) == 1  # the damaged lines and the resolution are not taken
    assert store.seed_from_export(export) == 0  # nor taken twice
    summary = run_ladder([TRIVIAL], CONFIGS, [2], store, LocalBackend(1), 1024, False)
    assert (summary.resumed, summary.ran) == (1, 1)
    late = CellResult(TRIVIAL, "e/sat/satauto", 9, "", "Timeout", 19.0, "", {})
    store.save(late)
    assert Cell(TRIVIAL, "e/sat/satauto", 9) not in store.done()  # it runs again on resume
    store.save(replace(late, status="ResourceOut"))
    assert Cell(TRIVIAL, "e/sat/satauto", 9) in store.done()
    verdicts = {r["config"]: (r["verdict"], r["status"]) for r in store.rows() if r["budget"] == 2}
    assert verdicts == {
        "e/triv/auto": ("TRIVIAL", "Theorem"),  # run again, not the export's status
        "e/sat/satauto": ("", "ResourceOut"),
    }


def test_sweep_command_refuses_when_selftest_fails(tmp_path, monkeypatch):
    from veristep.alps import selftest

    laws = tmp_path / "laws.jsonl"
    laws.write_text(json.dumps({"law": TRIVIAL}) + "\n")
    monkeypatch.setattr(
        selftest, "run_selftest", lambda prover=None: selftest.SelftestReport([], "broken")
    )
    args = Namespace(
        laws=[laws],
        out=tmp_path / "out",
        budgets="2",
        configs="e/triv/auto",
        limit=None,
        workers=1,
        ray=False,
        no_progress=True,
    )
    with pytest.raises(SelftestFailed):
        run_sweep_command(args, Settings(data_dir=tmp_path / "data"))
    assert not (tmp_path / "out" / "sweep.sqlite").exists()


def test_our_ordered_completion_resolves_the_worked_example_in_the_sweep(tmp_path):
    # Law 12857 (the paper's worked example): no E or Prover9 mode resolves it; our ordered
    # completion builds a presentation and the judge's checker re-certifies it from scratch.
    law = "x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)"
    store = SweepStore(tmp_path / "s.sqlite", tmp_path / "certs")
    configs = ["veristep/ordered"]
    summary = run_ladder([law, TRIVIAL], configs, [10], store, LocalBackend(2), 1024, False)
    assert summary.ran == 2
    rows = {r["law"]: r for r in store.rows()}
    assert rows[law]["verdict"] == "AUSTIN" and rows[law]["status"] == "Saturated"
    assert rows[law]["recheck"].startswith("judge: ground convergent")
    assert rows[TRIVIAL]["verdict"] == "TRIVIAL"  # a collapse it derived, re-proved by E
    assert rows[TRIVIAL]["recheck"].startswith("judge: proof reproduced")
    certs = [json.loads(p.read_text()) for p in (tmp_path / "certs").glob("*.json")]
    model = next(c for c in certs if c["law"] == law)
    assert len(model["presentation"]) > 20 and model["check"]["certified"]
    assert {c["config"] for c in certs} == {"veristep/ordered"}


def test_sigterm_exports_what_finished_and_a_fresh_clone_resumes_from_it(tmp_path):
    """A killed sweep leaves cells.jsonl and table.txt; without its database (a fresh clone,
    where the store is not versioned) the same command resumes from that export."""
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    residual = [  # three laws of the residual sample: E resolves none of them in 2 s
        "x = (((y ◇ (y ◇ z)) ◇ (y ◇ x)) ◇ (y ◇ y))",
        "x = ((((y ◇ ((x ◇ (x ◇ y)) ◇ z)) ◇ (y ◇ y)) ◇ x) ◇ y)",
        "x = ((((((y ◇ x) ◇ (x ◇ z)) ◇ x) ◇ y) ◇ y) ◇ y)",
    ]
    laws = tmp_path / "laws.jsonl"
    laws.write_text("".join(json.dumps({"law": t}) + "\n" for t in residual))
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "veristep.cli", "alps", "sweep", str(laws), "--out", str(out)]
    cmd += ["--budgets", "2", "--configs", "e/triv/auto", "--workers", "1", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def finished() -> int:
        try:
            with sqlite3.connect(f"file:{out / 'sweep.sqlite'}?mode=ro", uri=True) as db:
                return db.execute("SELECT count(*) FROM cells").fetchone()[0]
        except sqlite3.Error:
            return 0

    deadline = time.monotonic() + 120
    while finished() < 1 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "resume" in err and "cells.jsonl" in err, err
    exported = (out / "cells.jsonl").read_text().splitlines()
    assert 1 <= len(exported) < 3 and "ran" in (out / "table.txt").read_text()

    (out / "sweep.sqlite").unlink()  # what a fresh clone has: the export only
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["resumed"] == len(exported) and summary["ran"] == 3 - len(exported)


def test_an_ordered_completion_cell_that_spends_its_budget_is_finished_for_good(tmp_path):
    # Running out of its own CPU budget is ResourceOut, as for a prover, so a resumed sweep does
    # not run the cell again; only the wall deadline on a loaded machine is a Timeout.
    from veristep.alps.sweep import _ordered_status

    law = "x = (((y ◇ (y ◇ z)) ◇ (y ◇ x)) ◇ (y ◇ y))"  # a residual law: no model within 1 s
    store = SweepStore(tmp_path / "s.sqlite", tmp_path / "certs")
    summary = run_ladder([law], ["veristep/ordered"], [1], store, LocalBackend(1), 1024, False)
    assert summary.ran == 1
    (row,) = store.rows()
    # Which deadline fires first depends on the machine's load; what each one means does not.
    assert row["verdict"] == "" and row["status"] in ("ResourceOut", "Timeout")
    finished = Cell(law, "veristep/ordered", 1) in store.done()
    assert finished == (row["status"] == "ResourceOut")
    assert _ordered_status("budget", "30 s spent, 12 pairs left", 9.0, 30) == "Timeout"
    assert _ordered_status("budget", "30 s spent, 12 pairs left", 29.9, 30) == "ResourceOut"
    assert _ordered_status("budget", "more than 5000 equations", 3.0, 30) == "ResourceOut"
