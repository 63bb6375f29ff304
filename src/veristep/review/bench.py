"""The review benchmark: the agent and two baselines, run by one harness over OPC or PRMBench.

Each (system, item) result is one JSON line in ``<out>/<bench>-<system>.jsonl``; ``resume`` skips
the items already there, so an interrupted sweep continues where it stopped. All systems see the
same segmentation, so "which step is wrong" means the same thing for each of them.

The (system, item) pairs run on the batch engine (``core.batch``): in this process, on a local
process pool or on Ray, each result committed as it arrives to ``<out>/<bench>.sqlite`` (keyed by
the item's content, so an item whose text changed runs again). An item whose runner raises costs
only its own line; an endpoint that stops serving ends the sweep, unrecorded, for ``--resume``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from veristep.core.datasets import require_shared_data
from veristep.core.settings import Settings
from veristep.review.calls import Health, ModelUnavailable
from veristep.review.segment import Segment, segment_proof, segment_steps

if TYPE_CHECKING:
    from veristep.core.batch import Backend

SYSTEMS = ("agent", "global", "sentence")
BENCHES = ("opc", "prmbench")


@dataclass(frozen=True)
class Item:
    key: str
    problem: str
    correct: bool  # the human label
    text: str | None = None  # a proof to segment (OPC) ...
    steps: tuple[str, ...] | None = None  # ... or steps already cut (PRMBench)
    error_step: int | None = None  # 1-based first labelled error, when known
    error_text: tuple[str, ...] = ()  # annotated wrong passages (OPC), for localisation

    def segments(self) -> list[Segment]:
        if self.steps is not None:
            return segment_steps(list(self.steps))
        return segment_proof(self.text or "", strict=False)


@dataclass
class Result:
    key: str
    system: str
    correct: bool
    verdict: str  # accepted | rejected | undecided | error
    flagged: int | None  # 1-based index of the first step the system marked wrong
    localised: bool | None  # flagged the labelled error step (None: no label to compare)
    tokens: int
    calls: int
    seconds: float
    note: str = ""


def load_items(bench: str, limit: int | None = None) -> list[Item]:
    """The items of ``bench`` in a fixed order (interleaved correct/incorrect for PRMBench)."""
    if bench == "opc":
        items = list(_opc_items())
    elif bench == "prmbench":
        items = list(_prm_items())
    else:
        raise ValueError(f"unknown bench {bench!r}; expected one of {', '.join(BENCHES)}")
    return items[:limit] if limit is not None else items


def _opc_items() -> Iterator[Item]:
    path = require_shared_data("opc_judge_test", "opc_judge_test.jsonl")
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        notes = tuple(
            a["selected_text"] for a in row.get("human_annotations") or [] if a.get("selected_text")
        )
        yield Item(
            str(row["id"]),
            row["problem"],
            row["label"] == "correct",
            text=row["proof"],
            error_text=notes,
        )


def _prm_items() -> Iterator[Item]:
    path = require_shared_data("prmbench_slice", "prmbench_subset_slice.jsonl")
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        yield Item(
            f"{row['idx']}:original",
            row["original_question"],
            True,
            steps=tuple(row["original_process"]),
        )
        errors = row["error_steps"]
        yield Item(
            f"{row['idx']}:modified",
            row["modified_question"],
            not errors,
            steps=tuple(row["modified_process"]),
            error_step=min(errors) if errors else None,
        )


# -- systems ------------------------------------------------------------------------------------

Runner = Callable[[Item, list[Segment]], tuple[str, int | None, list[Any], str]]


def agent_runner(
    lm: Any, settings: Settings, trace_dir: Path, resume: bool, health: Health | None = None
) -> Runner:
    from veristep.review.run import review_proof

    def run(item: Item, segments: list[Segment]) -> tuple[str, int | None, list[Any], str]:
        trace_path = trace_dir / f"{_safe(item.key)}.json"
        trace = review_proof(
            segments,
            lm=lm,
            settings=settings,
            trace_path=trace_path,
            resume=resume,
            source=item.key,
            problem=item.problem,
            health=health,
        )
        if trace.reason.startswith("model unavailable"):
            raise ModelUnavailable(trace.reason)  # the sweep stops; --resume continues it
        flagged = next(
            (i for i, sid in enumerate(trace.order, 1) if trace.steps[sid].state.value == "flawed"),
            None,
        )
        return trace.verdict or "undecided", flagged, trace.calls, trace.reason

    return run


def global_runner(caller_factory: Callable[[list[Any]], Any]) -> Runner:
    from veristep.review.programs import role_programs

    program = role_programs()["global_judge"]

    def run(item: Item, segments: list[Segment]) -> tuple[str, int | None, list[Any], str]:
        log: list[Any] = []
        proof = "\n".join(f"{i}: {s.text}" for i, s in enumerate(segments, 1))
        reply = caller_factory(log)(
            "global_judge", program, item.key, problem=item.problem, proof=proof
        )
        if reply is None:
            return "error", None, log, log[-1].error if log else ""
        if reply.verdict == "correct":
            return "accepted", None, log, ""
        return "rejected", _step_number(str(reply.first_error), len(segments)), log, ""

    return run


def sentence_runner(caller_factory: Callable[[list[Any]], Any]) -> Runner:
    from veristep.review.programs import role_programs

    program = role_programs()["sentence_judge"]

    def run(item: Item, segments: list[Segment]) -> tuple[str, int | None, list[Any], str]:
        log: list[Any] = []
        call = caller_factory(log)
        for i, seg in enumerate(segments, 1):
            previous = "\n".join(f"{j}: {s.text}" for j, s in enumerate(segments[: i - 1], 1))
            reply = call(
                "sentence_judge",
                program,
                seg.id,
                problem=item.problem,
                previous=previous or "(none)",
                step=seg.text,
            )
            if reply is None:
                return "error", None, log, log[-1].error if log else ""
            if reply.verdict == "incorrect":
                return "rejected", i, log, ""
        return "accepted", None, log, ""

    return run


def _step_number(text: str, n: int) -> int | None:
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits) if digits and 1 <= int(digits) <= n else None


# -- the harness --------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchSystems:
    """The systems of a sweep as a picklable value: each worker process builds their runners
    (one model, one endpoint health count) once, from this."""

    model: str | None
    settings: Settings
    trace_dir: Path
    resume: bool = False
    _built: dict[str, Runner] = field(default_factory=dict, compare=False, repr=False)

    def runner(self, system: str) -> Runner:
        if not self._built:
            self._built.update(self._build())
        return self._built[system]

    def _build(self) -> dict[str, Runner]:
        from veristep.review.calls import RoleCaller, make_model

        lm = make_model(self.model, self.settings) if self.model else None
        health = Health()  # one endpoint, one failure count, whichever system calls it
        runners: dict[str, Runner] = {
            "agent": agent_runner(lm, self.settings, self.trace_dir, self.resume, health)
        }
        if lm is not None:
            runners["global"] = global_runner(lambda log: RoleCaller(lm, log, health))
            runners["sentence"] = sentence_runner(lambda log: RoleCaller(lm, log, health))
        return runners

    def __getstate__(self) -> dict[str, Any]:  # a worker builds its own runners
        return {**self.__dict__, "_built": {}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


Runners = dict[str, Runner] | BenchSystems


def bench_task(task: dict[str, Any], runners: Runners) -> dict[str, Any]:
    """One (system, item) pair as a batch-engine task: its result row, or ``{"transient": ...}``
    when the model endpoint is down (not stored: a resumed sweep asks again)."""
    system, item = task["system"], item_of(task["item"])
    runner = runners.runner(system) if isinstance(runners, BenchSystems) else runners[system]
    try:
        return asdict(_run_one(system, runner, item))
    except ModelUnavailable as exc:
        return {"transient": str(exc)}


def item_json(item: Item) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(item).items()}


def item_of(data: dict[str, Any]) -> Item:
    return Item(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})


def store_path(out_dir: Path, bench: str) -> Path:
    return out_dir / f"{bench}.sqlite"


def run_bench(
    items: list[Item],
    runners: Runners,
    out_dir: Path,
    bench: str,
    resume: bool,
    progress: Callable[[str, Item], None] | None = None,
    *,
    systems: list[str] | None = None,
    backend: Backend | None = None,
    salt: str = "",
    show_progress: bool = False,
) -> dict[str, list[Result]]:
    """Run every system over every item, appending results; returns all results per system.

    ``runners`` run in the workers of ``backend`` (default: this process), so for a pool or Ray
    they must pickle (a :class:`BenchSystems`). Without ``resume`` the results start empty.
    """
    from veristep.core.batch import ResultStore, SerialBackend, remove_store, run_batch

    names = systems if systems is not None else list(runners)  # type: ignore[arg-type]
    out_dir.mkdir(parents=True, exist_ok=True)
    if not resume:
        remove_store(store_path(out_dir, bench))
    done: dict[str, dict[str, Result]] = {}
    for system in names:
        path = out_dir / f"{bench}-{system}.jsonl"
        done[system] = _read_results(path) if resume else {}
        if not resume:
            path.unlink(missing_ok=True)
    todo = [(system, item) for system in names for item in items if item.key not in done[system]]

    def keep(index: int, row: dict[str, Any]) -> None:
        system, item = todo[index]
        if "transient" in row:  # not this item's fault: the sweep stops (and resumes later)
            raise ModelUnavailable(row["transient"])
        result = Result(**row) if "error" not in row else _error_result(system, item, row["error"])
        done[system][item.key] = result
        with (out_dir / f"{bench}-{system}.jsonl").open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(asdict(result), ensure_ascii=False) + "\n")
        if progress:
            progress(system, item)

    tasks = [{"system": system, "item": item_json(item)} for system, item in todo]
    store = ResultStore(store_path(out_dir, bench))
    try:
        run_batch(
            bench_task, tasks, store, backend or SerialBackend(), context=runners, salt=salt,
            progress=show_progress, label=f"review {bench}", on_result=keep,
        )  # fmt: skip
    finally:
        store.close()
    for system in names:  # rows were appended as they finished; the finished file reads in order
        _rewrite_in_item_order(out_dir / f"{bench}-{system}.jsonl", done[system], items)
    return {s: [done[s][i.key] for i in items if i.key in done[s]] for s in names}


def _rewrite_in_item_order(path: Path, results: dict[str, Result], items: list[Item]) -> None:
    """Replace ``path`` by its rows in item order (other rows, from a longer sweep, after them).

    Workers finish in any order, so two sweeps of the same items would otherwise write the same
    rows in different orders; the replacement is atomic, so an interruption leaves either file.
    """
    if not results:
        return
    order = {item.key: i for i, item in enumerate(items)}
    rows = sorted(results.values(), key=lambda r: (order.get(r.key, len(order)), r.key))
    tmp = path.with_suffix(".jsonl.tmp")
    tmp.write_text(
        "".join(json.dumps(asdict(r), ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    tmp.replace(path)


def _error_result(system: str, item: Item, error: str) -> Result:
    """The row of an item whose worker failed (it kept dying): an error, like a raising runner."""
    return Result(
        key=item.key, system=system, correct=item.correct, verdict="error", flagged=None,
        localised=None, tokens=0, calls=0, seconds=0.0, note=error[:300],
    )  # fmt: skip


def _run_one(system: str, runner: Runner, item: Item) -> Result:
    started = time.perf_counter()
    segments = item.segments()
    try:
        verdict, flagged, calls, note = runner(item, segments)
    except ModelUnavailable:
        raise  # not this item's fault: the sweep stops (and resumes later)
    except Exception as exc:  # one bad item must not end a sweep; it is counted as an error
        verdict, flagged, calls, note = "error", None, [], f"{type(exc).__name__}: {exc}"
    return Result(
        key=item.key,
        system=system,
        correct=item.correct,
        verdict=verdict,
        flagged=flagged,
        localised=_localised(item, segments, flagged),
        tokens=sum(c.tokens for c in calls),
        calls=len(calls),
        seconds=round(time.perf_counter() - started, 3),
        note=note[:300],
    )


def _localised(item: Item, segments: list[Segment], flagged: int | None) -> bool | None:
    if item.correct or flagged is None:
        return None
    if item.error_step is not None:
        return flagged == item.error_step
    if item.error_text and item.text:
        seg = segments[flagged - 1]
        for passage in item.error_text:
            at = item.text.find(passage.strip()[:80])
            if at >= 0 and seg.start <= at + len(passage) and at <= seg.end:
                return True
        return False
    return None


def _read_results(path: Path) -> dict[str, Result]:
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = Result(**json.loads(line))
        except (ValueError, TypeError):
            continue  # a line cut short by an interruption: that item simply runs again
        out[row.key] = row
    return out


def _safe(key: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in key)
