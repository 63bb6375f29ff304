"""Rebase: thread a stable node id through a chain of expression trees (GumTree-style matching).

An animation can only glide a glyph from one state to the next if both states call it by the same
name. Each state is parsed on its own, so its node ids are local; this module matches every state
against the one before and renames its nodes with ids that persist along the chain.

The matcher, in order:

1. **planner hints** — when the proposer knows what a move did (a term moved, a factor cancelled)
   its mapping is taken as given;
2. **branch pairing** — the children of ∨ nodes are paired between the two states once (identical
   branches, then equal roots by numeric fingerprint, then position), and no later match may
   cross from one branch into another;
3. **anchors** — the largest identical subtrees are matched first (children of + and × compared as
   multisets), ties broken by parent label, sibling position and relative position in the tree;
4. **bottom-up** — a container whose children changed is matched to the same-label container that
   shares most matched descendants (Dice ≥ 0.5), then its unmatched children are recovered;
5. **leftovers** — remaining identical subtrees (moved terms, repeated atoms) are matched by the
   same context score, so that of several ``x`` each goes to the nearest, and none teleports.

Nodes left unmatched get a revived id when an equal expression was seen earlier in the chain (and
its id is not already in use in this state), else a fresh one.

>>> from veristep.animate.tree import from_sexpr
>>> a = from_sexpr("(= (+ (* 2 x) 3) 7)")
>>> b = from_sexpr("(= (* 2 x) (- 7 3))")
>>> ids = thread_ids([a, b])
>>> x_a = [n for n in a.walk() if n.label == "x"][0]
>>> x_b = [n for n in b.walk() if n.label == "x"][0]
>>> ids[0][x_a.ident] == ids[1][x_b.ident]
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from veristep.animate.fingerprint import fingerprint, same_root
from veristep.animate.tree import Node, compatible, structure_hash

MIN_DICE = 0.5


@dataclass
class _Side:
    """Per-tree facts the matcher consults: hashes, sizes, pre-order rank, branch ancestry."""

    root: Node
    hashes: dict[int, str] = field(default_factory=dict)  # id(node) → structure hash
    size: dict[int, int] = field(default_factory=dict)
    rank: dict[int, float] = field(default_factory=dict)  # pre-order position in [0, 1]
    slot: dict[int, int] = field(default_factory=dict)  # index among its siblings
    # id(node) → [(branching ancestor, index of the branch the node lies in), ...]
    branches: dict[int, list[tuple[Node, int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        nodes = list(self.root.walk())
        memo: dict[int, str] = {}
        for i, node in enumerate(nodes):
            self.hashes[id(node)] = structure_hash(node, memo)
            self.rank[id(node)] = i / max(len(nodes) - 1, 1)
            for k, child in enumerate(node.children):
                self.slot[id(child)] = k
        for node in self.root.postorder():
            self.size[id(node)] = 1 + sum(self.size[id(c)] for c in node.children)
        self._branches(self.root, [])

    def _branches(self, node: Node, path: list[tuple[Node, int]]) -> None:
        self.branches[id(node)] = path
        for i, child in enumerate(node.children):
            self._branches(child, [*path, (node, i)] if node.branching else path)

    def h(self, node: Node) -> str:
        return self.hashes[id(node)]


class _Matching:
    """A partial one-to-one map between prev and next nodes, with the branch pairing it obeys."""

    def __init__(self, prev: _Side, nxt: _Side) -> None:
        self.prev, self.next = prev, nxt
        self.p2n: dict[Node, Node] = {}
        self.n2p: dict[Node, Node] = {}
        self.branch_pairs: dict[Node, Node] = {}  # branching node prev → next
        self.branch_map: dict[tuple[Node, int], int] = {}  # (prev ∨, branch) → next branch

    def add(self, u: Node, v: Node) -> None:
        self.p2n[u] = v
        self.n2p[v] = u

    def allowed(self, u: Node, v: Node) -> bool:
        """No crossing: inside paired ∨ nodes, branch i may only map to its paired branch."""
        if u in self.p2n or v in self.n2p:
            return False
        v_path = dict(self.next.branches[id(v)])
        u_path = dict(self.prev.branches[id(u)])
        for p_or, i in u_path.items():
            n_or = self.branch_pairs.get(p_or)
            if n_or is not None and v_path.get(n_or) != self.branch_map.get((p_or, i)):
                return False
        paired_next = {n: p for p, n in self.branch_pairs.items()}
        return all(n_or not in paired_next or paired_next[n_or] in u_path for n_or in v_path)

    def score(self, u: Node, v: Node) -> float:
        """Context similarity: a matched parent counts most, then parent label, then position."""
        s = 0.0
        if u.parent is not None and v.parent is not None:
            if self.p2n.get(u.parent) is v.parent:
                s += 8
            elif u.parent.label == v.parent.label:
                s += 2
            if self.prev.slot[id(u)] == self.next.slot[id(v)]:
                s += 1
        s -= 2 * abs(self.prev.rank[id(u)] - self.next.rank[id(v)])
        return s

    def map_isomorphic(self, u: Node, v: Node) -> None:
        """Match two equal subtrees node by node (unordered children paired by hash)."""
        self.add(u, v)
        if not v.unordered:
            for cu, cv in zip(u.children, v.children, strict=False):
                if self.allowed(cu, cv):
                    self.map_isomorphic(cu, cv)
            return
        free = list(u.children)
        for cv in v.children:
            same = [c for c in free if self.prev.h(c) == self.next.h(cv) and self.allowed(c, cv)]
            if same:
                cu = min(same, key=lambda c: abs(self.prev.slot[id(c)] - self.next.slot[id(cv)]))
                free.remove(cu)
                self.map_isomorphic(cu, cv)


def match(prev: Node, nxt: Node, hint: Mapping[int, int] | None = None) -> dict[Node, Node]:
    """Match the nodes of ``nxt`` to nodes of ``prev``; return next node → prev node."""
    m = _Matching(_Side(prev), _Side(nxt))
    _pair_branches(m)
    if hint:
        _apply_hint(m, hint)
    _anchor(m, min_size=2)
    _bottom_up(m)
    _anchor(m, min_size=1)
    return dict(m.n2p)


def _apply_hint(m: _Matching, hint: Mapping[int, int]) -> None:
    prev_by_id = {n.ident: n for n in m.prev.root.walk()}
    next_by_id = {n.ident: n for n in m.next.root.walk()}
    for p_id, n_id in hint.items():
        u, v = prev_by_id.get(p_id), next_by_id.get(n_id)
        if u is None or v is None or not m.allowed(u, v):
            continue
        if m.prev.h(u) == m.next.h(v):
            m.map_isomorphic(u, v)
        else:
            m.add(u, v)


def _pair_branches(m: _Matching) -> None:
    """Pair ∨ nodes (equal content first, then in order) and their branches by shared content."""
    p_ors = [n for n in m.prev.root.walk() if n.branching]
    n_ors = [n for n in m.next.root.walk() if n.branching]
    for v in list(n_ors):
        same = [u for u in p_ors if m.prev.h(u) == m.next.h(v) and u.label == v.label]
        if same:
            m.branch_pairs[same[0]] = v
            p_ors.remove(same[0])
            n_ors.remove(v)
    for u, v in zip(p_ors, n_ors, strict=False):
        if u.label == v.label:
            m.branch_pairs[u] = v
    for u, v in m.branch_pairs.items():
        _pair_branch_children(m, u, v)


def _pair_branch_children(m: _Matching, u: Node, v: Node) -> None:
    """Identical branches first, then branches with the same root (numeric fingerprint), then the
    rest in order: a step usually rewrites each branch in place but may also reorder them."""
    free_j = list(range(len(v.children)))
    rest = list(range(len(u.children)))
    next_prints = [fingerprint(c) for c in v.children]
    tests = (
        lambda cu, j: m.next.h(v.children[j]) == m.prev.h(cu),
        lambda cu, j: same_root(fingerprint(cu), next_prints[j]),
    )
    for test in tests:
        for i in list(rest):
            same = [j for j in free_j if test(u.children[i], j)]
            if same:
                m.branch_map[(u, i)] = same[0]
                free_j.remove(same[0])
                rest.remove(i)
    for i, j in zip(rest, free_j, strict=False):
        m.branch_map[(u, i)] = j


def _anchor(m: _Matching, min_size: int) -> None:
    """Match identical subtrees, largest first; the context score picks among equal candidates."""
    by_hash: dict[str, list[Node]] = {}
    for u in m.prev.root.walk():
        by_hash.setdefault(m.prev.h(u), []).append(u)
    order = sorted(
        (v for v in m.next.root.walk() if m.next.size[id(v)] >= min_size),
        key=lambda v: -m.next.size[id(v)],
    )
    for v in order:
        if v in m.n2p:
            continue
        cands = [u for u in by_hash.get(m.next.h(v), []) if m.allowed(u, v)]
        if cands:
            m.map_isomorphic(max(cands, key=lambda u: m.score(u, v)), v)


def _bottom_up(m: _Matching) -> None:
    for v in m.next.root.postorder():
        if v in m.n2p or not v.children:
            continue
        best, best_dice = None, MIN_DICE
        for u in _candidates(m, v):
            d = _dice(m, u, v)
            if d > best_dice or (d == best_dice and best is not None and _better(m, u, best, v)):
                best, best_dice = u, d
        if best is None and v.parent is None and m.prev.root.label == v.label:
            best = m.prev.root if m.allowed(m.prev.root, v) else None
        if best is not None:
            m.add(best, v)
            _recover(m, best, v)


def _candidates(m: _Matching, v: Node) -> list[Node]:
    """Containers that could share descendants with ``v``: the ancestors of the counterparts of
    its matched descendants (GumTree's candidate rule; anything else has Dice 0)."""
    seen: set[int] = set()
    out: list[Node] = []
    for d in v.walk():
        u = m.n2p.get(d) if d is not v else None
        while u is not None and u.parent is not None:
            u = u.parent
            if id(u) in seen:
                break
            seen.add(id(u))
            if compatible(u.label, v.label) and m.allowed(u, v):
                out.append(u)
    return out


def _better(m: _Matching, u: Node, other: Node, v: Node) -> bool:
    return m.score(u, v) > m.score(other, v)


def _dice(m: _Matching, u: Node, v: Node) -> float:
    du = {n for n in u.walk() if n is not u}
    dv = [n for n in v.walk() if n is not v]
    common = sum(1 for n in dv if m.n2p.get(n) in du)
    return 2 * common / max(len(du) + len(dv), 1)


def _recover(m: _Matching, u: Node, v: Node) -> None:
    """Inside a matched pair, match unmatched children: equal subtrees first, then equal labels."""
    for equal_hash in (True, False):
        for cv in v.children:
            if cv in m.n2p:
                continue
            cands = [
                cu
                for cu in u.children
                if cu not in m.p2n
                and (m.prev.h(cu) == m.next.h(cv) if equal_hash else _same_slot(m, cu, cv))
                and m.allowed(cu, cv)
            ]
            if not cands:
                continue
            cu = max(cands, key=lambda c: m.score(c, cv))
            if equal_hash:
                m.map_isomorphic(cu, cv)
            else:
                m.add(cu, cv)
                _recover(m, cu, cv)


def _same_slot(m: _Matching, cu: Node, cv: Node) -> bool:
    """Label-only recovery needs the same sibling slot (any slot under + or ×): an operator
    that jumps to the other side of an equation is a new operator, not a moved one."""
    if not compatible(cu.label, cv.label) or cv.parent is None:
        return False
    return cv.parent.unordered or m.prev.slot[id(cu)] == m.next.slot[id(cv)]


@dataclass
class IdThread:
    """Stable ids along a chain: matched nodes keep theirs, reappearing ones revive, new ones
    get fresh ids."""

    next_free: int = 0
    seen: dict[str, list[int]] = field(default_factory=dict)  # expression hash → ids, oldest first

    def first(self, tree: Node) -> dict[int, int]:
        return self._assign(tree, {}, {})

    def advance(
        self,
        prev: Node,
        prev_ids: Mapping[int, int],
        tree: Node,
        hint: Mapping[int, int] | None = None,
    ) -> dict[int, int]:
        pairs = match(prev, tree, hint)
        return self._assign(tree, pairs, prev_ids)

    def _assign(
        self, tree: Node, pairs: Mapping[Node, Node], prev_ids: Mapping[int, int]
    ) -> dict[int, int]:
        ids: dict[int, int] = {}
        for v, u in pairs.items():
            ids[v.ident] = prev_ids[u.ident]
        # An id of the previous state that the matcher left unmatched stays retired here:
        # reviving it would undo the matcher's decision (and could cross ∨ branches).
        used = set(ids.values()) | set(prev_ids.values())
        memo: dict[int, str] = {}
        for v in tree.walk():
            h = structure_hash(v, memo)
            if v.ident not in ids:
                revived = [i for i in reversed(self.seen.get(h, [])) if i not in used]
                ids[v.ident] = revived[0] if revived else self.fresh()
                used.add(ids[v.ident])
            known = self.seen.setdefault(h, [])
            if ids[v.ident] not in known:
                known.append(ids[v.ident])
        return ids

    def fresh(self) -> int:
        """A never-used id."""
        self.next_free += 1
        return self.next_free


def thread_ids(
    trees: Sequence[Node], hints: Sequence[Mapping[int, int] | None] | None = None
) -> list[dict[int, int]]:
    """For each tree, node ident → stable id. ``hints[k]`` maps tree k's idents to tree k+1's."""
    thread = IdThread()
    out: list[dict[int, int]] = []
    for k, tree in enumerate(trees):
        if k == 0:
            out.append(thread.first(tree))
            continue
        hint = hints[k - 1] if hints and k - 1 < len(hints) else None
        out.append(thread.advance(trees[k - 1], out[k - 1], tree, hint))
    return out
