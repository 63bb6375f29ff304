"""Measure the matcher against hand-labelled state pairs: % correct and ∨-branch crossings.

A case is two s-expressions whose interesting nodes carry tags (``x#1``). A tag in both trees says
"these two nodes are the same glyph"; a tag on one side only says "this node is new" (or deleted).
Each tagged node is one labelled correspondence.

>>> report = evaluate([{"name": "swap", "before": "(= (+ a#a b#b) c#c)",
...                     "after": "(= (+ b#b a#a) c#c)"}])
>>> report.correct, report.total, report.crossings
(3, 3, 0)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from veristep.animate.rebase import match
from veristep.animate.tree import Node, from_sexpr


@dataclass
class QualityReport:
    correct: int = 0
    total: int = 0
    crossings: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 1.0

    def line(self) -> str:
        return (
            f"{self.correct}/{self.total} labelled correspondences correct "
            f"({100 * self.accuracy:.1f} %), {self.crossings} branch crossings"
        )


def load_cases(path: Path) -> list[dict[str, Any]]:
    """One JSON object per line; blank lines and ``//`` comments are skipped."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("//"):
            cases.append(json.loads(line))
    return cases


def evaluate(cases: Iterable[Mapping[str, Any]]) -> QualityReport:
    report = QualityReport()
    for case in cases:
        before, after = from_sexpr(case["before"]), from_sexpr(case["after"])
        pairs = match(before, after, _hint(case, before, after))
        _score(case["name"], before, after, pairs, report)
        report.crossings += crossings(before, after, pairs)
    return report


def _hint(case: Mapping[str, Any], before: Node, after: Node) -> dict[int, int] | None:
    """A planner hint written with tags: ``{"hint": {"tagA": "tagB"}}``."""
    if "hint" not in case:
        return None
    b, a = _tagged(before), _tagged(after)
    return {b[tb].ident: a[ta].ident for tb, ta in case["hint"].items()}


def _tagged(root: Node) -> dict[str, Node]:
    return {n.tag: n for n in root.walk() if n.tag}


def _score(
    name: str, before: Node, after: Node, pairs: Mapping[Node, Node], report: QualityReport
) -> None:
    b_tags, a_tags = _tagged(before), _tagged(after)
    matched_prev = set(pairs.values())
    for tag, v in a_tags.items():
        report.total += 1
        want = b_tags.get(tag)
        got = pairs.get(v)
        if got is want:
            report.correct += 1
        else:
            report.failures.append(f"{name}: {tag} → {_describe(got)} (want {_describe(want)})")
    for tag, u in b_tags.items():
        if tag in a_tags:
            continue
        report.total += 1
        if u not in matched_prev:
            report.correct += 1
        else:
            report.failures.append(f"{name}: deleted {tag} was matched")


def _describe(node: Node | None) -> str:
    if node is None:
        return "new"
    return f"{node.label}#{node.tag}" if node.tag else f"{node.label}@{node.ident}"


def crossings(before: Node, after: Node, pairs: Mapping[Node, Node]) -> int:
    """Matched pairs whose ∨-branch relation differs between the two states.

    Two matched nodes that lie in different branches of one ∨ on one side and in the same branch
    of one ∨ on the other side (or the reverse) are a crossing: a glyph would fly between branches.
    """
    items = list(pairs.items())
    count = 0
    for k, (v1, u1) in enumerate(items):
        for v2, u2 in items[k + 1 :]:
            p, q = _branch_relation(u1, u2), _branch_relation(v1, v2)
            if p is not None and q is not None and p != q:
                count += 1
    return count


def _branch_relation(a: Node, b: Node) -> str | None:
    """``same``/``different`` branch under the lowest ∨ that holds both; None if none does."""
    path_a = _ancestors(a)
    proper_b = {id(n) for n in _ancestors(b)[1:]}
    for child, anc in pairwise(path_a):
        if anc.branching and id(anc) in proper_b:
            return "same" if _under(b, child) else "different"
    return None


def _ancestors(node: Node) -> list[Node]:
    out = [node]
    while out[-1].parent is not None:
        out.append(out[-1].parent)
    return out


def _under(node: Node, top: Node) -> bool:
    while node is not None:
        if node is top:
            return True
        node = node.parent
    return False
