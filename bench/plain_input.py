"""How the plain-maths reader does on typed student input: read as meant, refused, misread.

    python bench/plain_input.py [-v]

Reads the two parts of tests/data/student_input (dev.jsonl, used while building the reader,
and heldout.jsonl, written first and not looked at while tuning) and prints, for each part:
how many inputs with an intended meaning were read as meant, how many were refused with a
located message, how many were misread (a reading that differs from the meaning) or refused
without a position; and how many inputs labelled "refuse" (ambiguous, or outside what the graph
can hold) were refused. ``-v`` lists every input that was not read as meant.
"""

from __future__ import annotations

import contextlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "student_input"


@dataclass
class Outcome:
    """One input's fate: "meant", "refused" (located), "misread", or "unlocated"."""

    row: dict[str, Any]
    verdict: str
    detail: str = ""


@dataclass
class Score:
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, verdict: str, labelled_refuse: bool) -> int:
        return sum(
            1
            for o in self.outcomes
            if o.verdict == verdict and bool(o.row.get("refuse")) == labelled_refuse
        )

    def lines(self, name: str) -> list[str]:
        meant = [o for o in self.outcomes if not o.row.get("refuse")]
        refuse = [o for o in self.outcomes if o.row.get("refuse")]
        ok = self.count("meant", False)
        ok_refuse = self.count("refused", True)
        total = len(self.outcomes)
        return [
            f"{name}: {total} inputs",
            f"  with an intended meaning: {len(meant)}; read as meant {ok} "
            f"({100 * ok / max(len(meant), 1):.1f} %), refused with a position "
            f"{self.count('refused', False)}, misread {self.count('misread', False)}, "
            f"refused without a position {self.count('unlocated', False)}",
            f"  labelled 'refuse' (ambiguous or outside the graph): {len(refuse)}; refused with "
            f"a position {ok_refuse}, read anyway {len(refuse) - ok_refuse}",
            f"  overall as intended (read as meant, or refused where labelled so): "
            f"{ok + ok_refuse}/{total} ({100 * (ok + ok_refuse) / max(total, 1):.1f} %); "
            f"silent misreadings: {self.count('misread', False) + len(refuse) - ok_refuse}",
        ]


def load(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def same(a: Any, b: Any) -> bool:
    """Mathematically the same reading: equal SymPy forms, sides equal after expansion, and
    the operands of ∧/∨ matched in any order."""
    import sympy as sp

    if a == b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, sp.Expr):
        return sp.expand(a - b) == 0
    if isinstance(a, sp.core.relational.Relational):
        return same(a.lhs, b.lhs) and same(a.rhs, b.rhs)
    if isinstance(a, (sp.And, sp.Or, sp.Implies, sp.Equivalent)):
        left, right = list(a.args), list(b.args)
        if len(left) != len(right):
            return False
        if isinstance(a, sp.Implies):
            return all(same(x, y) for x, y in zip(left, right, strict=True))
        for x in left:
            match = next((y for y in right if same(x, y)), None)
            if match is None:
                return False
            right.remove(match)
        return True
    if a.func == b.func and len(a.args) == len(b.args):
        return all(same(x, y) for x, y in zip(a.args, b.args, strict=True))
    return False


def judge(row: dict[str, Any]) -> Outcome:
    from veristep.core.errors import InputError
    from veristep.mathgraph import branches, parse_latex, parse_math, to_latex

    try:
        graph = parse_math(row["input"])
        reading = branches(graph)
    except InputError as err:
        located = err.position is not None and err.source == row["input"]
        return Outcome(row, "refused" if located else "unlocated", err.one_line())
    shown = to_latex(graph)
    if row.get("refuse"):
        return Outcome(row, "misread", f"read as {shown}")
    meant = branches(parse_latex(row["latex"]))
    if len(meant) == len(reading) and all(same(x, y) for x, y in zip(meant, reading, strict=True)):
        return Outcome(row, "meant", shown)
    return Outcome(row, "misread", f"read as {shown}, meant {row['latex']}")


def score(rows: list[dict[str, Any]]) -> Score:
    return Score([judge(row) for row in rows])


def timing(rows: list[dict[str, Any]], rounds: int = 5) -> tuple[float, float]:
    """Median and 95th percentile of one plain parse, in milliseconds."""
    import statistics
    import time

    from veristep.core.errors import InputError
    from veristep.mathgraph import parse_math

    samples = []
    for _ in range(rounds):
        for row in rows:
            began = time.perf_counter()
            with contextlib.suppress(InputError):
                parse_math(row["input"])
            samples.append((time.perf_counter() - began) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    for name, label in (("dev.jsonl", "dev (used while tuning)"),
                        ("heldout.jsonl", "held-out (written first, not tuned on)")):  # fmt: skip
        result = score(load(name))
        print("\n".join(result.lines(label)))
        if verbose:
            for o in result.outcomes:
                wanted = "refused" if o.row.get("refuse") else "meant"
                if o.verdict != wanted:
                    print(f"    {o.row['id']} {o.verdict:9} {o.row['input']!r}: {o.detail}")
    median, p95 = timing(load("dev.jsonl") + load("heldout.jsonl"))
    print(f"parse time per input (reading only): median {median:.2f} ms, p95 {p95:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    raise SystemExit(main(sys.argv[1:]))
