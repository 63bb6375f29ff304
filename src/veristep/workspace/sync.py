"""Graph ↔ term sync: the LaTeX term and its semantic graph kept as one object with stable ids.

A :class:`TermGraph` holds the term as written, its graph, and the graph's ids threaded through
every edit by the animation's rebase (``veristep.animate.rebase``), so a sub-term that persists
keeps its id and a renderer can glide it. Edits come from either side:

* **term side** — :meth:`TermGraph.edit_term` takes new LaTeX, parses it, and matches the new
  graph against the old one (ids of persisting sub-terms survive);
* **graph side** — :meth:`TermGraph.replace` swaps one sub-term (chosen by clicking a glyph, which
  carries its node id in ``\\htmlData{n=ID}``) for new LaTeX; every node outside it keeps its id
  by construction, and the new term is printed from the graph.

Loop safety: every accepted edit bumps ``version`` and notifies subscribers once with an
:class:`Update`; an edit that changes nothing (the same LaTeX, the echo of an update coming back)
is not an edit and notifies no one, and :meth:`TermGraph.accept` ignores any update that is not
newer than what it holds. So an update from one side can never re-trigger the other.

>>> tg = TermGraph("x^2 + 3x")
>>> x_id = tg.find("x")[0]
>>> up = tg.edit_term("x^2 + 3x + 1")
>>> x_id in tg.graph, up.version, sorted(up.added) == sorted(set(up.added))
(True, 1, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from veristep.animate.graphs import tree_from_graph
from veristep.animate.rebase import IdThread
from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.mathgraph import Graph, parse_latex, parse_math, structurally_equal, to_latex
from veristep.mathgraph.nodes import Node

Side = Literal["term", "graph"]


@dataclass(frozen=True)
class Update:
    """What one accepted edit changed; the other view applies it without answering."""

    version: int
    source: Side
    latex: str
    latex_ids: str
    kept: frozenset[int]
    added: frozenset[int]
    removed: frozenset[int]

    def to_json(self) -> dict[str, object]:
        return {
            "version": self.version,
            "source": self.source,
            "latex": self.latex,
            "latex_ids": self.latex_ids,
            "kept": sorted(self.kept),
            "added": sorted(self.added),
            "removed": sorted(self.removed),
        }


@dataclass(frozen=True)
class Selection:
    """A sub-term picked in the rendered maths: its id, its LaTeX, and its place in the graph."""

    node_id: int
    latex: str
    kind: str
    path: tuple[int, ...]  # ids from the root down to the node


@dataclass
class TermGraph:
    """One object, two views: ``latex`` (as last written or printed) and ``graph`` (stable ids)."""

    latex: str
    settings: Settings = field(default_factory=Settings)
    graph: Graph = field(init=False)
    version: int = field(default=0, init=False)
    _thread: IdThread = field(default_factory=IdThread, init=False, repr=False)
    _listeners: list[Callable[[Update], None]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        parsed = parse_math(self.latex, self.settings)  # LaTeX or plain maths, kept as typed
        self.graph = parsed.relabel(self._thread.first(tree_from_graph(parsed)))

    # ---- views ------------------------------------------------------------------------------

    @property
    def latex_ids(self) -> str:
        return to_latex(self.graph, with_ids=True)

    def find(self, label: str) -> list[int]:
        """Ids of the nodes printed as ``label`` (a symbol or number), in reading order."""
        return [n.id for n in self.graph.nodes() if n.is_leaf and n.value == label]

    def select(self, node_id: int) -> Selection:
        """The sub-term a click on a glyph with ``data-n=node_id`` picks."""
        if node_id not in self.graph:
            raise InputError(f"no sub-term with id {node_id} in the current term")
        path, at = [], self.graph.node(node_id)
        while at is not None:
            path.append(at.id)
            at = self.graph.parent(at.id)
        node = self.graph.node(node_id)
        return Selection(node_id, to_latex(node), node.kind.value, tuple(reversed(path)))

    def subscribe(self, listener: Callable[[Update], None]) -> None:
        self._listeners.append(listener)

    # ---- edits ------------------------------------------------------------------------------

    def edit_term(self, latex: str) -> Update | None:
        """New LaTeX from the term side; None when it changes nothing (no notification)."""
        if latex == self.latex:
            return None
        parsed = parse_math(latex, self.settings)  # a bad edit raises; nothing changes
        if structurally_equal(parsed, self.graph):
            self.latex = latex  # a respelling (spaces, \cdot): same graph, same ids, no update
            return None
        ids = self._thread.advance(tree_from_graph(self.graph), _identity(self.graph),
                                   tree_from_graph(parsed))  # fmt: skip
        return self._commit(parsed.relabel(ids), latex, "term")

    def replace(self, node_id: int, latex: str) -> Update | None:
        """Replace the sub-term ``node_id`` by ``latex`` from the graph side."""
        self.select(node_id)  # a located error for an unknown id
        piece = parse_math(latex, self.settings)
        if structurally_equal(piece, self.graph.node(node_id)):
            return None
        fresh = piece.relabel({n.id: self._thread.fresh() for n in piece.nodes()})
        spliced = Graph(_splice(self.graph.root, node_id, fresh.root))
        printed = to_latex(spliced)
        reparsed = parse_latex(printed, self.settings)
        if not structurally_equal(reparsed, spliced):
            # The printer bracketed the new piece differently from how it was spliced in (e.g.
            # a sum put into a product): the term as printed is the truth; rebase onto it.
            ids = self._thread.advance(tree_from_graph(self.graph), _identity(self.graph),
                                       tree_from_graph(reparsed))  # fmt: skip
            spliced = reparsed.relabel(ids)
        return self._commit(spliced, printed, "graph")

    def accept(self, update: Update) -> bool:
        """Apply an update made in another view; stale or echoed updates are ignored."""
        if update.version <= self.version:
            return False
        parsed = parse_math(update.latex, self.settings)
        ids = _ids_from(update.latex_ids, parsed)
        self.graph = parsed.relabel(ids) if ids else parsed
        self.latex, self.version = update.latex, update.version
        return True

    def _commit(self, graph: Graph, latex: str, source: Side) -> Update:
        before, after = set(_identity(self.graph)), set(_identity(graph))
        self.graph, self.latex = graph, latex
        self.version += 1
        update = Update(self.version, source, latex, self.latex_ids, frozenset(before & after),
                        frozenset(after - before), frozenset(before - after))  # fmt: skip
        for listener in list(self._listeners):
            listener(update)
        return update


def _identity(graph: Graph) -> dict[int, int]:
    return {n.id: n.id for n in graph.nodes()}


def _splice(node: Node, target: int, piece: Node) -> Node:
    if node.id == target:
        return piece
    children = tuple(_splice(c, target, piece) for c in node.children)
    return Node(node.id, node.kind, children, node.value)


def _ids_from(latex_ids: str, parsed: Graph) -> dict[int, int]:
    """Recover stable ids from the ``\\htmlData{n=…}`` rendering: the printer writes one per node
    in pre-order, the same order as a fresh parse numbers them."""
    import re

    seen: list[int] = []
    for m in re.finditer(r"\\htmlData\{n=(\d+)\}", latex_ids):
        seen.append(int(m.group(1)))
    nodes = list(parsed.nodes())
    if len(seen) != len(nodes):
        return {}
    return {n.id: i for n, i in zip(nodes, seen, strict=True)}
