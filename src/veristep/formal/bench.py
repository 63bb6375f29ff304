"""Benchmark runs: load miniF2F-rocq, search every theorem, write JSONL, resume, summarize.

Each line of the output records one theorem: whether the 17-tactic portfolio, Best-of-N (phase 1)
and the two-phase search solved it, the proof, Coq calls, seconds and tokens, and the failure
classes by signal. Because phase 1 checks the portfolio first, the three columns come from one run
on the same statements, and ``portfolio ⊆ best_of_n ⊆ two_phase`` holds by construction.

The theorems run on the batch engine (``core.batch``): in this process, on a local process pool or
on Ray, with every finished theorem committed to a result store beside the JSONL (keyed by the
statement and the search parameters), so an interrupted run resumes and a theorem whose search
fails costs only its own line.
"""

from __future__ import annotations

import atexit
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from veristep.formal.backends.base import Theorem
from veristep.formal.coq_text import declared_axioms
from veristep.formal.search import Phase, SearchResult

if TYPE_CHECKING:
    from veristep.core.batch import Backend
    from veristep.core.settings import Settings

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
    row["portfolio_solved"] = result.phase == Phase.PORTFOLIO
    row["best_of_n_solved"] = result.phase in (Phase.PORTFOLIO, Phase.BEST_OF_N)
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


Solver = Callable[[Theorem], SearchResult]


@dataclass(frozen=True)
class BenchSearch:
    """The proof search of a benchmark run, as a picklable value: each worker process builds its
    own Coq session and agents from it once and keeps them warm for the theorems it is given."""

    settings: Settings
    model: str | None = None
    n: int = 64
    mcts_iterations: int = 40
    expansion_k: int = 12
    theorem_budget_s: float = 60.0

    def __call__(self, theorem: Theorem) -> SearchResult:
        from veristep.formal.search import ProofSearch

        backend, agents = _warm(self)
        search = ProofSearch(
            theorem, backend, agents, n=self.n, mcts_iterations=self.mcts_iterations,
            expansion_k=self.expansion_k, budget_s=self.theorem_budget_s,
        )  # fmt: skip
        return search.run()

    def salt(self) -> str:
        """What a stored row depends on besides the statement: a changed search runs again."""
        from veristep import __version__

        s = self.settings
        return (
            f"veristep {__version__}: model={self.model}, n={self.n}, "
            f"mcts={self.mcts_iterations}, k={self.expansion_k}, budget={self.theorem_budget_s}, "
            f"tactic={s.coq_tactic_timeout_s}, memory={s.coq_memory_mb}"
        )


_WARM: dict[BenchSearch, tuple[Any, Any]] = {}  # per process: one Coq session and agents


def _warm(search: BenchSearch) -> tuple[Any, Any]:
    if search not in _WARM:
        from veristep.formal.agents import Critic, Retriever, Strategist, Tactician
        from veristep.formal.backends.coq import CoqBackend
        from veristep.formal.retriever import cached_index
        from veristep.formal.search import Agents

        settings = search.settings
        lm = None
        if search.model:
            from veristep.llm.config import make_lm

            lm = make_lm(search.model, settings)
        index = cached_index(settings.data_dir / "formal")
        agents = Agents(Strategist(lm), Retriever(index, lm), Critic(lm), Tactician(lm))
        _WARM[search] = (CoqBackend(settings), agents)
    return _WARM[search]


@atexit.register
def close_warm() -> None:
    """Stop this process's Coq sessions (a worker's also die with it: coqtop has a death signal)."""
    while _WARM:
        _, (backend, _agents) = _WARM.popitem()
        backend.close()


def prove_task(task: dict[str, Any], solve: Solver) -> dict[str, Any]:
    """One benchmark theorem as a batch-engine task: its JSONL row."""
    theorem = Theorem(
        name=task["name"], header=task["header"], statement=task["statement"],
        allowed_axioms=frozenset(task["allowed_axioms"]), split=task.get("split"),
    )  # fmt: skip
    return record(solve(theorem))


def theorem_task(theorem: Theorem) -> dict[str, Any]:
    return {
        "name": theorem.name, "header": theorem.header, "statement": theorem.statement,
        "allowed_axioms": sorted(theorem.allowed_axioms), "split": theorem.split,
    }  # fmt: skip


def error_row(name: str, error: str) -> dict[str, Any]:
    """The row of a theorem whose search failed (it raised, or kept killing its worker):
    unsolved, with the failure named, so the run and its summary go on."""
    return {
        "name": name, "solved": False, "phase": None, "proof": None, "coq_calls": 0,
        "seconds": 0.0, "tokens": 0, "attempts": 0, "failures": {"error": 1}, "verdict": error,
        "mcts_iterations": 0, "portfolio_solved": False, "best_of_n_solved": False,
        "two_phase_solved": False, "error": error,
    }  # fmt: skip


def store_path(out_path: Path) -> Path:
    """The result store of a run: beside its JSONL."""
    return out_path.with_suffix(".sqlite")


def run_benchmark(
    theorems: list[Theorem],
    solve: Solver,
    out_path: Path,
    resume: bool = True,
    total_budget_s: float | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    *,
    backend: Backend | None = None,
    salt: str = "",
    progress: bool = False,
) -> list[dict[str, Any]]:
    """Solve every theorem not yet in ``out_path``, appending one JSON line each as it finishes.

    ``solve`` runs in the workers of ``backend`` (default: this process), so for a pool or Ray it
    must pickle (a :class:`BenchSearch`). Without ``resume`` the JSONL and the store start empty.
    """
    from veristep.core.batch import ResultStore, SerialBackend, remove_store, run_batch

    started = time.monotonic()
    skip = done_names(out_path) if resume else set()
    if not resume:
        out_path.unlink(missing_ok=True)
        remove_store(store_path(out_path))
    out_path.parent.mkdir(parents=True, exist_ok=True)
    _end_torn_line(out_path)
    # Theorems sharing a header share one warm Coq session: group them.
    todo = sorted((t for t in theorems if t.name not in skip), key=lambda t: (t.header, t.name))
    rows: list[dict[str, Any]] = []

    def keep(index: int, result: dict[str, Any]) -> None:
        row = result if "error" not in result else error_row(todo[index].name, result["error"])
        with out_path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        rows.append(row)
        if on_result is not None:
            on_result(row)

    def spent() -> bool:
        return total_budget_s is not None and time.monotonic() - started > total_budget_s

    store = ResultStore(store_path(out_path))
    try:
        run_batch(
            prove_task, [theorem_task(t) for t in todo], store, backend or SerialBackend(),
            context=solve, salt=salt, progress=progress, label="proving", on_result=keep,
            stop=spent,
        )  # fmt: skip
    finally:
        store.close()
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
