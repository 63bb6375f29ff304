"""``veristep review``: review one proof step by step, or run the review benchmark."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from veristep.core.batch_lines import add_backend_arguments
from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "review a natural-language proof step by step (OPEN/VERIFIED/FLAWED, ledger, verdict)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("proof", nargs="?", help="a Markdown/LaTeX proof file ('-' for stdin)")
    parser.add_argument("--model", help="DSPy/LiteLLM model string (default: VERISTEP_MODEL)")
    parser.add_argument(
        "--problem",
        metavar="FILE",
        help="the problem statement ('-' for stdin): its letters, hypotheses and definitions "
        "are the context every step is checked in",
    )
    parser.add_argument("--json", action="store_true", help="print the whole trace as JSON")
    parser.add_argument("--html", metavar="OUT.html", help="also write a self-contained HTML page")
    parser.add_argument("--trace", metavar="PATH", help="where the resumable trace is saved")
    parser.add_argument("--resume", action="store_true", help="continue a saved trace or sweep")
    parser.add_argument(
        "--max-iterations",
        type=int,
        metavar="N",
        help="iteration budget (default: 3 per step + 20)",
    )
    parser.add_argument("--bench", choices=("opc", "prmbench"), help="run the benchmark instead")
    parser.add_argument("--limit", type=int, metavar="N", help="benchmark: first N items")
    parser.add_argument(
        "--systems",
        default="agent,global,sentence",
        help="benchmark: comma-separated systems (agent, global, sentence)",
    )
    parser.add_argument("--out", metavar="DIR", help="benchmark: results folder")
    add_backend_arguments(parser, "benchmark", "items reviewed at once")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.review.calls import ModelUnavailable

    model = args.model or settings.model
    if not args.bench and not args.proof:
        raise InputError("give a PROOF file, or --bench opc|prmbench")
    if not args.bench and (args.limit is not None or args.out or args.ray or args.workers != 1):
        raise InputError("--limit, --out, --workers and --ray apply to --bench only")
    try:
        return (
            _run_bench(args, settings, model) if args.bench else _run_review(args, settings, model)
        )
    except ModelUnavailable as exc:
        # Progress so far is saved; --resume continues once the endpoint answers again.
        print(
            f"veristep review: model unavailable: {exc} (saved; rerun with --resume)",
            file=sys.stderr,
        )
        return 1


def _run_review(args: argparse.Namespace, settings: Settings, model: str | None) -> int:
    from veristep.review.agent import ReviewBudget
    from veristep.review.report import html_report, model_error_lines, text_report
    from veristep.review.run import review_proof

    text = _read_proof(args.proof)
    if args.problem == "-" and args.proof == "-":
        raise InputError("the proof and --problem cannot both be read from stdin")
    problem = _read_proof(args.problem, "problem") if args.problem else ""
    if args.max_iterations is not None and args.max_iterations < 1:
        raise InputError(f"--max-iterations must be at least 1, got {args.max_iterations}")
    if args.html and not Path(args.html).resolve().parent.is_dir():
        raise InputError(f"--html {args.html}: its folder does not exist")  # before the work
    trace_path = (
        Path(args.trace) if args.trace else _default_trace(settings, f"{problem}\n{text}", model)
    )
    with _iteration_status() as on_iteration:
        trace = review_proof(
            text,
            model=model,
            settings=settings,
            trace_path=trace_path,
            resume=args.resume,
            budget=ReviewBudget(max_iterations=args.max_iterations),
            source=args.proof,
            problem=problem,
            on_iteration=on_iteration,
        )
    if args.html:
        try:
            Path(args.html).write_text(html_report(trace), encoding="utf-8")
        except OSError as exc:
            raise InputError(f"--html {args.html}: {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps({**trace.to_json(), "trace_path": str(trace_path)}, ensure_ascii=False))
        for line in model_error_lines(trace):  # the report shows them; JSON keeps stdout clean
            print(f"veristep review: {line}", file=sys.stderr)
    else:
        print(text_report(trace))
        print(f"trace: {trace_path}")
    if trace.reason.startswith("model unavailable"):
        print(f"veristep review: {trace.reason} (saved; rerun with --resume)", file=sys.stderr)
        return 1
    return 0


@contextmanager
def _iteration_status() -> Iterator[Callable[[Any], None]]:
    """A one-line live status on stderr: iteration, states so far, idle count, tokens."""
    from rich.status import Status

    with Status("reviewing…", console=_stderr_console()) as status:

        def show(trace: Any) -> None:
            states = [s.state.value for s in trace.steps.values()]
            status.update(
                f"iteration {trace.iterations} · verified {states.count('verified')}/{len(states)}"
                f" · flawed {states.count('flawed')} · idle {trace.idle} · tokens {trace.tokens}"
            )

        yield show


def _read_proof(name: str, what: str = "proof") -> str:
    path = Path(name)
    if name != "-" and path.is_dir():
        raise InputError(f"{what} must be a file, and {name} is a folder: name one file in it")
    if name != "-" and not path.is_file():
        raise InputError(f"{what} file not found: {name}")
    try:
        # Bytes, then strict UTF-8: text-mode stdin would smuggle undecodable bytes in as
        # surrogates that fail later, far from here.
        data = sys.stdin.buffer.read() if name == "-" else path.read_bytes()
        return data.decode("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the {what} file {name}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} file is not UTF-8 text: {name} (byte {exc.start})") from None


def _default_trace(settings: Settings, text: str, model: str | None) -> Path:
    digest = hashlib.sha256(f"{model}\n{text}".encode()).hexdigest()[:16]
    return settings.data_dir / "review" / "traces" / f"{digest}.json"


def _run_bench(args: argparse.Namespace, settings: Settings, model: str | None) -> int:
    from veristep.core.batch import backend_for
    from veristep.core.interrupts import Interrupted
    from veristep.review import bench as B
    from veristep.review.metrics import metrics, metrics_table

    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [s for s in systems if s not in B.SYSTEMS]
    if unknown:
        raise InputError(f"unknown system {unknown[0]!r}; expected some of {', '.join(B.SYSTEMS)}")
    if args.limit is not None and args.limit < 1:
        raise InputError(f"--limit must be at least 1, got {args.limit}")
    if args.workers < 1:
        raise InputError(f"--workers must be at least 1, got {args.workers}")
    out_dir = Path(args.out) if args.out else settings.data_dir / "review" / "bench"
    out_dir = out_dir / _model_slug(model)
    items = B.load_items(args.bench, args.limit)
    if not model:
        for system in (s for s in systems if s != "agent"):
            print(f"note: baseline {system!r} needs a model (--model); skipped", file=sys.stderr)
        systems = [s for s in systems if s == "agent"]
    runners = B.BenchSystems(model, settings, out_dir / "traces", args.resume)
    backend = backend_for(args.ray, args.workers)
    try:
        results = B.run_bench(
            items, runners, out_dir, args.bench, args.resume, systems=systems, backend=backend,
            salt=_bench_salt(model, settings), show_progress=_stderr_console().is_terminal,
        )  # fmt: skip
    except KeyboardInterrupt:
        raise Interrupted(
            f"every finished item is in {out_dir}: run the same command with --resume to go on"
        ) from None
    finally:
        backend.close()
    per_system = {name: metrics(rows) for name, rows in results.items()}
    if args.json:
        from dataclasses import asdict

        print(
            json.dumps(
                {
                    "bench": args.bench,
                    "model": model,
                    "items": len(items),
                    "out": str(out_dir),
                    "metrics": {k: asdict(v) for k, v in per_system.items()},
                }
            )
        )
    else:
        print(f"bench: {args.bench} · model: {model or 'none'} · items: {len(items)}")
        print(metrics_table(per_system))
        print(f"results: {out_dir}")
    return 0


def _bench_salt(model: str | None, settings: Settings) -> str:
    """What a stored result depends on besides its item: the version, the judging settings the
    machine checks use, and the model and how it is asked."""
    from veristep.grounding.batch import judging_salt

    asked = f"temperature={settings.lm_temperature}, max_tokens={settings.lm_max_tokens}"
    return f"{judging_salt(settings)}; model={model}, {asked}"


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(file=sys.stderr)


def _model_slug(model: str | None) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in (model or "no-model"))
