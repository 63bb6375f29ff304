"""``veristep alps``: ETP numbers, the corpus generator, screening and dedup of equational laws."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

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

    from veristep.alps.judge import cli as part2  # ALPS part 2: judge, selftest, sweep, eval

    for name in part2.SUBCOMMANDS:
        part2.register(sub, name)


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
    address = os.environ.get("RAY_ADDRESS")
    if not (args.ray or address):
        return None
    from veristep.alps.sweep_ray import RayBackend

    return RayBackend(address, args.workers or settings.pool_workers)


def run(args: argparse.Namespace, settings: Settings) -> int:
    handler = {
        "id": _id,
        "generate": _generate,
        "screen": _screen,
        "dedup": _dedup,
        "yield": _yield,
        "model": _model,
    }
    from veristep.alps.judge import cli as part2

    handler.update(dict.fromkeys(part2.SUBCOMMANDS, part2.run))
    return handler[args.alps_command](args, settings)


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
    from veristep.alps.stages import Budget

    timeout = args.timeout if args.timeout is not None else settings.prover_timeout_s
    if timeout <= 0 or args.max_model_size < 2 or args.completion_seconds < 0:
        raise InputError(
            "--timeout must be positive, --max-model-size at least 2, --completion-seconds ≥ 0"
        )
    return Budget(
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
