"""ALPS part 2: ``veristep alps judge`` and ``veristep alps selftest`` (handlers only; the
subcommands are registered by ``alps/commands.py``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from veristep.core.errors import InputError
from veristep.core.settings import Settings


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


# ---------------------------------------------------------------- registration in `veristep alps`


def _sweep_args(p: argparse.ArgumentParser) -> None:
    from veristep.alps.sweep import add_sweep_arguments

    add_sweep_arguments(p)


def _eval_args(p: argparse.ArgumentParser) -> None:
    from veristep.alps.harness import add_eval_arguments

    add_eval_arguments(p)


def _run_sweep(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.sweep import run_sweep_command

    return run_sweep_command(args, settings)


def _run_eval(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.alps.harness import run_eval_command

    return run_eval_command(args, settings)


SUBCOMMANDS = {
    "judge": ("judge a chain or construction submission", add_judge_arguments, run_judge),
    "selftest": ("run the judge's controls", add_selftest_arguments, run_selftest_command),
    "sweep": ("prover-portfolio sweep over a budget ladder", _sweep_args, _run_sweep),
    "eval": ("evaluate a language model under ALPS's protocol", _eval_args, _run_eval),
}


def register(sub: argparse._SubParsersAction, name: str) -> None:
    help_text, add, _ = SUBCOMMANDS[name]
    add(sub.add_parser(name, help=help_text))


def run(args: argparse.Namespace, settings: Settings) -> int:
    return SUBCOMMANDS[args.alps_command][2](args, settings)
