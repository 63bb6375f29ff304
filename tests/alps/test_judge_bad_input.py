"""Hostile submissions of every shape get a verdict and a message — never a crash."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from veristep.alps.judge import judge

LAW = "x = y ◇ z"
# The CLI in a fresh interpreter, exactly as a user runs it.
VERISTEP = [sys.executable, "-c", "import sys; from veristep.cli import main; sys.exit(main())"]


@pytest.mark.parametrize(
    "submission, fragment",
    [
        ("x" * 10_000_000, "submission too large"),
        (b'{"chain": ["a", "\xff\xfe", "b"]}', "not valid UTF-8"),
        ({"chain": ["a", "(" * 5000 + "a" + ")" * 5000, "b"]}, "too long"),
        ({"chain": ["a", "(" * 70 + "a" + ")" * 70, "b"]}, "nested deeper than 64"),
        ({"chain": ["a", " ◇ ".join(["a"] * 300), "b"]}, "too big"),
        ({"chain": ["a", "a ◇ c", "b"]}, "illegal symbol(s): c"),
        ({"chain": ["a", "a ◇ (a", "b"]}, "unbalanced parentheses"),
        ({"chain": ["a", "a ◇ ◇ a", "b"]}, "failed to parse"),
        ({"chain": ["a", 7, "b"]}, "chain must be a list of term strings"),
        ({"chain": "a b"}, "chain must be a list of term strings"),
        ({"chain": ["a"] * 500}, "chain has 500 terms"),
        ({"E": []}, "E must be a nonempty list"),
        ({"E": [{"lhs": "x"}]}, "E must be a nonempty list"),
        ({"E": ["x ◇ q_1 = " + "(" * 80 + "x" + ")" * 80]}, "nested deeper"),
        ({"E": ["x ◇ y = y"] * 1001}, "E has 1001 equations"),
        ({"answer": 42}, 'a submission is {"chain": [...]} or {"E": [...]}'),
        ("[1, 2, 3]", "no JSON"),
        ('{"chain": [' * 3000 + "]}" * 3000, "bad JSON"),
        ("", "no JSON"),
    ],
)
def test_bad_submission_gets_invalid_verdict_and_message(submission, fragment):
    v = judge(LAW, submission)
    assert v.status == "invalid"
    assert fragment in v.message
    assert v.certificate_hash  # even a refusal is a sealed, reproducible record


def test_cli_judges_a_ten_megabyte_file_without_reading_it_all(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b'{"chain": ["a", "' + b"a" * 10_000_000 + b'", "b"]}')
    proc = subprocess.run(
        [*VERISTEP, "alps", "judge", "--law", LAW, str(big), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["status"] == "invalid" and "too large" in verdict["message"]


def test_cli_bad_law_is_a_located_input_error(tmp_path):
    sub = tmp_path / "s.json"
    sub.write_text('{"chain": ["a", "b"]}', encoding="utf-8")
    proc = subprocess.run(
        [*VERISTEP, "alps", "judge", "--law", "x = y ◇ ◇ z", str(sub)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "column" in proc.stderr and "Traceback" not in proc.stderr
