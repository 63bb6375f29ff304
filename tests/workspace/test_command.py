"""``veristep do``: the conversational CAS on the command line (in-process, real SymPy)."""

from __future__ import annotations

import json

import pytest

from veristep.cli import main


def test_do_json_is_one_document_with_graded_steps(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["do", "x^2 - 5x + 6 = 0", "factor", "solve for x", "--json"])
    out = capsys.readouterr().out
    assert rc == 0
    doc = json.loads(out)
    # "solve for x" is written out line by line: each factor to zero, then each root.
    operations = [s["operation"] for s in doc["steps"]]
    assert operations[0] == "factor" and len(operations) == 3
    assert "each factor" in operations[1] and "solve for x" not in operations
    assert [s["tier"] for s in doc["steps"]] == ["grounded"] * 3
    assert doc["states"][-2]["latex"] == r"x - 2 = 0 \lor x - 3 = 0"
    assert doc["states"][-1]["latex"] == r"x = 2 \lor x = 3"
    assert all(s["warnings"] == [] for s in doc["steps"])


def test_do_report_shows_warnings_beside_their_step(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["do", "2x = 6x^2", "divide both sides by x", "solve for x"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "── divide both sides by x" in out and r"⚠ assumes $x \ne 0$" in out
    assert "🥇" not in out.split("step 1:")[1].splitlines()[0]  # a lost root is never grounded


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["do", "x = 1", "factr"],
         "operation 1: unknown operation 'factr' at column 1 (did you mean factor?)"),
        (["do", "x = 1", "add 1", "divide both sides by"],
         "operation 2: cannot read this 'divide' command"),
        (["do", r"x = \frac{1}{", "factor"], "the start state could not be read"),
        (["do", "x + 1", "cross-multiply"], "operation 1: cannot cross-multiply here"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_one_located_line(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert needle in captured.err and len(captured.err.strip().splitlines()) == 1
