"""LaTeX with ids: every node wrapped in \\htmlData{n=ID}{…}, and KaTeX accepts all of it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from veristep.mathgraph import Kind, LatexParseError, parse_latex, to_latex
from veristep.mathgraph.nodes import Graph

from .test_identity import identity_lines, stack_lines

KATEX = (
    Path(__file__).parents[2] / "src" / "veristep" / "animate" / "static" / "katex" / "katex.min.js"
)
RENDER = Path(__file__).parent / "render_katex.js"
# Nodes with no glyph of their own: matrix rows (a row cannot be wrapped across '&'), the order of
# a derivative and the variable of f'(x) (both shown only through the primes).
_UNPRINTED = (Kind.ROW,)


def expected_ids(graph: Graph) -> set[int]:
    hidden: set[int] = set()
    for node in graph.nodes():
        if node.kind in _UNPRINTED:
            hidden.add(node.id)
        if node.kind is Kind.DERIV and node.value == "prime":
            hidden.update({node.children[1].id, node.children[2].id})
        if node.kind is Kind.DERIV and node.children[2].value == "1":
            hidden.add(node.children[2].id)
    return {n.id for n in graph.nodes()} - hidden


def test_ids_wrap_every_node_and_strip_back_to_the_clean_form() -> None:
    graph = parse_latex(r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}")
    with_ids = to_latex(graph, with_ids=True)
    for node_id in expected_ids(graph):
        assert f"\\htmlData{{n={node_id}}}" in with_ids or f"n={node_id},role=op" in with_ids
    assert "\\mathrel{\\htmlData{n=0,role=op}{=}}" in with_ids


def test_ids_follow_relabelling() -> None:
    graph = parse_latex("x + 1").relabel({0: 7, 1: 8, 2: 9})
    assert to_latex(graph, with_ids=True).startswith("\\htmlData{n=7}{\\htmlData{n=8}{x}")


@pytest.mark.skipif(shutil.which("node") is None or not KATEX.exists(),
                    reason="needs node and the vendored KaTeX")  # fmt: skip
def test_katex_renders_every_identity_and_stack_line_with_all_ids(shared_data: Path) -> None:
    graphs = [parse_latex(line) for line in identity_lines()]
    for line in stack_lines(shared_data):
        try:
            graphs.append(parse_latex(line))
        except LatexParseError:
            continue
    sources = [to_latex(g, with_ids=True) for g in graphs] + [to_latex(g) for g in graphs]
    done = subprocess.run(
        ["node", str(RENDER), str(KATEX)], input=json.dumps(sources), capture_output=True,
        text=True, timeout=120, check=True,
    )  # fmt: skip
    results = json.loads(done.stdout)
    for graph, source, result in zip(graphs, sources, results, strict=False):
        assert result["ok"], f"KaTeX rejected {source!r}: {result.get('error')}"
        assert not result["red"], f"KaTeX flagged {source!r}"
        missing = expected_ids(graph) - set(result["ids"])
        assert not missing, f"ids {sorted(missing)} not rendered in {source!r}"
    for source, result in zip(sources[len(graphs) :], results[len(graphs) :], strict=True):
        assert result["ok"], f"KaTeX rejected clean {source!r}: {result.get('error')}"
