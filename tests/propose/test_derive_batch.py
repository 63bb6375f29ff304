"""``derive --batch``: one derivation per line, in order, from the offline planner; bad lines
cost only themselves; a store makes a rerun resume."""

from __future__ import annotations

import json

from veristep.cli import main


def test_a_batch_derives_each_line_and_a_rerun_resumes(tmp_path, capsys) -> None:
    source = tmp_path / "tasks.jsonl"
    lines = ['{"id": "a", "start": "2x + 3 = 7"}', '{"start": 5}',
             '{"start": "x^2 - 5x + 6 = 0", "goal": "solve"}', "not json"]  # fmt: skip
    source.write_text("\n".join(lines) + "\n")
    store = str(tmp_path / "derived.sqlite")

    code = main(["derive", "--batch", str(source), "--store", store, "--workers", "2"])
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [r["line"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["id"] == "a" and rows[0]["states"][-1]["latex"].replace(" ", "") == "x=2"
    assert rows[0]["confidence"]["tier"] == "grounded"
    assert rows[1]["error"] == "input" and rows[3]["error"] == "input"
    assert rows[2]["confidence"]["tier"] == "grounded"
    assert "0 lines from" in err and "2 done" in err

    assert main(["derive", "--batch", str(source), "--store", store]) == 2
    out, err = capsys.readouterr()
    assert [json.loads(line) for line in out.splitlines()] == rows
    assert "2 lines from" in err and "0 done" in err


def test_start_and_batch_together_are_refused(tmp_path, capsys) -> None:
    (tmp_path / "t.jsonl").write_text('{"start": "x = 1"}\n')
    assert main(["derive", "x = 1", "--batch", str(tmp_path / "t.jsonl")]) == 2
    assert "not both" in capsys.readouterr().err
