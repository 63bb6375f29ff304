"""``veristep alps model`` through the real dispatcher: build, check, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veristep.cli import main

LAW_12857 = "x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)"
TWEE = Path(__file__).parent / "fixtures" / "alps_dev" / "twee_12857.out"


def test_the_worked_example_gets_a_model_and_its_presentation_checks_again(tmp_path, capsys):
    out = tmp_path / "12857.json"
    assert main(["alps", "model", LAW_12857, "--seconds", "60", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("MODEL: ground convergent") and "? the least element" in printed
    report = json.loads(out.read_text())
    assert report["model"] and report["check"]["certified"]
    # the written presentation, read back as a file, passes --check on its own
    presentation = tmp_path / "eqs.txt"
    presentation.write_text("\n".join(report["equations"]) + "\n")
    assert main(["alps", "model", LAW_12857, "--check", str(presentation), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["model"] and again["status"] == "checked"


def test_twees_output_file_is_read_and_checked(capsys):
    assert main(["alps", "model", LAW_12857, "--check", str(TWEE), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["model"] and len(report["equations"]) == 55


@pytest.mark.eprover
def test_a_trivial_law_gets_no_model_and_is_called_trivial_only_once_e_reproves_it(
    capsys, monkeypatch
):
    assert main(["alps", "model", "x = (y ◇ x) ◇ z", "--seconds", "5"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("TRIVIAL: ") and "re-proved by E" in printed
    assert "presentation" not in printed
    # Without E the collapse is our completion's word alone: reported, never called trivial.
    from veristep.alps.provers import EProver

    monkeypatch.setattr(EProver, "unavailable", lambda self: "eprover not on the PATH")
    assert main(["alps", "model", "x = (y ◇ x) ◇ z", "--seconds", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "trivial" and report["reproof"].startswith("not re-proved")
    assert main(["alps", "model", "x = (y ◇ x) ◇ z", "--seconds", "5"]) == 0
    assert capsys.readouterr().out.startswith("NO MODEL SHOWN (trivial)")


def test_a_malformed_presentation_is_a_located_error(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("x ◇ y = y ◇ x\nx ◇ = y\n")
    assert main(["alps", "model", "x ◇ y = y ◇ x", "--check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "equation 2" in err and len(err.strip().splitlines()) <= 2
    assert main(["alps", "model", "x = y", "--check", str(tmp_path / "none.txt")]) == 2


def test_presentations_nested_too_deep_are_located_errors_not_crashes(tmp_path, capsys):
    deep = tmp_path / "deep.txt"
    deep.write_text("(" * 5000 + "x" + ")" * 5000 + " = y\n")
    chain = tmp_path / "chain.txt"
    chain.write_text(" ◇ ".join(["x"] * 3000) + " = y\n")
    for path, why in ((deep, "nested more than"), (chain, "nests more than")):
        assert main(["alps", "model", "x = y ◇ x", "--check", str(path)]) == 2
        err = capsys.readouterr().err
        assert "equation 1" in err and why in err and "internal error" not in err
