"""The semantic graph of one LaTeX state: immutable nodes with ids, kept as written.

A graph is a tree of frozen :class:`Node` objects. Every node has an integer ``id`` unique within
its graph (a freshly parsed graph numbers its nodes in pre-order from 0), a :class:`Kind`, an
ordered tuple of ``children`` and a string ``value`` (the leaf payload or the operator's spelling).

The graph keeps the structure *as written*: ``2x`` is ``mul(num 2, sym x)`` with the implicit
glyph, ``x \\cdot 2`` is ``mul(sym x, num 2)`` with ``\\cdot``; SymPy makes them equal, the graph
does not. Parentheses are not nodes: they are re-inserted from precedence when printing.

>>> x, one = Node.make(Kind.SYMBOL, value="x"), Node.make(Kind.NUMBER, value="1")
>>> g = Graph(Node.make(Kind.ADD, [x, one]))
>>> [(n.id, n.label) for n in g.nodes()]
[(0, 'add'), (1, 'sym:x'), (2, 'num:1')]
>>> g.parent(2).id, g.root.commutative
(0, True)
>>> h = g.relabel({0: 10, 1: 11, 2: 12})
>>> h.node(11).value, structurally_equal(g, h), g == h
('x', True, False)
>>> Graph.from_json(g.to_json()) == g
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from veristep.core.errors import InputError


class Kind(StrEnum):
    """Node kinds. The child layout of each kind is fixed (documented in docs/mathgraph.md)."""

    # leaves
    NUMBER = "num"  # value: the digits as written ("12", "0.50")
    SYMBOL = "sym"  # value: normalised name ("x", "x_1", "x_ab", "alpha", "y'")
    CONSTANT = "const"  # value: "e" | "i" | "pi" | "infty"
    BOOL = "bool"  # value as written: "True" | "False" (\mathbf) | "top" | "bot" (\top, \bot)
    SET_CONST = "setconst"  # value: "R" | "N" | "Z" | "Q" | "C" | "emptyset"
    # arithmetic
    ADD = "add"  # n-ary; subtraction is a NEG child, ± a PM child
    NEG = "neg"  # unary minus
    PM = "pm"  # value: "pm" | "mp"; one child (a signed term, like NEG)
    MUL = "mul"  # n-ary; value: "" (juxtaposition) | "cdot" | "times"
    DIV = "div"  # (numerator, denominator); value: "/" | "div"
    FRAC = "frac"  # (numerator, denominator); value: "frac" | "dfrac" | "tfrac"
    POW = "pow"  # (base, exponent)
    SQRT = "sqrt"  # (radicand,) or (radicand, index)
    FUNC = "func"  # value: function name ("sin", "ln", "f"); children: arguments
    LOG = "log"  # (base, argument): \log_b x
    FACTORIAL = "factorial"  # (operand,)
    CONJUGATE = "conj"  # (operand,); value: "star" (^\star) | "*" (^*): complex conjugate
    BINOM = "binom"  # (n, k); value: "binom" | "choose"
    ABS = "abs"
    FLOOR = "floor"
    CEIL = "ceil"
    # calculus and discrete constructs (unevaluated)
    DERIV = (
        "deriv"  # (operand, variable, order); value: "op" | "frac" | "prime"; "d"/"partial" prefix
    )
    INTEGRAL = "integral"  # (integrand, variable) or (integrand, variable, lower, upper)
    LIMIT = "limit"  # (operand, variable, point); value: "" | "+" | "-" (one-sided)
    SUM = "sum"  # (body, index, lower, upper)
    PRODUCT = "prod"  # (body, index, lower, upper)
    # collections
    MATRIX = "matrix"  # value: "pmatrix" | "bmatrix" | "matrix"; children: ROW nodes
    ROW = "row"
    SET = "set"  # finite set literal {a, b}
    INTERVAL = "interval"  # (lower, upper); value: two brackets, e.g. "[)"
    UNION = "union"  # n-ary union of sets, (-\infty, 1) \cup (3, \infty); value: "cup"
    # statements
    RELATION = "rel"  # n children, value: n-1 comma-separated operators ("=", "<,<", "in")
    AND = "and"  # n-ary; value: the connective as written ("land", "wedge", "and", "for", ...)
    OR = "or"  # n-ary; value: "lor" | "vee" | "or"
    NOT = "not"  # (operand,); value: "neg" | "lnot" | "not"
    IMPLIES = "implies"  # (premise, conclusion); value: "Rightarrow" | "implies"
    IFF = "iff"  # (left, right); value: "Leftrightarrow" | "iff"
    SYSTEM = "system"  # value: "cases" | "array" | "aligned" | "brace"; children: statements
    CONTINUATION = "cont"  # a line "= e" continuing the previous line; (e,)


_COMMUTATIVE_KINDS = frozenset({Kind.ADD, Kind.MUL, Kind.AND, Kind.OR, Kind.IFF})
_SYMMETRIC_RELATIONS = frozenset({"=", "ne", "approx"})
_LEAVES = frozenset({Kind.NUMBER, Kind.SYMBOL, Kind.CONSTANT, Kind.BOOL, Kind.SET_CONST})


@dataclass(frozen=True, slots=True)
class Node:
    """One node. Equality includes ids; use :func:`structurally_equal` to ignore them."""

    id: int
    kind: Kind
    children: tuple[Node, ...] = ()
    value: str = ""

    @staticmethod
    def make(kind: Kind, children: Sequence[Node] = (), value: str = "") -> Node:
        """A node with a placeholder id (-1); :class:`Graph` numbers fresh trees in pre-order."""
        return Node(-1, kind, tuple(children), value)

    @property
    def label(self) -> str:
        """The node's signature without children or id: ``"add"``, ``"sym:x"``, ``"rel:="``."""
        return f"{self.kind.value}:{self.value}" if self.value else self.kind.value

    @property
    def commutative(self) -> bool:
        """Whether the order of the children carries no meaning (+, ×, ∧, ∨, ⇔, =, ≠, ≈)."""
        if self.kind is Kind.MUL:
            return not any(c.kind is Kind.MATRIX for c in self.children)
        if self.kind is Kind.RELATION:
            return len(self.children) == 2 and self.value in _SYMMETRIC_RELATIONS
        return self.kind in _COMMUTATIVE_KINDS

    @property
    def is_leaf(self) -> bool:
        return self.kind in _LEAVES

    def walk(self) -> Iterator[Node]:
        """Pre-order traversal without recursion (graphs may be deep)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def signature(self) -> tuple:
        """A hashable id-free rendering of the subtree; equal iff structurally equal."""
        return (self.label, tuple(c.signature() for c in self.children))


def _number(node: Node, counter: list[int]) -> Node:
    node_id = counter[0]
    counter[0] += 1
    children = tuple(_number(c, counter) for c in node.children)
    return Node(node_id, node.kind, children, node.value)


@dataclass(frozen=True)
class Graph:
    """A rooted tree of nodes. Build one with ``Graph(root)``; unnumbered trees are numbered."""

    root: Node
    _index: dict[int, Node] = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        root = self.root
        if any(n.id < 0 for n in root.walk()):
            root = _number(root, [0])
            object.__setattr__(self, "root", root)
        index: dict[int, Node] = {}
        for node in root.walk():
            if node.id in index:
                raise ValueError(f"duplicate node id {node.id} in graph")
            index[node.id] = node
        object.__setattr__(self, "_index", index)

    def nodes(self) -> Iterator[Node]:
        """All nodes in pre-order."""
        return self.root.walk()

    def node(self, node_id: int) -> Node:
        return self._index[node_id]

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._index

    @cached_property
    def _parents(self) -> dict[int, int]:
        return {c.id: n.id for n in self.nodes() for c in n.children}

    def parent(self, node_id: int) -> Node | None:
        """The parent node, or None for the root."""
        pid = self._parents.get(node_id)
        return None if pid is None else self._index[pid]

    def relabel(self, mapping: Mapping[int, int]) -> Graph:
        """A copy whose node ``i`` gets id ``mapping[i]`` (unmapped ids stay as they are)."""

        def rebuild(node: Node) -> Node:
            children = tuple(rebuild(c) for c in node.children)
            return Node(mapping.get(node.id, node.id), node.kind, children, node.value)

        return Graph(rebuild(self.root))

    @property
    def is_statement(self) -> bool:
        """True when the root is a relation, a connective, a system or a truth value."""
        return self.root.kind in STATEMENT_KINDS

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"version": 1, "root": {"id", "kind", "value", "children"}}``."""

        def dump(node: Node) -> dict[str, Any]:
            out: dict[str, Any] = {"id": node.id, "kind": node.kind.value}
            if node.value:
                out["value"] = node.value
            if node.children:
                out["children"] = [dump(c) for c in node.children]
            return out

        return {"version": 1, "root": dump(self.root)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Graph:
        """Inverse of :meth:`to_json`; malformed input raises :class:`InputError`."""
        try:
            obj = json.loads(data) if isinstance(data, str) else data
            if obj.get("version") != 1:
                raise ValueError("unsupported graph version")
            return cls(_load(obj["root"], depth=0))
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            raise InputError(f"malformed graph JSON: {exc}", kind="graph_json") from None


def _load(obj: Mapping[str, Any], depth: int) -> Node:
    if depth > 400:
        raise ValueError("graph too deep")
    children = tuple(_load(c, depth + 1) for c in obj.get("children", ()))
    value = obj.get("value", "")
    if not isinstance(value, str) or not isinstance(obj["id"], int):
        raise ValueError("node id must be an integer and value a string")
    return Node(obj["id"], Kind(obj["kind"]), children, value)


STATEMENT_KINDS = frozenset(
    {Kind.RELATION, Kind.AND, Kind.OR, Kind.NOT, Kind.IMPLIES, Kind.IFF, Kind.SYSTEM, Kind.BOOL}
)


def structurally_equal(a: Graph | Node, b: Graph | Node) -> bool:
    """Same kinds, values and child order everywhere, ids ignored."""
    ra = a.root if isinstance(a, Graph) else a
    rb = b.root if isinstance(b, Graph) else b
    return ra.signature() == rb.signature()
