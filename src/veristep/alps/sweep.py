"""ALPS part 2: the prover-portfolio sweep — configurations × a budget ladder, resumable.

Every installed prover mode is a configuration asking one question of a law: ``triv``
(L ⊢ x = y) or ``sat`` (saturate L ∪ {a ≠ b}). A law climbs the ladder (30, 60, 120, 300, 600 s)
and leaves it once any configuration resolves it: TRIVIAL (a proof) or AUSTIN (a complete
saturation — a model certificate). Our own ordered completion (``veristep/ordered``) is a
member too, the construction side: a saturated presentation it builds is a model certificate,
re-checked from scratch by the judge's ground-joinability checker. Every resolution is re-checked
by the judge before it counts; a timeout is never a resolution.

Cells (law, config, budget) run on the batch engine (``core.batch``) — a local process pool, or
Ray for a cluster — by the same ``run_ladder`` code path; each finished cell is committed to
SQLite at once, so an interrupted sweep resumes where it stopped, and a cell whose worker died
runs again.
"""

from __future__ import annotations

import sqlite3
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from veristep.alps.provers import EProver, Prover, Prover9, Twee, Vampire
from veristep.alps.terms import parse_law
from veristep.alps.tptp import nontriviality_problem, triviality_problem
from veristep.core.batch import Backend, run_batch, task_key
from veristep.core.batch import LocalBackend as LocalBackend  # the sweep's local pool

DEFAULT_BUDGETS = (30, 60, 120, 300, 600)
_PROVERS: dict[str, Callable[[], Prover]] = {
    "e/auto": lambda: EProver("auto"),
    "e/satauto": lambda: EProver("satauto"),
    "e3/auto": lambda: EProver("auto", release="3"),
    "e3/satauto": lambda: EProver("satauto", release="3"),
    "vampire": Vampire,
    "twee": Twee,
    "prover9": Prover9,
    "ordered": lambda: OrderedCompletionConfig(),
}
# (config name, prover key, question); Prover9 has no complete-saturation verdict.
CONFIGS = (
    ("e/triv/auto", "e/auto", "triv"),
    ("e/sat/satauto", "e/satauto", "sat"),
    ("e3/triv/auto", "e3/auto", "triv"),
    ("e3/sat/satauto", "e3/satauto", "sat"),
    ("vampire/triv/casc", "vampire", "triv"),
    ("vampire/sat/otter", "vampire", "sat"),
    ("twee/complete", "twee", "triv"),
    ("prover9/triv", "prover9", "triv"),
    ("veristep/ordered", "ordered", "complete"),  # our ordered completion (the construction side)
)


class OrderedCompletionConfig:
    """Our own ordered completion as a portfolio member: pure Python, always available."""

    name = "veristep/ordered"

    def unavailable(self) -> str | None:
        return None


@dataclass(frozen=True)
class Cell:
    law: str
    config: str
    budget: int


@dataclass(frozen=True)
class CellResult:
    law: str
    config: str
    budget: int
    verdict: str  # "TRIVIAL" | "AUSTIN" | ""
    status: str  # the prover's SZS status (or Timeout / Error)
    secs: float
    recheck: str  # how the judge confirmed the resolution, or why it did not
    certificate: dict[str, Any]

    def row(self) -> dict[str, Any]:
        """ALPS's ``baseline_v1.jsonl`` shape, plus our status and re-check."""
        return {
            "config": self.config,
            "budget": self.budget,
            "verdict": self.verdict,
            "secs": round(self.secs, 2),
            "law": self.law,
            "status": self.status,
            "recheck": self.recheck,
        }


def config_names(available_only: bool = True) -> list[str]:
    """Configurations whose prover can run here (E at least)."""
    return [
        name
        for name, key, _ in CONFIGS
        if not available_only or _PROVERS[key]().unavailable() is None
    ]


def _config(name: str) -> tuple[str, str]:
    for cname, key, question in CONFIGS:
        if cname == name:
            return key, question
    raise KeyError(name)


WALL_TIMEOUT = "Timeout"  # the prover's wall deadline, as opposed to its CPU budget (ResourceOut)
RECHECK_FACTOR = 4  # the judge's re-check gets four times the finder's CPU budget
_OUT_OF_TIME = frozenset({"Timeout", "ResourceOut"})


def recheck_budget(budget: float) -> float:
    """The judge's own, larger CPU budget for re-checking a resolution found within ``budget``."""
    return budget * RECHECK_FACTOR


def _recheck(law_text: str, verdict: str, budget: int, memory_mb: int, key: str = "e/auto") -> str:
    """Confirm a resolution with the judge, under its own larger budget: TRIVIAL is re-proved;
    AUSTIN goes through the construction channel with E = {law} (the law certifies itself).

    The judge's prover goes first; if it runs out of time, the configuration that found the
    result is re-run under the judge's budget in a fresh process. A resolution is never thrown
    away for time: when both run out, it is kept and marked ``kept:`` (found by a sound prover,
    not reproduced); it is discarded only when a re-check *completes* without confirming it."""
    from veristep.alps.judge import construction

    law = parse_law(law_text)
    cpu = recheck_budget(budget)
    checkers = [("judge", EProver("auto"))]
    if key != "e/auto":
        checkers.append((f"judge with {key}", _PROVERS[key]()))
    statuses: list[str] = []
    for who, prover in checkers:
        if verdict == "TRIVIAL":
            res = prover.run(triviality_problem(law), cpu, memory_mb)
            if res.proved:
                return f"{who}: proof reproduced ({cpu:g} s budget)"
            statuses.append(res.status)
        else:
            result = construction.certify(law, [law], prover, cpu, memory_mb)
            if result.certified:
                return f"{who}: certified (E = {{law}}, {cpu:g} s budget)"
            statuses.append(result.nonvacuity.status if result.correctness.passed else "Error")
    if all(st in _OUT_OF_TIME for st in statuses):
        return f"kept: re-checks ran out of their {cpu:g} s budget ({', '.join(statuses)})"
    return f"unconfirmed: judge got {', '.join(statuses)}"


def run_cell(cell: Cell, memory_mb: int = 4096, recheck: bool = True) -> CellResult:
    """One prover run, classified and re-checked. Module-level, so process pools and Ray can
    ship it by reference."""
    key, question = _config(cell.config)
    if question == "complete":
        return _run_ordered_cell(cell, memory_mb, recheck)
    law = parse_law(cell.law)
    problem = triviality_problem(law) if question == "triv" else nontriviality_problem([law])
    res = _PROVERS[key]().run(problem, float(cell.budget), memory_mb)
    verdict = "TRIVIAL" if res.proved else "AUSTIN" if res.model else ""
    note = ""
    if verdict and recheck:
        note = _recheck(cell.law, verdict, cell.budget, memory_mb, key)
        if note.startswith("unconfirmed"):
            verdict = ""
    cert = {
        "law": cell.law,
        "config": cell.config,
        "budget": cell.budget,
        "problem": problem.tptp,
        "command": list(res.command),
        "status": res.status,
        "transcript": res.output if verdict else res.output[-4000:],
    }
    return CellResult(
        cell.law, cell.config, cell.budget, verdict, res.status, res.ms / 1000, note, cert
    )


def _run_ordered_cell(cell: Cell, memory_mb: int, recheck: bool) -> CellResult:
    """Ordered completion for ``cell.budget`` CPU seconds. A saturated presentation is re-checked
    from scratch by the judge's ground-joinability checker (``judge.ground_model``); a derived
    collapse (x = t without x) is re-proved by the judge's prover like any TRIVIAL."""
    from veristep.alps.judge.ground_model import check_ordered
    from veristep.alps.ordered_completion import complete_ordered, from_law

    law = parse_law(cell.law)
    cpu_start = time.process_time()
    result = complete_ordered(law, seconds=float(cell.budget))
    cpu_spent = time.process_time() - cpu_start
    status = _ordered_status(result.status, result.detail, cpu_spent, cell.budget)
    verdict = "AUSTIN" if result.model else "TRIVIAL" if result.status == "trivial" else ""
    note = ""
    if verdict == "AUSTIN" and recheck:
        check = check_ordered(from_law(law), result.equations, work_limit=ORDERED_RECHECK_WORK)
        note = f"judge: {check.reason}" if check.certified else f"unconfirmed: {check.reason}"
    elif verdict == "TRIVIAL" and recheck:
        note = _recheck(cell.law, verdict, cell.budget, memory_mb)
    if note.startswith("unconfirmed"):
        verdict = ""
    cert = {
        "law": cell.law,
        "config": cell.config,
        "budget": cell.budget,
        "status": status,
        "detail": result.detail,
        "presentation": [str(eq) for eq in result.equations] if verdict else [],
        "check": result.check.to_json() if result.check else None,
    }
    return CellResult(
        cell.law, cell.config, cell.budget, verdict, status, result.seconds, note, cert
    )


ORDERED_RECHECK_WORK = 800_000_000  # the judge's own budget: twice the completion's own check
_ORDERED_STATUS = {"saturated": "Saturated", "trivial": "Trivial", "incomplete": "GaveUp"}


def _ordered_status(completion: str, detail: str, cpu_spent: float, budget: float) -> str:
    """The SZS-like status of an ordered-completion cell. Its own budget (CPU time, equations,
    pending pairs, work) running out is ``ResourceOut``, a cell finished for good; only time
    running out before the CPU budget was spent — the wall deadline on a loaded machine — is
    ``Timeout``, which runs again on resume."""
    if completion in _ORDERED_STATUS:
        return _ORDERED_STATUS[completion]
    out_of_time = completion == "budget" and " s spent" in detail
    return WALL_TIMEOUT if out_of_time and cpu_spent < 0.9 * budget else "ResourceOut"


# ---------------------------------------------------------------- storage


class SweepStore:
    """One row per finished cell; the certificate of a resolution is kept by content hash."""

    _SCHEMA = """CREATE TABLE IF NOT EXISTS cells (
        law TEXT NOT NULL, config TEXT NOT NULL, budget INTEGER NOT NULL, verdict TEXT NOT NULL,
        status TEXT NOT NULL, secs REAL NOT NULL, recheck TEXT NOT NULL, cert TEXT NOT NULL,
        PRIMARY KEY (law, config, budget))"""

    def __init__(self, path: Path, cert_dir: Path | None = None) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path)
        self.db.execute(self._SCHEMA)
        self.cert_dir = cert_dir

    def close(self) -> None:
        self.db.close()

    def done(self) -> set[Cell]:
        """Cells finished for good. One that hit the wall deadline before spending its CPU
        budget (status ``Timeout``: a loaded machine) did not get its budget; it runs again."""
        rows = self.db.execute(
            "SELECT law, config, budget FROM cells WHERE verdict != '' OR status != ?",
            (WALL_TIMEOUT,),
        )
        return {Cell(law, config, budget) for law, config, budget in rows}

    def save(self, result: CellResult) -> None:
        from veristep.alps.judge import certificates

        cert = ""
        if result.verdict and self.cert_dir is not None:
            cert = certificates.save(result.certificate, self.cert_dir).stem
        self.db.execute(
            "INSERT OR REPLACE INTO cells VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                result.law,
                result.config,
                result.budget,
                result.verdict,
                result.status,
                result.secs,
                result.recheck,
                cert,
            ),
        )
        self.db.commit()

    def rows(self) -> list[dict[str, Any]]:
        cur = self.db.execute(
            "SELECT law, config, budget, verdict, status, secs, recheck, cert FROM cells "
            "ORDER BY budget, config, law"
        )
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur]

    def seed_from_export(self, cells_jsonl: Path) -> int:
        """Take the unresolved cells of an earlier export (``cells.jsonl``) that this store lacks.

        A sweep's database stays out of version control; its export does not. A fresh clone
        resumes from the export instead of rerunning every finished cell. Only cells that
        resolved nothing are taken: a resolution counts only with the certificate the judge
        re-checked, which lives in the database, so such a cell is run again.
        """
        import json

        if not cells_jsonl.is_file():
            return 0
        done = self.done()
        taken = 0
        for line in cells_jsonl.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
                cell = Cell(str(row["law"]), str(row["config"]), int(row["budget"]))
                verdict, status = str(row["verdict"]), str(row["status"])
                secs, recheck = float(row["secs"]), str(row.get("recheck", ""))
            except (ValueError, KeyError, TypeError):
                continue  # a damaged line is simply run again
            if verdict or status == WALL_TIMEOUT or cell in done:
                continue
            self.db.execute(
                "INSERT INTO cells VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (cell.law, cell.config, cell.budget, "", status, secs, recheck, ""),
            )
            taken += 1
        self.db.commit()
        return taken

    def resolved(self, max_budget: int | None = None) -> set[str]:
        sql = "SELECT DISTINCT law FROM cells WHERE verdict != ''"
        if max_budget is None:
            return {law for (law,) in self.db.execute(sql)}
        return {law for (law,) in self.db.execute(sql + " AND budget <= ?", (max_budget,))}


# ---------------------------------------------------------------- the ladder


@dataclass
class SweepSummary:
    laws: int
    configs: list[str]
    budgets: list[int]
    resumed: int
    ran: int
    reached: dict[int, int]  # budget -> laws still unresolved when the rung started

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def cell_task(task: dict[str, Any], memory_mb: int) -> dict[str, Any]:
    """One cell as a batch-engine task (a JSON object in, the cell's result out)."""
    return asdict(run_cell(Cell(task["law"], task["config"], int(task["budget"])), memory_mb))


class _CellStore:
    """The engine's view of a :class:`SweepStore`: a finished cell is found by its task key, and
    a result is saved with its certificate (an error is not: a rerun runs that cell again)."""

    def __init__(self, store: SweepStore, cells: list[Cell], done: set[Cell]) -> None:
        self._store, self._done = store, done
        self._cell = {task_key(cell_task, asdict(cell)): cell for cell in cells}

    def get(self, key: str) -> dict[str, Any] | None:
        return {"stored": True} if self._cell[key] in self._done else None

    def put(self, key: str, result: dict[str, Any]) -> None:
        if "error" in result:
            cell = self._cell[key]
            print(
                f"cell {cell.config} {cell.budget}s {cell.law}: {result['error']}", file=sys.stderr
            )
        else:
            self._store.save(CellResult(**result))


def run_ladder(
    laws: Iterable[str],
    configs: list[str],
    budgets: Iterable[int],
    store: SweepStore,
    backend: Backend,
    memory_mb: int = 4096,
    progress: bool = True,
) -> SweepSummary:
    laws = list(dict.fromkeys(laws))
    budgets = sorted(set(budgets))
    done = store.done()
    summary = SweepSummary(len(laws), configs, budgets, 0, 0, {})
    for budget in budgets:
        open_laws = [law for law in laws if law not in store.resolved(budget - 1)]
        summary.reached[budget] = len(open_laws)
        cells = [Cell(law, c, budget) for law in open_laws for c in configs]
        ran = run_batch(
            cell_task, [asdict(cell) for cell in cells], _CellStore(store, cells, done), backend,
            context=memory_mb, progress=progress, label=f"{budget:>4}s rung",
        )  # fmt: skip
        summary.resumed += ran.resumed
        summary.ran += ran.ran - ran.errors
    return summary


def read_law_file(path: Path, limit: int | None = None) -> list[str]:
    """Laws from a JSONL file with a ``law`` field (or plain lines), in file order."""
    import json

    out: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line:
            text = json.loads(line)["law"] if line.startswith("{") else line
            out.append(str(parse_law(text)))
    out = list(dict.fromkeys(out))
    return out[:limit] if limit else out
