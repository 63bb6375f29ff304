"""Convert a mathgraph ``Graph`` into the matcher's tree, keeping each node's graph id.

The matcher speaks a small vocabulary (``+``, ``*``, ``or``, ``pm``, ``neg``) for the few labels
it treats specially; every other node keeps its mathgraph label (``sym:x``, ``rel:=``, ``frac``).

>>> from veristep.mathgraph.nodes import Graph, Kind, Node as GNode
>>> g = Graph(GNode.make(Kind.ADD, [GNode.make(Kind.SYMBOL, value="x"),
...                                  GNode.make(Kind.NUMBER, value="1")]))
>>> t = tree_from_graph(g)
>>> t.label, t.unordered, [c.label for c in t.children], [c.ident for c in t.children]
('+', True, ['sym:x', 'num:1'], [1, 2])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veristep.animate.tree import Node, link

if TYPE_CHECKING:
    from veristep.mathgraph.nodes import Graph
    from veristep.mathgraph.nodes import Node as GraphNode

_LABELS = {"add": "+", "mul": "*", "or": "or", "pm": "pm", "neg": "neg"}


def tree_from_graph(graph: Graph) -> Node:
    """The matcher's tree for ``graph``; ``Node.ident`` is the graph's node id."""
    return link(_convert(graph.root))


def _convert(node: GraphNode) -> Node:
    kind = node.kind.value
    label = _LABELS.get(kind, node.label)
    if kind == "pm" and node.value == "mp":
        label = "mp"
    return Node(
        label=label,
        children=[_convert(c) for c in node.children],
        ident=node.id,
        unordered=node.commutative,
        branching=kind == "or",
    )
