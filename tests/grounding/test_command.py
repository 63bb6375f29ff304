"""``veristep check`` as a user meets it: JSON, batch mode, and located errors (exit code 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veristep.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_exactly_one_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "2x + 2 = 6", "x + 1 = 3", "x = 2", "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)  # raises if anything else was printed
    assert doc["start"] == "2x + 2 = 6" and doc["target"] is None
    assert [s["tier"] for s in doc["steps"]] == ["grounded", "grounded"]
    first = doc["steps"][0]
    assert (first["operation"], first["justification"], first["change_type"]) == (None, None, None)
    assert first["check"] == "symbolic_equivalence" and first["ms"] >= 0
    assert doc["endpoint"] == {
        "reached": True,
        "math_correct": True,
        "exact_graph": True,
        "conclusion": None,
    }
    assert doc["confidence"]["tier"] == "grounded"
    assert "\\htmlData" in doc["states"][1]["latex_ids"]


def test_unparseable_state_is_unchecked_and_quoted(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "x + 1 = 3", r"x = \foo{2}", "x = 2", "--json")
    assert code == 0
    doc = json.loads(out)
    assert "\\foo" in doc["states"][1]["error"]
    into, out_of = doc["steps"]
    assert into["tier"] == "unchecked" and "\\foo" in into["reason"]
    assert out_of["tier"] == "unchecked" and "\\foo" in out_of["reason"]
    assert doc["confidence"]["convertible"] == 1
    assert doc["confidence"]["tier"] == "unchecked"


def test_human_report_explains_the_unchecked_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "x + 1 = 3", r"x = \dots")
    assert code == 0
    assert "   step 1:  ○ x = \\dots\n             (unchecked: this state could not be read:" in out
    assert "steps convertible : 0/1" in out


def test_wrong_number_of_types_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "x = 1", "x + 1 = 2", "--types", "rewrite,solve")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "2 change type(s) given for 1 step(s)" in err


def test_misspelt_type_gets_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "x = 1", "x + 1 = 2", "--types", "rewrit")
    assert code == 2 and "did you mean rewrite?" in err


def test_no_states_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys)
    assert code == 2 and "no states given" in err


def test_jsonl_batch_one_result_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        json.dumps({"states": ["x^2 = 4", "x = 2"], "change_types": ["rewrite"]}) + "\n"
        + "{not json\n"
        + json.dumps({"states": ["x + 1 = 3", "x = 2"], "target": "2 = x"}) + "\n"
        + json.dumps({"states": ["x = 1"], "colour": "red"}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    code, out, err = _run(capsys, "--jsonl", str(batch))
    assert code == 2  # a bad line, reported, the rest still judged
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["steps"][0]["tier"] == "plausible"  # a lost root: plausible at best
    assert "but the step was declared 'rewrite'" in rows[0]["steps"][0]["reason"]
    assert rows[1]["error"] == "input"
    assert rows[2]["endpoint"]["reached"] is True and rows[2]["confidence"]["tier"] == "grounded"
    # An extra key is graded as it is, and reported.
    assert rows[3]["warnings"] == ["unknown key(s) colour ignored"] and "steps" in rows[3]
    assert "line 2" in err and "line 4" not in err


def test_jsonl_labelled_corpus_keeps_ids_and_line_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = tmp_path / "labelled.jsonl"
    batch.write_text(
        json.dumps({"id": "q1", "label": "valid", "states": ["2x = 4", "x = 2"]}) + "\n"
        + "\n"
        + '{"id": 7, "states": ["x\\ud800 = 1", "x = 1"]}\n'
        + json.dumps({"id": "q3", "states": ["x = 1", "x = 1"], "notes": "same"}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    code, out, _ = _run(capsys, "--jsonl", str(batch))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [r["line"] for r in rows] == [1, 2, 3, 4]
    assert rows[0]["id"] == "q1" and rows[0]["confidence"]["tier"] == "grounded"
    assert rows[1]["error"] == "input" and "blank line" in rows[1]["message"]
    # A lone surrogate costs its own state (unchecked, located), never the batch.
    assert rows[2]["id"] == 7 and rows[2]["steps"][0]["tier"] == "unchecked"
    assert rows[3]["id"] == "q3" and rows[3]["warnings"] == ["unknown key(s) notes ignored"]


def test_missing_batch_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "--jsonl", str(tmp_path / "absent.jsonl"))
    assert code == 2 and "cannot read" in err


def test_positive_symbols_make_the_log_rule_grounded(capsys: pytest.CaptureFixture[str]) -> None:
    states = [r"\log(ab)", r"\log a + \log b"]
    _, plain, _ = _run(capsys, *states, "--json")
    _, assumed, _ = _run(capsys, *states, "--positive", "a,b", "--json")
    assert json.loads(plain)["steps"][0]["tier"] == "verified"  # holds only for a, b > 0
    assert json.loads(assumed)["steps"][0]["tier"] == "grounded"
