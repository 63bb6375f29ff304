"""``veristep parse`` on plain input prints the LaTeX it understood; refusals exit 2, located."""

from __future__ import annotations

import json

import pytest

from veristep.cli import main


def test_parse_shows_what_plain_input_was_read_as(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "3/4 y = 6, x + y = 1"]) == 0
    out = capsys.readouterr().out
    assert r"read as: \begin{cases} \frac{3}{4} y = 6 \\ x + y = 1 \end{cases}" in out
    assert "sympy: Eq(3*y/4, 6) & Eq(x + y, 1)" in out


def test_parse_json_names_the_reader(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "sqrt(x) >= 2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["reader"] == "plain" and doc["latex"] == r"\sqrt{x} \geq 2"
    assert main(["parse", r"\sqrt{x} \ge 2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reader"] == "latex"


def test_ambiguous_plain_input_exits_2_with_column_and_hint(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["parse", "y = 1/2x"]) == 2
    err = capsys.readouterr().err
    assert "column 8" in err and "(1/2)x or 1/(2x)" in err
