"""docs/notebook.ipynb run top to bottom in a real Jupyter kernel (nbclient, ipykernel): its
outputs hold the rendered steps and tiers, and nothing in them is fetched from a network."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).parent.parent / "docs" / "notebook.ipynb"


@pytest.mark.coq
def test_the_notebook_runs_and_shows_steps_and_tiers() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    # "python3" is ipykernel's own kernel spec: this interpreter, so this checkout's veristep.
    client = nbclient.NotebookClient(
        notebook, timeout=240, kernel_name="python3", resources={"metadata": {"path": "."}}
    )
    client.execute()
    outputs = [cell["outputs"] for cell in notebook.cells if cell.cell_type == "code"]
    right, wrong, grades, played, review, search = (out[-1]["data"] for out in outputs)
    assert "grounded" in right["text/html"] and "$x + 1 = 3$" in right["text/html"]
    assert "refuted" in wrong["text/html"] and "-2" in wrong["text/html"]
    assert "refuted" in wrong["text/markdown"]
    assert "[('grounded', ['grounded']), ('refuted', ['refuted'])]" in grades["text/plain"]
    # The animation: the whole player inside the cell (an iframe's srcdoc), KaTeX inlined.
    assert "<iframe" in played["text/html"] and "katex" in played["text/html"]
    # The review: its verdict, each step's state and tier, the failed check and its witness.
    assert "review: rejected" in review["text/html"] and "✗ flawed" in review["text/html"]
    assert (
        "$5 \\cdot 4 = 21$" in review["text/html"] and "the left side is 20" in review["text/html"]
    )
    assert "✓ verified" in review["text/markdown"] and "grounded" in review["text/markdown"]
    # The proof search: proved, by which phase, with the proof Coq accepted.
    assert "proved add_zero by portfolio" in search["text/html"] and "Qed." in search["text/html"]
    assert "proved add_zero" in search["text/markdown"]
    assert "http" not in json.dumps([right, wrong, review, search])
