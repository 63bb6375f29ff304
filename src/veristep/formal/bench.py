"""Benchmark runs: load miniF2F-rocq, search every theorem, write JSONL, resume, summarize.

Each line of the output records one theorem: whether the 17-tactic portfolio, Best-of-N (phase 1)
and the two-phase search solved it, the proof, Coq calls, seconds and tokens, and the failure
classes by signal. Because phase 1 checks the portfolio first, the three columns come from one run
on the same statements, and ``portfolio ⊆ best_of_n ⊆ two_phase`` holds by construction.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from veristep.formal.backends.base import Theorem
from veristep.formal.coq_text import declared_axioms
from veristep.formal.search import SearchResult

BENCHMARKS = ("minif2f-rocq",)


def load_minif2f(split: str = "test", only_compiling: bool = True) -> list[Theorem]:
    """The miniF2F-rocq statements of ``split`` (by default those that compile on Coq 8.16)."""
    from veristep.core.datasets import require_shared_data

    path = require_shared_data("minif2f_rocq", "minif2f_rocq.jsonl")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["split"] != split or (only_compiling and not row["coq816_debian_ok"]):
            continue
        out.append(
            Theorem(
                name=row["name"],
                header=row["header"],
                statement=row["statement"],
                allowed_axioms=frozenset(declared_axioms(row["header"])),
                split=split,
            )
        )
    return out


def record(result: SearchResult) -> dict[str, Any]:
    """The JSONL row of one theorem."""
    row = result.to_json()
    row["portfolio_solved"] = result.phase == "portfolio"
    row["best_of_n_solved"] = result.phase in ("portfolio", "best_of_n")
    row["two_phase_solved"] = result.solved
    return row


def done_names(out_path: Path) -> set[str]:
    """Theorems already recorded in ``out_path`` (a torn last line from a kill is ignored)."""
    if not out_path.exists():
        return set()
    names = set()
    for line in out_path.read_text(encoding="utf-8").splitlines():
        try:
            names.add(json.loads(line)["name"])
        except (ValueError, KeyError, TypeError):
            continue
    return names


def run_benchmark(
    theorems: list[Theorem],
    solve: Callable[[Theorem], SearchResult],
    out_path: Path,
    resume: bool = True,
    total_budget_s: float | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Solve every theorem not yet in ``out_path``, appending one JSON line each as it finishes."""
    import time

    started = time.monotonic()
    skip = done_names(out_path) if resume else set()
    if not resume and out_path.exists():
        out_path.unlink()
    out_path.parent.mkdir(parents=True, exist_ok=True)
    _end_torn_line(out_path)
    # Theorems sharing a header share one warm Coq session: group them.
    todo = sorted((t for t in theorems if t.name not in skip), key=lambda t: (t.header, t.name))
    rows = []
    for theorem in todo:
        if total_budget_s is not None and time.monotonic() - started > total_budget_s:
            break
        row = record(solve(theorem))
        with out_path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        rows.append(row)
        if on_result is not None:
            on_result(row)
    return rows


def _end_torn_line(out_path: Path) -> None:
    """A run killed mid-write leaves a line without its newline: close it so that the next row
    starts on a line of its own (the torn line is then skipped by every reader)."""
    if out_path.exists() and out_path.stat().st_size:
        with out_path.open("rb") as handle:
            handle.seek(-1, 2)
            last = handle.read(1)
        if last != b"\n":
            with out_path.open("a", encoding="utf-8") as handle:
                handle.write("\n")


def read_rows(out_path: Path, names: Iterable[str] | None = None) -> list[dict[str, Any]]:
    wanted = set(names) if names is not None else None
    rows = []
    for line in out_path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if wanted is None or row.get("name") in wanted:
            rows.append(row)
    return rows


def summarize(rows: list[dict[str, Any]], total: int | None = None) -> dict[str, Any]:
    """Solve counts per system, time, and the failure classes of the unsolved by dominant signal."""
    total = total if total is not None else len(rows)
    unsolved = [r for r in rows if not r["two_phase_solved"]]
    dominant: Counter[str] = Counter()
    for row in unsolved:
        kinds = Counter(row.get("failures") or {})
        dominant[kinds.most_common(1)[0][0] if kinds else "none"] += 1
    systems = {}
    for key, label in (
        ("portfolio_solved", "portfolio"),
        ("best_of_n_solved", "best_of_n"),
        ("two_phase_solved", "two_phase"),
    ):
        solved = sum(1 for r in rows if r[key])
        systems[label] = {"solved": solved, "rate": round(solved / total, 4) if total else 0.0}
    return {
        "theorems": total,
        "run": len(rows),
        "systems": systems,
        "seconds": round(sum(r["seconds"] for r in rows), 1),
        "coq_calls": sum(r["coq_calls"] for r in rows),
        "tokens": sum(r.get("tokens", 0) for r in rows),
        "unsolved_by_dominant_signal": dict(dominant.most_common()),
    }
