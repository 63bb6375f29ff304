"""``veristep parse``: tree, SymPy form and LaTeX; exit 2 with a located line on bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from veristep.cli import main
from veristep.mathgraph import Graph, parse_latex, structurally_equal


def test_parse_prints_tree_sympy_and_latex(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", r"x^{2} = 4"]) == 0
    out = capsys.readouterr().out
    assert "#0 rel:=" in out and "└── #4 num:4" in out
    assert "sympy: Eq(x**2, 4)" in out
    assert "latex: x^{2} = 4" in out


def test_parse_json_is_one_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", r"x = \pm 2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["sympy"] == "Eq(x, -2) | Eq(x, 2)"
    assert "\\htmlData{n=0}" in doc["latex_ids"]
    assert structurally_equal(Graph.from_json(doc["graph"]), parse_latex(r"x = \pm 2"))


def test_bare_plus_minus_prints_branches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", r"1 \pm x", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["sympy"] is None and doc["branches"] == ["x + 1", "1 - x"]


def test_parse_error_exits_2_with_located_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "veristep.cli", "parse", r"\fracc{1}{2}"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == (
        "veristep parse: unknown command \\fracc at column 1 (did you mean \\frac?): '\\\\fracc'"
    )
