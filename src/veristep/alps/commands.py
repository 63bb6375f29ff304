"""``veristep alps``: the whole command line of ALPS in one place.

ETP numbers, the corpus generator, screening, dedup and yield; the model builder; the judge and its
self-test; the prover sweep; the model evaluation. The engines live in their own modules and know
nothing of argparse; where the work runs (Ray or this machine) is chosen in ``alps.backend``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from veristep.alps.backend import ray_backend
from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "ALPS equational laws: ETP ids, generate, screen, dedup"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="alps_command", metavar="SUBCOMMAND", required=True)

    p = sub.add_parser("id", help="ETP equation number of a law (any order)")
    p.add_argument("law", help="e.g. 'x = y ◇ (x ◇ z)' or 'x = y*(x*z)'")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("generate", help="extend seed laws by one operation per order")
    p.add_argument("--seeds", type=Path, help="JSONL of seed laws (default: the 130 order-5 seeds)")
    p.add_argument("--out", type=Path, required=True, help="JSONL of generated laws")
    p.add_argument("--orders", type=int, default=1, help="how many orders to add (default 1)")
    p.add_argument("--screen-size", type=int, default=3, help="drop laws with a model this small")
    p.add_argument(
        "--screen",
        action="store_true",
        help="screen survivors with the prover, recurse from AUSTIN_PROVEN laws and report yield",
    )
    _screen_options(p)

    p = sub.add_parser("screen", help="screen laws: TRIVIAL, AUSTIN_PROVEN, HAS_FINITE_MODEL, ...")
    p.add_argument("input", type=Path, help="JSONL with a 'law' field, or one law per line")
    p.add_argument("--out", type=Path, required=True, help="JSONL export of all results")
    _screen_options(p)

    p = sub.add_parser("dedup", help="equivalence classes of the laws in a file")
    p.add_argument("input", type=Path)
    p.add_argument("--timeout", type=float, default=5.0, help="prover seconds per implication")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("yield", help="AUSTIN_PROVEN per 1,000 screened candidates, per order")
    p.add_argument("input", type=Path, help="JSONL with 'law' and 'status' (screen --out)")
    p.add_argument("--classes", type=Path, help="JSON with proven equivalences ('merged' pairs)")
    p.add_argument("--json", action="store_true")

    from veristep.alps import model_command

    model_command.add_arguments(sub.add_parser("model", help=model_command.HELP))
    add_judge_arguments(sub.add_parser("judge", help="judge a chain or construction submission"))
    add_selftest_arguments(sub.add_parser("selftest", help="run the judge's controls"))
    add_sweep_arguments(sub.add_parser("sweep", help="prover-portfolio sweep over a budget ladder"))
    from veristep.alps.harness import add_eval_arguments

    add_eval_arguments(
        sub.add_parser("eval", help="evaluate a language model under ALPS's protocol")
    )


def _screen_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=Path, help="SQLite results store (default: OUT with .sqlite)")
    p.add_argument("--workers", type=int, help="parallel worker processes (default: settings)")
    p.add_argument(
        "--prover",
        default="e/auto",
        help="e/auto (default), e/satauto, e3/auto, e3/satauto, prover9",
    )
    p.add_argument("--timeout", type=float, help="seconds per prover call (default: settings)")
    p.add_argument("--max-model-size", type=int, default=5, help="SAT model sizes 2..N")
    p.add_argument(
        "--completion-seconds",
        type=float,
        default=2.0,
        help="CPU seconds of ordered completion per law (its models need no prover; 0: off)",
    )
    p.add_argument("--no-progress", action="store_true")
    p.add_argument(
        "--ray",
        action="store_true",
        help="run on Ray (pip install 'veristep[ray]'; RAY_ADDRESS joins a cluster)",
    )


def _backend(args: argparse.Namespace, settings: Settings):
    """Ray when asked (``--ray`` or RAY_ADDRESS), else None: the local process pool."""
    return ray_backend(args.ray, args.workers or settings.pool_workers)


def run(args: argparse.Namespace, settings: Settings) -> int:
    handler = {
        "id": _id,
        "generate": _generate,
        "screen": _screen,
        "dedup": _dedup,
        "yield": _yield,
        "model": _model,
        "judge": run_judge,
        "selftest": run_selftest_command,
        "sweep": run_sweep_command,
        "eval": _eval,
    }
    return handler[args.alps_command](args, settings)


def _eval(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.harness import run_eval_command

    return run_eval_command(args, settings)


def _model(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps import model_command

    return model_command.run(args, settings)


def _id(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.etp import etp_id
    from veristep.alps.terms import canonical, dual, parse_law

    law = parse_law(args.law)
    row = {
        "id": etp_id(law),
        "law": str(canonical(law)),
        "order": law.order,
        "dual_id": etp_id(dual(law)),
    }
    if args.json:
        print(json.dumps(row, ensure_ascii=False))
    else:
        print(f"Equation{row['id']}: {row['law']}  (order {row['order']}, dual {row['dual_id']})")
    return 0


def _budget(args: argparse.Namespace, settings: Settings):
    from veristep.alps.stages import ScreenBudget

    timeout = args.timeout if args.timeout is not None else settings.prover_timeout_s
    if timeout <= 0 or args.max_model_size < 2 or args.completion_seconds < 0:
        raise InputError(
            "--timeout must be positive, --max-model-size at least 2, --completion-seconds ≥ 0"
        )
    return ScreenBudget(
        timeout,
        settings.prover_memory_mb,
        args.max_model_size,
        completion_s=args.completion_seconds,
    )


def _store(args: argparse.Namespace, out: Path):
    from veristep.alps.store import ScreenStore

    return ScreenStore(args.db or out.with_suffix(".sqlite"))


def _generate(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.corpus import grow
    from veristep.alps.screen import make_prover, read_laws
    from veristep.alps.terms import parse_law
    from veristep.core.datasets import require_shared_data

    seeds_path = args.seeds or require_shared_data("alps_dev", "order5_seeds.jsonl")
    seeds = [parse_law(t) for t in read_laws(seeds_path)]
    if args.orders < 1:
        raise InputError("--orders must be at least 1")
    store = None
    if args.screen:
        make_prover(args.prover)
        store = _store(args, args.out)
    workers = args.workers or settings.pool_workers
    budget = _budget(args, settings)
    backend = _backend(args, settings)
    try:
        yields = grow(
            seeds,
            args.orders,
            args.out,
            store,
            budget,
            args.prover,
            workers,
            args.screen_size,
            not args.no_progress,
            backend,
        )
    finally:
        if backend is not None:
            backend.close()
    for y in yields:
        print(json.dumps(y.to_json()))
    return 0


def _screen(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.screen import read_laws, screen_many
    from veristep.core.interrupts import Interrupted

    if not args.input.is_file():
        raise InputError(f"input file not found: {args.input}")
    laws = read_laws(args.input)
    store = _store(args, args.out)
    workers = args.workers or settings.pool_workers
    already = len(set(laws) & store.finished())
    budget = _budget(args, settings)
    backend = _backend(args, settings)
    try:
        counts = screen_many(
            laws, store, budget, args.prover, workers, not args.no_progress, backend
        )
    except KeyboardInterrupt as exc:
        # What finished is in the store already; --out shows it too, so an interrupted
        # sweep leaves a readable partial export next to the resumable database. An
        # interrupt before the workers start (plain KeyboardInterrupt) says the same.
        if not isinstance(exc, Interrupted):
            exc = Interrupted(
                f"{str(exc) or 'interrupted'}; {store.path} keeps every law screened so far: "
                "run the same command to resume"
            )
        store.export_jsonl(args.out)
        raise Interrupted(f"{exc}; the laws screened so far are in {args.out}") from None
    finally:
        if backend is not None:
            backend.close()
    store.export_jsonl(args.out)
    totals: dict[str, int] = {}
    for row in store.export():
        if row["law"] in laws:
            totals[str(row["status"])] = totals.get(str(row["status"]), 0) + 1
    print(
        json.dumps(
            {
                "laws": len(laws),
                "resumed": already,
                "screened_now": sum(counts.values()),
                "status": dict(sorted(totals.items())),
                "out": str(args.out),
            }
        )
    )
    return 0


def _dedup(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.dedup import equivalence_classes
    from veristep.alps.screen import make_prover, read_laws
    from veristep.alps.terms import parse_law

    laws = [parse_law(t) for t in read_laws(args.input)]
    result = equivalence_classes(laws, make_prover("e/auto"), args.timeout)
    if args.json:
        print(
            json.dumps(
                {
                    "classes": result.classes,
                    "undecided": result.undecided,
                    # which comparisons stayed open: a class may be split only for want of time
                    "undecided_pairs": [list(pair) for pair in result.undecided_pairs],
                },
                ensure_ascii=False,
            )
        )
    else:
        for i, cls in enumerate(result.classes, start=1):
            print(f"class {i}: " + " | ".join(cls))
        print(
            f"{len(laws)} laws, {len(result.classes)} classes, {result.undecided} pairs undecided",
            file=sys.stderr,
        )
    return 0


def _yield(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.paper_yield import format_table, read_merges, read_status_file, yield_table

    for path in (args.input, args.classes):
        if path is not None and not path.is_file():
            raise InputError(f"file not found: {path}")
    try:
        rows = read_status_file(args.input)
    except (ValueError, KeyError, TypeError) as err:
        raise InputError(f"not a status file ('law' and 'status' per line): {err}") from None
    try:
        merges = read_merges(args.classes) if args.classes else None
    except (ValueError, KeyError, TypeError) as err:
        raise InputError(
            f"{args.classes}: not a classes file ('merged' pairs or 'classes' lists): {err}"
        ) from None
    table = yield_table(rows, merges)
    if args.json:
        print(json.dumps([y.to_json() for y in table], ensure_ascii=False))
    else:
        print(format_table(table))
    return 0


# ---------------------------------------------------------------- judge and selftest


def add_judge_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--law", required=True, help="the law, e.g. 'x = y ◇ (x ◇ z)'")
    p.add_argument("submission", help='JSON file {"chain": [...]} or {"E": [...]}; - for stdin')
    p.add_argument("--json", action="store_true", help="one JSON verdict on stdout")
    p.add_argument("--certificate", action="store_true", help="include the certificate in --json")
    p.add_argument("--cert-dir", type=Path, help="save the sealed certificate here")
    p.add_argument("--timeout", type=float, help="seconds per prover call (default: settings)")
    p.add_argument(
        "--prover", default="e/auto", help="e/auto (default), e/satauto, e3/auto or e3/satauto"
    )


def _read_submission(name: str) -> bytes:
    from veristep.alps.judge.submission import MAX_SUBMISSION_BYTES

    # Read one byte past the limit, never the whole of a huge file: the judge reports the size.
    if name == "-":
        return sys.stdin.buffer.read(MAX_SUBMISSION_BYTES + 1)
    path = Path(name)
    if not path.is_file():
        raise InputError(f"submission file not found: {name}")
    with open(path, "rb") as fh:
        return fh.read(MAX_SUBMISSION_BYTES + 1)


def judge_config(args: argparse.Namespace, settings: Settings, cert_dir: Path | None):
    from veristep.alps.judge import JudgeConfig
    from veristep.alps.judge.lean_export import LakeRunner
    from veristep.alps.screen import make_prover

    timeout = (
        args.timeout if getattr(args, "timeout", None) is not None else settings.prover_timeout_s
    )
    if timeout <= 0:
        raise InputError("--timeout must be positive")
    return JudgeConfig(
        prover=make_prover(getattr(args, "prover", "e/auto")),
        timeout_s=timeout,
        memory_mb=settings.prover_memory_mb,
        cert_dir=cert_dir,
        lean=LakeRunner(settings.lean_project_dir),
    )


def run_judge(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.judge import judge
    from veristep.alps.terms import parse_law

    law = parse_law(args.law)
    raw = _read_submission(args.submission)
    if args.cert_dir is not None and args.cert_dir.exists() and not args.cert_dir.is_dir():
        # Fail before judging: the certificate is written only after the (slow) prover runs.
        raise InputError(f"--cert-dir {args.cert_dir} is a file, not a directory")
    verdict = judge(law, raw, judge_config(args, settings, args.cert_dir))
    if args.json:
        print(json.dumps(verdict.to_json(args.certificate), ensure_ascii=False))
        return 0
    print(f"{verdict.status.upper()} ({verdict.channel}): {verdict.message}")
    if verdict.classification and verdict.classification != "certified":
        print(f"classification: {verdict.classification}")
    lean = verdict.certificate.get("lean")
    if isinstance(lean, dict):
        print(
            f"lean: {lean['status']}"
            + (f" ({'; '.join(lean['reasons'])})" if lean["reasons"] else "")
        )
    print(
        f"certificate: {verdict.certificate_hash[:16]}"
        + (f" → {verdict.certificate_path}" if verdict.certificate_path else "")
    )
    return 0


def add_selftest_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds per prover call")


def run_selftest_command(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.selftest import run_selftest, stamp_path

    report = run_selftest(timeout_s=args.timeout, memory_mb=settings.prover_memory_mb)
    path = stamp_path(settings.data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        print("\n".join(report.lines()))
    return 0 if report.passed else 1


# ---------------------------------------------------------------- sweep


def add_sweep_arguments(p: argparse.ArgumentParser) -> None:
    from veristep.alps.sweep import DEFAULT_BUDGETS

    p.add_argument("laws", type=Path, nargs="+", help="JSONL files with a 'law' field")
    p.add_argument("--out", type=Path, required=True, help="output folder (store, table, plot)")
    p.add_argument(
        "--budgets", default=",".join(map(str, DEFAULT_BUDGETS)), help="seconds, e.g. 30,60"
    )
    p.add_argument("--configs", help="comma-separated (default: every installed one)")
    p.add_argument("--limit", type=int, help="first N laws of each file")
    p.add_argument("--workers", type=int, help="local worker processes (default: settings)")
    p.add_argument("--ray", action="store_true", help="run on Ray (RAY_ADDRESS joins a cluster)")
    p.add_argument("--no-progress", action="store_true")


def _parse_budgets(text: str) -> list[int]:
    try:
        budgets = sorted({int(b) for b in text.split(",") if b.strip()})
    except ValueError:
        raise InputError(f"--budgets must be whole seconds separated by commas: {text!r}") from None
    if not budgets or budgets[0] <= 0:
        raise InputError("--budgets needs at least one positive budget")
    return budgets


def _parse_configs(text: str | None) -> list[str]:
    from veristep.alps.sweep import config_names
    from veristep.core.errors import did_you_mean

    available = config_names()
    if not text:
        return available
    chosen = [c.strip() for c in text.split(",") if c.strip()]
    for c in chosen:
        if c not in available:
            hint = did_you_mean(c, available, cutoff=0.5)
            raise InputError(
                f"configuration {c!r} is unknown or its prover is not installed "
                f"(available: {', '.join(available)})",
                hint=hint,
            )
    return chosen


def run_sweep_command(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.selftest import ensure_selftest
    from veristep.alps.sweep import (
        Backend,
        LocalBackend,
        SweepStore,
        SweepSummary,
        read_law_file,
        run_ladder,
    )

    budgets, configs = _parse_budgets(args.budgets), _parse_configs(args.configs)
    laws: list[str] = []
    for path in args.laws:
        if not path.is_file():
            raise InputError(f"law file not found: {path}")
        laws += read_law_file(path, args.limit)
    ensure_selftest(settings.data_dir)  # raises: the sweep refuses to run on a broken judge
    workers = args.workers or settings.pool_workers
    backend: Backend = ray_backend(args.ray, workers) or LocalBackend(workers)
    store = SweepStore(args.out / "sweep.sqlite", args.out / "certs")
    store.seed_from_export(args.out / "cells.jsonl")
    from veristep.alps.sweep_report import write_outputs

    try:
        summary = run_ladder(
            laws, configs, budgets, store, backend, settings.prover_memory_mb, not args.no_progress
        )
        write_outputs(store, summary, args.out)
    except KeyboardInterrupt as exc:
        # Every finished cell is in the database; the export (cells.jsonl, table.txt) shows
        # them too, so an interrupted sweep can be read, and resumed even from a fresh clone.
        from veristep.core.interrupts import Interrupted

        partial = SweepSummary(len(laws), configs, budgets, 0, 0, {})
        write_outputs(store, partial, args.out)
        raise Interrupted(
            f"{str(exc) or 'interrupted'}; every finished cell is in {args.out / 'sweep.sqlite'} "
            f"and {args.out / 'cells.jsonl'}: run the same command to resume"
        ) from None
    finally:
        backend.close()
        store.close()
    print(json.dumps({**summary.to_json(), "backend": backend.name, "out": str(args.out)}))
    return 0
