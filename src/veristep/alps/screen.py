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
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import TYPE_CHECKING, Any

from veristep.alps import stages
from veristep.alps.provers import EProver, Prover, Prover9
from veristep.alps.stages import Outcome, ScreenBudget, StageResult
from veristep.alps.store import LawReport, ScreenStore
from veristep.alps.terms import canonical, parse_law
from veristep.core.errors import InputError
from veristep.core.interrupts import Interrupted, ignore_interrupts, killing_pool

if TYPE_CHECKING:
    from veristep.alps.sweep import Backend

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


def _worker(text: str, budget: ScreenBudget, prover_name: str) -> LawReport:
    return screen_law(text, budget, PROVERS[prover_name]())


def _screen_safely(
    text: str, budget: ScreenBudget, prover_name: str
) -> tuple[str, LawReport | None, str | None]:
    """A backend task: (law, report, None), or (law, None, why) when screening it failed, so one
    failing law never stops the others (on Ray an exception would surface as the task's)."""
    try:
        return text, _worker(text, budget, prover_name), None
    except Exception as exc:  # reported and left unstored: a rerun retries it
        return text, None, f"{type(exc).__name__}: {exc}"


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
    """Screen every law not already in ``store``, in worker processes (or on ``backend``, e.g.
    a Ray cluster); returns label counts of the laws screened now. Each finished law is committed
    at once by this process, so an interrupted run — driver or worker — resumes where it stopped."""
    make_prover(prover_name)  # fail fast, in the parent, if the prover is missing
    finished_before = store.finished()
    todo = [law for law in laws if law not in finished_before]
    counts: dict[str, int] = {}
    try:
        if backend is None:
            # Workers fork on the first submit: submit everything before rich starts its
            # refresh thread, so no child is forked while that thread holds a lock.
            executor = ProcessPoolExecutor(
                max_workers=max(1, workers), initializer=ignore_interrupts
            )
            _screen_all(executor, todo, store, budget, prover_name, progress, counts)
        else:
            _screen_on(backend, todo, store, budget, prover_name, progress, counts)
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: workers are dead, finished laws kept
        saved = len(store.finished()) - len(finished_before)
        where = f"{saved} law(s) screened now are saved in {store.path}"
        why = str(exc) or "interrupted"
        raise Interrupted(f"{why}; {where}: run the same command to resume") from None
    return counts


def _screen_all(
    executor: ProcessPoolExecutor,
    todo: list[str],
    store: ScreenStore,
    budget: ScreenBudget,
    prover_name: str,
    progress: bool,
    counts: dict[str, int],
) -> None:
    with killing_pool(executor) as pool:
        pending = {pool.submit(_worker, law, budget, prover_name) for law in todo}
        _collect(_completed(pending), len(todo), "screening", store, progress, counts)


def _completed(pending: set[Any]) -> Iterator[tuple[LawReport | None, str | None]]:
    """(report, None) per finished future, or (None, why) for a crashed worker."""
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        for fut in finished:
            try:
                yield fut.result(), None
            except Exception as exc:  # a crashed worker: not stored, so a rerun retries
                yield None, f"{type(exc).__name__}: {exc}"


def _screen_on(
    backend: Backend,
    todo: list[str],
    store: ScreenStore,
    budget: ScreenBudget,
    prover_name: str,
    progress: bool,
    counts: dict[str, int],
) -> None:
    items = [(law, budget, prover_name) for law in todo]
    results = ((r, e) for _, r, e in backend.map_unordered(_screen_safely, items))
    _collect(results, len(todo), f"screening on {backend.name}", store, progress, counts)


def _collect(
    results: Iterable[tuple[LawReport | None, str | None]],
    total: int,
    label: str,
    store: ScreenStore,
    progress: bool,
    counts: dict[str, int],
) -> None:
    from rich.progress import Progress

    with Progress(disable=not progress, transient=False) as bar:
        task = bar.add_task(label, total=total)
        for report, error in results:
            _record(report, error, store, counts, bar, task)


def _record(
    report: LawReport | None,
    error: str | None,
    store: ScreenStore,
    counts: dict[str, int],
    bar: Any,
    task: Any,
) -> None:
    """Commit one finished law (the parent is the only writer of the store)."""
    if report is None:
        counts["ERROR"] = counts.get("ERROR", 0) + 1
        bar.console.print(f"worker failed: {error}")
        return
    store.save(report)
    counts[report.status] = counts.get(report.status, 0) + 1
    bar.update(task, advance=1, description=f"screening {_summary(counts)}")


def _summary(counts: dict[str, int]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(counts.items()))
