"""``veristep alps model``: build a model of a law by ordered completion, or check a given
ordered presentation (ours, or a prover's such as Twee's final rewrite system).

The completion runs in a worker process with a hard deadline on top of its own CPU budget, so a
law whose search explodes never hangs the command; what is printed as a model has passed the
independent checker (``judge.ground_model``).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "a model of a law by ordered completion (or --check a presentation)"
_NUMBERED = re.compile(r"^\s*\d+\.\s+(.*)$")
MAX_PRESENTATION_BYTES = 2_000_000


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("law", help="e.g. 'x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)'")
    p.add_argument("--seconds", type=float, default=60.0, help="CPU seconds for the completion")
    p.add_argument("--check", type=Path, help="check this presentation instead of building one")
    p.add_argument("--out", type=Path, help="write the presentation and the check as JSON")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")


def read_presentation(path: Path):
    """One equation per line (``x ◇ (y ◇ ?) = …`` or ``f(X, f(Y, ?)) -> …``); Twee's numbered
    ``N. lhs -> rhs`` lines are read and everything else in its output skipped."""
    from veristep.alps.judge.ground_model import parse_equation

    if not path.is_file():
        raise InputError(f"presentation file not found: {path}")
    with open(path, "rb") as fh:
        raw = fh.read(MAX_PRESENTATION_BYTES + 1)
    if len(raw) > MAX_PRESENTATION_BYTES:
        raise InputError(f"{path}: more than {MAX_PRESENTATION_BYTES:,} bytes")
    lines = raw.decode("utf-8", errors="replace").splitlines()
    numbered = [m.group(1) for line in lines if (m := _NUMBERED.match(line))]
    chosen = numbered or [
        line for line in lines if line.strip() and not line.lstrip().startswith(("%", "#"))
    ]
    out = []
    for i, line in enumerate(chosen, 1):
        try:
            out.append(parse_equation(line))
        except ValueError as exc:
            raise InputError(f"{path}: equation {i}: {exc}", source=line) from None
    return out


def _complete(law_text: str, seconds: float) -> dict[str, object]:
    from veristep.alps.ordered_completion import complete_ordered
    from veristep.alps.terms import parse_law

    result = complete_ordered(parse_law(law_text), seconds=seconds)
    return {**result.to_json(), "model": result.model}


def run(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.ordered_completion import WALL_FACTOR, from_law
    from veristep.alps.terms import parse_law

    law = parse_law(args.law)
    if args.seconds <= 0:
        raise InputError("--seconds must be positive")
    if args.check is not None:
        from veristep.alps.judge.ground_model import check_ordered

        equations = read_presentation(args.check)
        check = check_ordered(from_law(law), equations)
        report: dict[str, object] = {
            "law": args.law,
            "status": "checked",
            "equations": [str(eq) for eq in equations],
            "check": check.to_json(),
            "model": check.certified,
        }
    else:
        report = {"law": args.law, **_run_in_worker(args.law, args.seconds, WALL_FACTOR)}
        if report.get("status") == "trivial":
            report["reproof"] = _reprove_collapse(law, settings)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(_summary(report))
    return 0


def _run_in_worker(law: str, seconds: float, wall_factor: int) -> dict[str, object]:
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from veristep.core.interrupts import ignore_interrupts, killing_pool

    deadline = wall_factor * seconds + 60  # the completion's own budget, then the judge's check
    executor = ProcessPoolExecutor(max_workers=1, initializer=ignore_interrupts)
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    start = time.perf_counter()
    try:
        with (
            killing_pool(executor) as pool,
            Progress(*columns, transient=True, console=Console(stderr=True)) as bar,
        ):
            bar.add_task(f"ordered completion ({seconds:g} CPU s)…", total=None)
            return pool.submit(_complete, law, seconds).result(timeout=deadline)
    except FutureTimeout:  # escaping the pool's block killed the worker
        detail = f"the completion did not return within {time.perf_counter() - start:.0f} s"
        return {"status": "budget", "detail": detail, "equations": [], "model": False}


REPROOF_S = 10.0


def _reprove_collapse(law, settings: Settings) -> str:
    """The completion's derivation of a collapse is our own code's; E proves it independently
    before the command calls the law trivial (as the sweep and the screen do)."""
    from veristep.alps.provers import EProver
    from veristep.alps.tptp import triviality_problem

    prover = EProver("auto")
    why_not = prover.unavailable()
    if why_not:
        return f"not re-proved: {why_not}"
    res = prover.run(triviality_problem(law), REPROOF_S, settings.prover_memory_mb)
    if res.proved:
        return f"re-proved by E ({res.ms / 1000:.1f} s)"
    return f"not re-proved: E {res.status} within {REPROOF_S:g} CPU s"


def _summary(report: dict[str, object]) -> str:
    check = report.get("check") or {}
    equations = report.get("equations") or []
    assert isinstance(check, dict) and isinstance(equations, list)
    lines = []
    if report.get("model"):
        lines.append(f"MODEL: {check.get('reason')}")
    elif str(report.get("reproof", "")).startswith("re-proved"):
        lines.append(f"TRIVIAL: {report.get('detail')}; {report['reproof']}")
    else:
        why = check.get("reason") or report.get("detail") or report.get("status")
        reproof = f" ({report['reproof']})" if report.get("reproof") else ""
        lines.append(f"NO MODEL SHOWN ({report.get('status')}): {why}{reproof}")
    if report.get("model") and report.get("status") != "checked":
        lines.append(f"presentation ({len(equations)} equations, ? the least element):")
        lines += [f"  {eq}" for eq in equations[:12]]
        if len(equations) > 12:
            lines.append(f"  … {len(equations) - 12} more (--out writes them all)")
    return "\n".join(lines)
