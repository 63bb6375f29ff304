"""A plain-text rendering of a graph as an indented tree (for the CLI and for debugging).

>>> from veristep.mathgraph.parser import parse_latex
>>> print(tree_text(parse_latex("x^2 = 4")))
#0 rel:=
├── #1 pow
│   ├── #2 sym:x
│   └── #3 num:2
└── #4 num:4
"""

from __future__ import annotations

from veristep.mathgraph.nodes import Graph, Node


def tree_text(graph: Graph | Node) -> str:
    """One line per node, ``#id label``, children indented with box-drawing guides."""
    root = graph.root if isinstance(graph, Graph) else graph
    lines = [f"#{root.id} {root.label}"]
    stack: list[tuple[Node, str, bool]] = [
        (child, "", idx == len(root.children) - 1) for idx, child in enumerate(root.children)
    ][::-1]
    while stack:
        node, prefix, last = stack.pop()
        lines.append(f"{prefix}{'└── ' if last else '├── '}#{node.id} {node.label}")
        inner = prefix + ("    " if last else "│   ")
        count = len(node.children)
        stack.extend(
            (c, inner, i == count - 1) for i, c in reversed(list(enumerate(node.children)))
        )
    return "\n".join(lines)
