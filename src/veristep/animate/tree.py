"""The small tree the matcher works on: a label, ordered children, a node id, two flags.

Rebase does not need the full semantic graph, only its shape. Keeping its own tree means the
matcher, its quality fixture and its doctests read the same way whichever graph produced them;
``from_sexpr`` writes trees by hand (fixtures); ``veristep.animate.graphs`` converts mathgraph
graphs.

>>> t = from_sexpr("(= (+ a#1 (* 2 x)) 0)")
>>> t.label, [c.label for c in t.children], t.children[0].unordered
('=', ['+', '0'], True)
>>> t.children[0].children[0].tag
'1'
>>> to_sexpr(t)
'(= (+ a (* 2 x)) 0)'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field

# Labels whose children may be permuted without changing the expression (matched as multisets).
UNORDERED = frozenset({"+", "*", "or", "and"})
# Labels whose children are alternative branches that an animation must never mix. (A ± node's
# children are its operands, not its branches, so ± is not listed; it splits into an ∨.)
BRANCHING = frozenset({"or"})
# Labels that may stand for one another when a container persists: ± becomes + or − on a split.
COMPATIBLE = frozenset(
    {
        frozenset({"pm", "+"}),
        frozenset({"pm", "-"}),
        frozenset({"pm", "neg"}),
        frozenset({"pm", "mp"}),
    }
)


def compatible(a: str, b: str) -> bool:
    """Whether a container labelled ``a`` may continue as one labelled ``b``.

    >>> compatible("pm", "+"), compatible("+", "*")
    (True, False)
    """
    return a == b or frozenset({a, b}) in COMPATIBLE


@dataclass(eq=False)
class Node:
    label: str
    children: list[Node] = field(default_factory=list)
    ident: int = -1
    unordered: bool = False
    branching: bool = False
    tag: str | None = None  # a hand label in fixtures; never used by the matcher
    parent: Node | None = field(default=None, repr=False)

    def walk(self) -> Iterator[Node]:
        """Pre-order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def postorder(self) -> Iterator[Node]:
        for child in self.children:
            yield from child.postorder()
        yield self

    @property
    def position(self) -> int:
        return 0 if self.parent is None else self.parent.children.index(self)


def link(root: Node) -> Node:
    """Set parent pointers and give unnumbered nodes pre-order ids; return the root."""
    used = {n.ident for n in root.walk() if n.ident >= 0}
    counter = 0
    for node in root.walk():
        for child in node.children:
            child.parent = node
        if node.ident < 0:
            while counter in used:
                counter += 1
            node.ident = counter
            used.add(counter)
    return root


def structure_hash(node: Node, memo: dict[int, str]) -> str:
    """A hash equal for equal expressions; children of unordered nodes are hashed as a multiset."""
    key = id(node)
    if key not in memo:
        parts = [structure_hash(c, memo) for c in node.children]
        if node.unordered:
            parts.sort()
        text = node.label + "(" + ",".join(parts) + ")"
        memo[key] = hashlib.blake2b(text.encode(), digest_size=10).hexdigest()
    return memo[key]


def from_sexpr(text: str) -> Node:
    """Parse ``(label child ...)`` with atoms ``name`` or ``name#tag`` (tags label fixtures)."""
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    pos = 0

    def atom(tok: str) -> Node:
        label, _, tag = tok.partition("#")
        return Node(label, [], tag=tag or None)

    def parse() -> Node:
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok != "(":
            if tok == ")":
                raise ValueError(f"unexpected ')' at token {pos} of {text!r}")
            return atom(tok)
        node = atom(tokens[pos])
        pos += 1
        while tokens[pos] != ")":
            node.children.append(parse())
        pos += 1
        return node

    root = parse()
    if pos != len(tokens):
        raise ValueError(f"trailing tokens after position {pos} in {text!r}")
    for node in root.walk():
        node.unordered = node.label in UNORDERED
        node.branching = node.label in BRANCHING
    return link(root)


def to_sexpr(node: Node) -> str:
    if not node.children:
        return node.label
    return "(" + " ".join([node.label, *(to_sexpr(c) for c in node.children)]) + ")"
