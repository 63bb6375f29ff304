"""Yield as the ALPS paper measures it: AUSTIN_PROVEN laws per 1,000 *screened* candidates.

The paper's 20.5 / 24.4 / 25.4 per thousand (orders 6, 7, 8) are the Austin-proven laws among
the candidates that reached screening (``final_status.jsonl``: 29/1,418, 117/4,803, 105/4,138).
This is not ``admissible_per_1000`` of ``alps grow``, which counts AUSTIN_PROVEN + NO_FINITE_MODEL
over *raw* generated candidates. Beside it: new equivalence classes per 1,000 screened — a class
of Austin laws (merged by proven equivalences) is new at the lowest order of its members.

>>> rows = [("x = y ◇ (x ◇ y)", "AUSTIN_PROVEN"), ("x = y ◇ (y ◇ x)", "TRIVIAL")]
>>> [r.to_json()["austin_per_1000"] for r in yield_table(rows)]
[500.0]

A class that holds a known law (named by the merges, not screened here) is not new:

>>> fresh = [("x = y ◇ (x ◇ y)", "AUSTIN_PROVEN"), ("x = (y ◇ x) ◇ y", "AUSTIN_PROVEN")]
>>> yield_table(fresh, [("x = (y ◇ x) ◇ y", "x = y ◇ (y ◇ x)")])[0].new_classes
1
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from veristep.alps.terms import parse_law

PAPER_AUSTIN_PER_1000 = {6: 20.5, 7: 24.4, 8: 25.4}
AUSTIN = "AUSTIN_PROVEN"
ADMISSIBLE = frozenset({AUSTIN, "NO_FINITE_MODEL"})


@dataclass(frozen=True)
class OrderYield:
    order: int
    screened: int
    austin: int
    admissible: int
    new_classes: int | None  # None when no equivalence merges were given

    def to_json(self) -> dict[str, object]:
        per_k = 1000 / max(1, self.screened)
        row: dict[str, object] = {
            "order": self.order,
            "screened": self.screened,
            "austin_proven": self.austin,
            "austin_per_1000": round(self.austin * per_k, 1),
            "admissible_per_1000_screened": round(self.admissible * per_k, 1),
        }
        if self.new_classes is not None:
            row["new_classes"] = self.new_classes
            row["new_classes_per_1000"] = round(self.new_classes * per_k, 1)
        if self.order in PAPER_AUSTIN_PER_1000:
            row["paper_austin_per_1000"] = PAPER_AUSTIN_PER_1000[self.order]
        return row


def read_status_file(path: Path) -> list[tuple[str, str]]:
    """(law, status) rows of a ``final_status.jsonl``-shaped file (or ``alps screen --out``)."""
    rows: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            rows.append((str(rec["law"]), str(rec["status"])))
    return rows


def read_merges(path: Path) -> list[tuple[str, str]]:
    """Proven-equivalent pairs: ``merged`` of a ``classes_full.json``-shaped file, or the
    ``classes`` lists that ``veristep alps dedup --json`` prints (each class chained pairwise).

    >>> import tempfile
    >>> f = Path(tempfile.mkdtemp()) / "c.json"
    >>> _ = f.write_text('{"classes": [["a", "b", "c"], ["d"]], "undecided": 0}')
    >>> read_merges(f)
    [('a', 'b'), ('b', 'c')]
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    if "merged" in data:
        return [(str(a), str(b)) for a, b in data["merged"]]
    classes = data.get("classes")
    if not isinstance(classes, list):
        raise ValueError("neither 'merged' pairs nor 'classes' lists")
    return [(str(a), str(b)) for cls in classes for a, b in pairwise(cls)]


def _classes(laws: Iterable[str], merges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Union-find over ``laws`` with the given equivalences (pairs outside ``laws`` ignored)."""
    parent = {law: law for law in laws}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in merges:
        if a in parent and b in parent:
            parent[find(a)] = find(b)
    groups: dict[str, list[str]] = {}
    for law in parent:
        groups.setdefault(find(law), []).append(law)
    return list(groups.values())


def yield_table(
    rows: Iterable[tuple[str, str]], merges: Iterable[tuple[str, str]] | None = None
) -> list[OrderYield]:
    """Per order: screened candidates, Austin-proven laws, admissible ones, new classes."""
    order_of: dict[str, int] = {}
    screened: Counter[int] = Counter()
    austin: Counter[int] = Counter()
    admissible: Counter[int] = Counter()
    for law, status in rows:
        order = parse_law(law).order
        order_of[law] = order
        screened[order] += 1
        austin[order] += status == AUSTIN
        admissible[order] += status in ADMISSIBLE
    new: Counter[int] | None = None
    if merges is not None:
        # A law that the merges name but the rows do not is a known one (an earlier corpus the
        # screened laws were compared with): a class holding one is not new.
        merges = list(merges)
        austin_laws = [law for law, status in rows if status == AUSTIN]
        known = {law for pair in merges for law in pair} - set(order_of)
        classes = _classes([*austin_laws, *sorted(known)], merges)
        new = Counter(min(order_of[m] for m in c) for c in classes if not set(c) & known)
    return [
        OrderYield(o, screened[o], austin[o], admissible[o], None if new is None else new[o])
        for o in sorted(screened)
    ]


def format_table(table: list[OrderYield]) -> str:
    head = "order  screened  austin  per 1000  paper  new classes  per 1000"
    lines = [head]
    for y in table:
        j = y.to_json()
        paper = j.get("paper_austin_per_1000", "")
        lines.append(
            f"{y.order:>5}  {y.screened:>8}  {y.austin:>6}  {j['austin_per_1000']:>8}  "
            f"{paper!s:>5}  {j.get('new_classes', ''):>11}  {j.get('new_classes_per_1000', ''):>8}"
        )
    return "\n".join(lines)
