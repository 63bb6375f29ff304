"""The review benchmark: the agent and two baselines, run by one harness over OPC or PRMBench.

Each (system, item) result is one JSON line in ``<out>/<bench>-<system>.jsonl``; ``resume`` skips
the items already there, so an interrupted sweep continues where it stopped. All systems see the
same segmentation, so "which step is wrong" means the same thing for each of them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from veristep.core.datasets import require_shared_data
from veristep.core.settings import Settings
from veristep.review.calls import Health, ModelUnavailable
from veristep.review.segment import Segment, segment_proof, segment_steps

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


def run_bench(
    items: list[Item],
    runners: dict[str, Runner],
    out_dir: Path,
    bench: str,
    resume: bool,
    progress: Callable[[str, Item], None] | None = None,
) -> dict[str, list[Result]]:
    """Run every system over every item, appending results; returns all results per system."""
    out_dir.mkdir(parents=True, exist_ok=True)
    results: dict[str, list[Result]] = {}
    for system, runner in runners.items():
        path = out_dir / f"{bench}-{system}.jsonl"
        done = _read_results(path) if resume else {}
        if not resume and path.exists():
            path.unlink()
        for item in items:
            if progress:
                progress(system, item)
            if item.key in done:
                continue
            result = _run_one(system, runner, item)
            done[item.key] = result
            with path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(result), ensure_ascii=False) + "\n")
        results[system] = [done[i.key] for i in items if i.key in done]
    return results


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
