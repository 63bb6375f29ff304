"""``veristep alps ...`` through the real dispatcher."""

from __future__ import annotations

import json

import pytest

from veristep.cli import main


def test_id_prints_the_etp_number_and_dual(capsys):
    assert main(["alps", "id", "x = y*((x*(y*(z*z)))*y)", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row == {
        "id": 12857,
        "law": "x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)",
        "order": 5,
        "dual_id": 33436,
    }


def test_bad_law_is_a_located_one_line_error(capsys):
    assert main(["alps", "id", "x = y + z"]) == 2
    err = capsys.readouterr().err
    assert "column 7" in err and len(err.strip().splitlines()) == 1


def test_screen_rejects_a_missing_file_and_unknown_prover(tmp_path, capsys):
    assert main(["alps", "screen", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "o")]) == 2
    src = tmp_path / "in.jsonl"
    src.write_text('{"law": "x = y ◇ z"}\n')
    args = ["alps", "screen", str(src), "--out", str(tmp_path / "o.jsonl"), "--prover", "vampyre"]
    assert main(args) == 2
    assert "unknown prover" in capsys.readouterr().err


def test_screen_reports_bad_json_lines_with_their_line_number(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text('{"law": "x = y ◇ z"}\n{"law": 3\n')
    assert main(["alps", "screen", str(src), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert ":2:" in capsys.readouterr().err


@pytest.mark.eprover
def test_screen_command_writes_jsonl_and_resumes(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text('{"law": "x = y ◇ z"}\nx = y ◇ x\n')
    out = tmp_path / "out.jsonl"
    args = [
        "alps",
        "screen",
        str(src),
        "--out",
        str(out),
        "--timeout",
        "5",
        "--no-progress",
        "--workers",
        "1",
    ]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["status"] == {"HAS_FINITE_MODEL": 1, "TRIVIAL": 1}
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["resumed"] == 2 and again["screened_now"] == 0
    assert len(out.read_text().splitlines()) == 2
    assert (tmp_path / "out.sqlite").exists()


def test_ctrl_c_before_the_workers_start_still_says_how_to_resume(tmp_path, capsys, monkeypatch):
    """An interrupt can land before the screening loop (a slow machine, a prover check): the
    message must still name the database and say how to resume, never a bare 'interrupted'."""
    import veristep.alps.screen as screen

    def interrupted_early(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(screen, "screen_many", interrupted_early)
    src = tmp_path / "in.jsonl"
    src.write_text("x = y ◇ x\n")
    assert main(["alps", "screen", str(src), "--out", str(tmp_path / "o.jsonl")]) == 130
    err = capsys.readouterr().err
    assert "resume" in err and "o.sqlite" in err and "o.jsonl" in err, err
    assert len(err.strip().splitlines()) == 1


def test_generate_writes_order_six_candidates(tmp_path, capsys):
    seeds = tmp_path / "seeds.jsonl"
    seeds.write_text('{"law": "x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))"}\n')
    out = tmp_path / "gen.jsonl"
    assert (
        main(["alps", "generate", "--seeds", str(seeds), "--out", str(out), "--no-progress"]) == 0
    )
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert report["order"] == 6 and report["after_small_model_screen"] == len(rows) > 0
    assert report["candidates"] > len(rows)
