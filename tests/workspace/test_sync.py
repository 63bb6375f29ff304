"""Graph ↔ term sync: property-based edits from both sides keep the two views one object.

Random expressions are built as small trees and printed as LaTeX; an edit replaces one sub-tree
by another random one. After every edit the term re-parses to exactly the graph, the ids are
unique, a mirror view that accepts the update holds the same graph with the same ids, and ids of
sub-terms that persist are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from veristep.core.errors import InputError
from veristep.mathgraph import parse_latex, structurally_equal
from veristep.workspace.sync import TermGraph, Update

LEAVES = ["x", "y", "a", "1", "2", "3"]


@dataclass(frozen=True)
class T:
    op: str  # leaf, +, *, ^, frac
    kids: tuple[T, ...] = ()
    leaf: str = ""

    def tex(self) -> str:
        if self.op == "leaf":
            return self.leaf
        a, b = (k.tex() for k in self.kids)
        if self.op == "+":
            return f"{a} + {b}"
        if self.op == "*":
            return rf"\left({a}\right) \cdot \left({b}\right)"
        if self.op == "^":
            return rf"\left({a}\right)^{{{b}}}"
        return rf"\frac{{{a}}}{{{b}}}"


def trees(depth: int = 3) -> st.SearchStrategy[T]:
    leaf = st.sampled_from(LEAVES).map(lambda s: T("leaf", leaf=s))
    return st.recursive(
        leaf,
        lambda inner: st.builds(
            lambda op, a, b: T(op, (a, b)), st.sampled_from(["+", "*", "^", "frac"]), inner, inner
        ),
        max_leaves=2**depth,
    )


def _views_agree(tg: TermGraph) -> None:
    assert structurally_equal(parse_latex(tg.latex), tg.graph)
    ids = [n.id for n in tg.graph.nodes()]
    assert len(ids) == len(set(ids))


def _mirror_agrees(tg: TermGraph, update: Update, start: str) -> None:
    mirror = TermGraph(start)
    assert mirror.accept(update)
    assert mirror.graph == tg.graph  # ids included
    assert not mirror.accept(update)  # an echo is ignored


FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(trees(), trees(2), st.data())
def test_graph_side_replace_keeps_every_id_outside_the_edit(
    start: T, piece: T, data: st.DataObject
) -> None:
    tg = TermGraph(start.tex())
    before = {n.id: n.signature() for n in tg.graph.nodes()}
    target = data.draw(st.sampled_from(sorted(before)))
    inside = {n.id for n in tg.graph.node(target).walk()}
    update = tg.replace(target, piece.tex())
    _views_agree(tg)
    if update is None:
        return
    after = {n.id: n.signature() for n in tg.graph.nodes()}
    untouched = [i for i in before if i not in inside and not _is_ancestor(tg, i, target, before)]
    for node_id in untouched:  # every sub-term outside the edit persists with its id
        assert after.get(node_id) == before[node_id]
    _mirror_agrees(tg, update, start.tex())


def _is_ancestor(tg: TermGraph, node_id: int, target: int, before: dict[int, object]) -> bool:
    """Ancestors of the edited node change shape (a new child) but are not 'untouched'."""
    return node_id not in tg.graph or before[node_id] != tg.graph.node(node_id).signature()


@FAST
@given(trees(), trees(2), st.data())
def test_term_side_edits_keep_views_equal_and_ids_of_persisting_subterms(
    start: T, piece: T, data: st.DataObject
) -> None:
    edited = _replace_random(start, piece, data)
    tg = TermGraph(start.tex())
    old = {n.signature(): n.id for n in tg.graph.nodes() if not n.is_leaf}
    counts_old = _counts(tg)
    update = tg.edit_term(edited.tex())
    _views_agree(tg)
    if update is None:
        assert structurally_equal(parse_latex(edited.tex()), parse_latex(start.tex()))
        return
    counts_new = _counts(tg)
    new = {n.signature(): n.id for n in tg.graph.nodes() if not n.is_leaf}
    for sig, node_id in old.items():
        # A compound sub-term that occurs exactly once before and after keeps its id.
        if counts_old[sig] == 1 and counts_new.get(sig) == 1:
            assert new[sig] == node_id
    _mirror_agrees(tg, update, start.tex())


def _counts(tg: TermGraph) -> dict[object, int]:
    out: dict[object, int] = {}
    for n in tg.graph.nodes():
        out[n.signature()] = out.get(n.signature(), 0) + 1
    return out


def _replace_random(tree: T, piece: T, data: st.DataObject) -> T:
    if tree.op == "leaf" or data.draw(st.integers(0, 3)) == 0:
        return piece
    i = data.draw(st.integers(0, 1))
    kids = list(tree.kids)
    kids[i] = _replace_random(kids[i], piece, data)
    return T(tree.op, tuple(kids))


def test_updates_never_bounce_between_two_linked_views() -> None:
    a, b = TermGraph("x^2 + 3x"), TermGraph("x^2 + 3x")
    seen: list[str] = []

    def to_b(up: Update) -> None:
        seen.append("a→b")
        b.accept(up)
        b.edit_term(up.latex)  # the other view "echoes" the change as its own edit: a no-op

    a.subscribe(to_b)
    b.subscribe(lambda up: (seen.append("b→a"), a.accept(up)))
    a.edit_term("x^2 + 3x + 1")
    a.replace(a.find("1")[0], "y")
    assert seen == ["a→b", "a→b"]
    assert b.graph == a.graph and b.version == a.version == 2


def test_respelling_is_not_an_edit() -> None:
    tg = TermGraph("2x + 1")
    assert tg.edit_term("2x+1") is None and tg.version == 0
    assert tg.latex == "2x+1"  # the term keeps the person's spelling
    update = tg.edit_term(r"2 \cdot x + 1")  # an explicit dot is a (written) change …
    assert update is not None and not update.added and not update.removed  # … that keeps every id


def test_selecting_a_glyph_picks_its_subterm() -> None:
    tg = TermGraph(r"\frac{x + 1}{2} = y")
    one = tg.find("1")[0]
    parent = tg.select(one).path[-2]
    picked = tg.select(parent)
    assert picked.latex == "x + 1" and picked.kind == "add"
    with pytest.raises(InputError, match="no sub-term"):
        tg.select(999)


def test_a_bad_edit_changes_nothing() -> None:
    tg = TermGraph("x + 1")
    with pytest.raises(InputError):
        tg.edit_term(r"x + \frac{1}{")
    assert tg.latex == "x + 1" and tg.version == 0
