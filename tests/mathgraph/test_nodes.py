"""The graph type: ids, traversal, parents, relabelling, structure as written, JSON."""

from __future__ import annotations

import json

import pytest

from veristep.core.errors import InputError
from veristep.mathgraph import Graph, Kind, Node, parse_latex, structurally_equal


def test_fresh_graphs_number_nodes_in_pre_order() -> None:
    graph = parse_latex("a x^2 + b")
    ids = [n.id for n in graph.nodes()]
    assert ids == list(range(len(graph)))
    assert [n.label for n in graph.nodes()][:3] == ["add", "mul", "sym:a"]


def test_parent_lookup_and_node_access() -> None:
    graph = parse_latex("x^2 = 4")
    power = graph.root.children[0]
    assert graph.parent(power.children[0].id) is power
    assert graph.parent(graph.root.id) is None
    assert graph.node(power.id) is power and power.id in graph


def test_structure_is_kept_as_written() -> None:
    assert not structurally_equal(parse_latex("2x"), parse_latex(r"x \cdot 2"))
    assert not structurally_equal(parse_latex("2x"), parse_latex(r"2 \cdot x"))
    assert not structurally_equal(parse_latex("a + b"), parse_latex("b + a"))
    assert structurally_equal(parse_latex(r"\left(x+1\right)"), parse_latex("x + 1"))


def test_commutative_flags() -> None:
    flags = {n.label: n.commutative for n in parse_latex(r"a + b c = d \lor e < f").nodes()}
    assert flags["add"] and flags["mul"] and flags["rel:="] and flags["or:lor"]
    assert not flags["rel:<"]
    assert not parse_latex("a - b").root.children[1].commutative  # the neg node
    assert not parse_latex(r"\frac{a}{b}").root.commutative


def test_relabel_returns_a_copy_with_new_ids() -> None:
    graph = parse_latex("x + 1")
    moved = graph.relabel({0: 100, 1: 101, 2: 102})
    assert [n.id for n in moved.nodes()] == [100, 101, 102]
    assert [n.id for n in graph.nodes()] == [0, 1, 2]
    assert structurally_equal(graph, moved) and graph != moved
    assert moved.parent(101).id == 100


def test_relabel_rejects_duplicate_ids() -> None:
    with pytest.raises(ValueError, match="duplicate node id"):
        parse_latex("x + 1").relabel({1: 5, 2: 5})


def test_nodes_are_immutable() -> None:
    node = parse_latex("x").root
    with pytest.raises(AttributeError):
        node.value = "y"  # type: ignore[misc]


def test_json_round_trip_keeps_ids_and_structure() -> None:
    graph = parse_latex(r"\int_0^1 x^2 \, dx = \frac{1}{3}").relabel({0: 42})
    text = json.dumps(graph.to_json())
    again = Graph.from_json(text)
    assert again == graph and again.root.id == 42


@pytest.mark.parametrize(
    "bad",
    ['{"version": 2, "root": {}}', '{"version": 1, "root": {"id": 0, "kind": "nope"}}',
     '{"version": 1, "root": {"id": "0", "kind": "num"}}', "not json", "[]"],
)  # fmt: skip
def test_json_errors_are_input_errors(bad: str) -> None:
    with pytest.raises(InputError, match="malformed graph JSON"):
        Graph.from_json(bad)


def test_hand_built_graphs_are_numbered() -> None:
    root = Node.make(Kind.NEG, [Node.make(Kind.SYMBOL, value="x")])
    graph = Graph(root)
    assert [(n.id, n.label) for n in graph.nodes()] == [(0, "neg"), (1, "sym:x")]
    assert graph.is_statement is False and parse_latex("x = 1").is_statement


def test_parsing_and_printing_never_import_sympy() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from veristep.mathgraph import parse_latex, to_latex\n"
        "g = parse_latex(r'\\int_0^1 x^2 \\, dx = \\frac{1}{3} \\lor x = \\pm 2')\n"
        "to_latex(g, with_ids=True); g.to_json()\n"
        "print('sympy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
