"""Screening a law: the stages in order, a label, and a resumable parallel run over a file.

Labels, exactly as in ALPS's ``final_status.jsonl``:

=================  ============================================================
TRIVIAL            the prover proves L ⊢ x = y
AUSTIN_PROVEN      admissible (no nontrivial finite model) + a complete saturation
NO_FINITE_MODEL    admissible, no nontrivial model certified yet
HAS_FINITE_MODEL   SAT found a nontrivial table (re-checked by evaluation)
SATISFIABLE_ONLY   a nontrivial model exists, finiteness undecided
OPEN               nothing certified within the budgets
=================  ============================================================
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from veristep.alps import stages
from veristep.alps.provers import EProver, Prover, Prover9
from veristep.alps.stages import Outcome, ScreenBudget, StageResult
from veristep.alps.store import LawReport, ScreenStore
from veristep.alps.terms import canonical, parse_law
from veristep.core.errors import InputError
from veristep.core.interrupts import Interrupted

if TYPE_CHECKING:
    from veristep.core.batch import Backend

LABELS = (
    "TRIVIAL",
    "AUSTIN_PROVEN",
    "NO_FINITE_MODEL",
    "HAS_FINITE_MODEL",
    "SATISFIABLE_ONLY",
    "OPEN",
)
PROVERS: dict[str, Callable[[], Prover]] = {
    "e": lambda: EProver("auto"),
    "e/auto": lambda: EProver("auto"),
    "e/satauto": lambda: EProver("satauto"),
    "e3/auto": lambda: EProver("auto", release="3"),
    "e3/satauto": lambda: EProver("satauto", release="3"),
    "prover9": lambda: Prover9(),
}


def make_prover(name: str) -> Prover:
    if name not in PROVERS:
        raise InputError(f"unknown prover {name!r}; choose one of {', '.join(PROVERS)}")
    prover = PROVERS[name]()
    reason = prover.unavailable()
    if reason:
        raise InputError(f"prover {name!r} cannot run here: {reason}")
    return prover


def classify(results: list[StageResult]) -> str:
    got = {r.stage: r.outcome for r in results}
    if got.get("trivial") == "yes":
        return "TRIVIAL"
    admissible = got.get("admissible") == "yes"
    if not admissible and got.get("finite_model") == "yes":
        return "HAS_FINITE_MODEL"
    model = got.get("nontrivial") == "yes"
    if admissible:
        return "AUSTIN_PROVEN" if model else "NO_FINITE_MODEL"
    return "SATISFIABLE_ONLY" if model else "OPEN"


def screen_law(text: str, budget: ScreenBudget, prover: Prover) -> LawReport:
    """Run the stages cheapest first, stopping as soon as the label is settled.

    The SAT search runs first: a table of size ≤ 5 costs milliseconds and settles the label,
    whereas a law with a finite model makes every prover stage run to its deadline. Then a short
    ordered completion: a model it builds (re-checked by our own checker) settles "not trivial"
    and "has a nontrivial model" without the prover, which is left only admissibility.
    """
    start = time.perf_counter()
    law = parse_law(text)
    key = str(canonical(law))
    done = [stages.finite_model(law, budget)]
    if done[0].outcome != "yes" and budget.completion_s > 0:
        built = stages.ordered_model(law, budget)
        if built.outcome == "yes":  # a certified nontrivial model: not trivial, no prover needed
            why = "a nontrivial model is certified (ordered completion)"
            done.append(StageResult("trivial", Outcome.NO, why, "", built.prover, 0.0))
            done.append(stages.admissible(law, prover, budget))
            done.append(built)
            ms = (time.perf_counter() - start) * 1000
            return LawReport(key, classify(done), done, ms)
    if done[0].outcome != "yes":
        triv = stages.trivial(law, prover, budget)
        done.append(triv)
        if triv.outcome != "yes":
            done.append(stages.admissible(law, prover, budget))
            done.append(_nontrivial(law, triv, prover, budget))
    ms = (time.perf_counter() - start) * 1000
    return LawReport(key, classify(done), done, ms)


def _nontrivial(law, triv: StageResult, prover: Prover, budget: ScreenBudget) -> StageResult:
    if triv.outcome == "no":
        # The triviality run already saturated L ∪ {x ≠ y} completely: that is the certificate.
        note = f"{triv.detail} (triviality run)"
        return StageResult("nontrivial", Outcome.YES, note, triv.certificate, triv.prover, 0.0)
    return stages.nontrivial(law, prover, budget)


def screen_task(text: str, context: tuple[ScreenBudget, str]) -> dict[str, Any]:
    """One law as a batch-engine task: its report as JSON (the engine turns an exception into
    this law's own error, which is counted and not stored, so a rerun retries it)."""
    budget, prover_name = context
    return _report_json(screen_law(text, budget, PROVERS[prover_name]()))


def _report_json(report: LawReport) -> dict[str, Any]:
    return {
        "law": report.law, "status": report.status, "ms": report.ms, "extra": report.extra,
        "stages": [stage.to_json() for stage in report.stages],
    }  # fmt: skip


def _report_of(data: dict[str, Any]) -> LawReport:
    stages_ = [StageResult(**{**s, "outcome": Outcome(s["outcome"])}) for s in data["stages"]]
    return LawReport(data["law"], data["status"], stages_, data["ms"], data["extra"])


def read_laws(path: Path) -> list[str]:
    """Laws from JSONL (field ``law``) or plain text (one per line), canonical and deduplicated."""
    out: dict[str, None] = {}
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    for lineno, raw in enumerate(data.splitlines(), start=1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            raise InputError(f"{path}:{lineno}: not UTF-8 text (byte {exc.start + 1})") from None
        if not line:
            continue
        text = line
        if line.startswith("{"):
            try:
                text = json.loads(line)["law"]
            except (json.JSONDecodeError, KeyError, TypeError, RecursionError):
                raise InputError(f"{path}:{lineno}: not a JSON object with a 'law'") from None
            if not isinstance(text, str):
                raise InputError(f"{path}:{lineno}: 'law' must be a string, got {text!r:.40}")
        try:
            out[str(canonical(parse_law(text)))] = None
        except InputError as err:
            raise InputError(f"{path}:{lineno}: {err.one_line()}") from None
    return list(out)


def screen_many(
    laws: Iterable[str],
    store: ScreenStore,
    budget: ScreenBudget,
    prover_name: str = "e/auto",
    workers: int = 2,
    progress: bool = True,
    backend: Backend | None = None,
) -> dict[str, int]:
    """Screen every law not already in ``store`` on the batch engine: worker processes here, or
    ``backend`` (a Ray cluster); returns label counts of the laws screened now. Each finished law
    is committed at once by this process, so an interrupted run — driver or worker — resumes
    where it stopped; a worker that dies has its law run again."""
    from veristep.core.batch import LocalBackend, run_batch

    make_prover(prover_name)  # fail fast, in the parent, if the prover is missing
    finished_before = store.finished()
    laws = list(dict.fromkeys(laws))
    counts: dict[str, int] = {}

    def count(index: int, result: dict[str, Any]) -> None:
        if "error" in result:
            counts["ERROR"] = counts.get("ERROR", 0) + 1
            print(f"screening {laws[index]} failed: {result['error']}", file=sys.stderr)
        elif "status" in result and "stored" not in result:
            counts[str(result["status"])] = counts.get(str(result["status"]), 0) + 1

    pool = backend or LocalBackend(max(1, workers))
    label = "screening" if backend is None else f"screening on {backend.name}"
    try:
        run_batch(
            screen_task, laws, _LawStore(store, laws, finished_before), pool,
            context=(budget, prover_name), progress=progress, label=label, on_result=count,
        )  # fmt: skip
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: workers are dead, finished laws kept
        saved = len(store.finished()) - len(finished_before)
        where = f"{saved} law(s) screened now are saved in {store.path}"
        why = str(exc) or "interrupted"
        raise Interrupted(f"{why}; {where}: run the same command to resume") from None
    return counts


class _LawStore:
    """The engine's view of a :class:`ScreenStore`: a law's task key finds the law's row, and a
    finished report is saved with its certificates (an error is not: a rerun retries it)."""

    def __init__(self, store: ScreenStore, laws: list[str], finished: set[str]) -> None:
        from veristep.core.batch import task_key

        self._store, self._finished = store, finished
        self._law = {task_key(screen_task, law): law for law in laws}

    def get(self, key: str) -> dict[str, Any] | None:
        law = self._law[key]
        return {"law": law, "stored": True} if law in self._finished else None

    def put(self, key: str, result: dict[str, Any]) -> None:
        if "error" not in result:
            self._store.save(_report_of(result))
