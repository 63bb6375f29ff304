"""``veristep derive``: write and ground a derivation from START to TARGET (or to the goal's
finished form, with the answer stated, when no TARGET is given).

veristep derive START [TARGET] [--goal G] [--domain D] [--proposer symbolic|llm|hybrid] [--model M]
                [--attempts N] [--judge] [--json] [--html OUT.html]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from veristep.core.batch_lines import Line, add_batch_arguments
from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "write a step-by-step derivation from START to TARGET and ground every step"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from veristep.propose.completion import DOMAINS, PROPOSERS
    from veristep.propose.goals import GOALS

    parser.add_argument("start", metavar="START", nargs="?", default=None,
                        help="the start (LaTeX or plain maths), optionally after a task word "
                        "(solve, simplify, factor, expand, differentiate, integrate, limit of, "
                        "prove)")  # fmt: skip
    parser.add_argument("target", metavar="TARGET", nargs="?", default=None,
                        help="the state to reach (default: the goal's finished form)")  # fmt: skip
    parser.add_argument("--goal", choices=GOALS, default=None,
                        help="without a TARGET: what to do (default: solve a statement, carry "
                        "out a derivative/integral/limit/sum, simplify otherwise)")  # fmt: skip
    parser.add_argument("--domain", default="auto", choices=DOMAINS, help="subject area hint")
    parser.add_argument("--proposer", default="symbolic", choices=PROPOSERS,
                        help="symbolic (offline planner, default), llm, or hybrid")  # fmt: skip
    parser.add_argument("--model", help="DSPy model string for llm/hybrid/--judge")
    parser.add_argument("--attempts", type=int, default=None,
                        help="drafts at most (default: 3 symbolic, 1 llm)")  # fmt: skip
    parser.add_argument("--judge", action="store_true",
                        help="blend a soft LLM judge of clarity into the score")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--html", metavar="OUT.html", help="also write the animated derivation")
    parser.add_argument("--batch", metavar="FILE", help="one JSON object per line ('-': stdin): "
                        '{"start": ..., "target"?, "goal"?, "domain"?, "id"?}')  # fmt: skip
    add_batch_arguments(parser)


def run(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.core.pool import start_shared_pool

    # Arguments are checked before any worker starts: bad input answers at once.
    if args.html and not Path(args.html).resolve().parent.is_dir():
        raise InputError(f"--html {args.html}: its folder does not exist")
    if args.attempts is not None and args.attempts < 1:
        raise InputError(f"--attempts must be at least 1, got {args.attempts}")
    if args.batch is not None:
        if args.start is not None:
            raise InputError("give either START or --batch FILE, not both")
        return _run_batch(args, settings)
    if args.start is None:
        raise InputError("no start given: veristep derive START [TARGET] (or --batch FILE)")
    from veristep.grounding import WORKER_MODULES

    # Beside the imports, parsing and planning, not after them.
    start_shared_pool(settings, preload=WORKER_MODULES)
    from veristep.propose.completion import derive

    export = _html_exporter() if args.html else None  # fail before the work, not after it
    with _Progress(enabled=sys.stderr.isatty()) as progress:
        derivation = derive(
            args.start,
            args.target,
            goal=args.goal,
            settings=settings,
            domain=args.domain,
            proposer=args.proposer,
            model=args.model,
            attempts=args.attempts,
            judge=args.judge,
            on_attempt=progress.attempt,
        )
    if export is not None:
        export(derivation, Path(args.html))
    if args.json:
        print(json.dumps(derivation.to_json(), ensure_ascii=False))
    else:
        print(render_human(derivation))
    return 0


def _run_batch(args: argparse.Namespace, settings: Settings) -> int:
    """One JSON derivation per input line, in order, on the batch engine (``core.batch``)."""
    from veristep.core.batch_lines import read_json_lines, run_lines
    from veristep.grounding.batch import judging_salt
    from veristep.propose.batch import derive_task, task_of

    lines: list[Line] = []
    for number, item, error in read_json_lines(args.batch):
        head: dict[str, Any] = {"line": number}
        if isinstance(item, dict) and isinstance(item.get("id"), (str, int, float)):
            head["id"] = item["id"]
        try:
            if error is not None:
                raise error
            lines.append(Line(head, task_of(item)))
        except InputError as err:
            print(f"veristep derive: line {number}: {err.one_line()}", file=sys.stderr)
            lines.append(Line(head, ready=err.to_json()))
    if args.workers > 1 or args.ray:
        settings = settings.replace(pool_workers=1)  # one CAS worker per worker
    options = {"proposer": args.proposer, "model": args.model, "attempts": args.attempts}
    salt = f"{judging_salt(settings)}; {sorted(options.items())}"
    context = {"settings": settings, **options}
    return run_lines("derive", lines, derive_task, context, salt, args).exit_code


def render_human(derivation: Any) -> str:
    """``check``'s report, each step annotated with its operation, plus what the proposer did."""
    from veristep.grounding.report import render_derivation

    shown = [derivation.states[0].latex]
    for state, step in zip(derivation.states[1:], derivation.steps, strict=False):
        shown.append(f"{state.latex}    [{step.operation}]" if step.operation else state.latex)
    p = derivation.proposer
    head = [f"start : {derivation.start}"]
    if derivation.target is not None or derivation.goal is None:
        head.append(f"target: {derivation.target}")
    if derivation.goal is not None:
        head.append(f"goal  : {derivation.goal}")
    model = f", model {p.get('model')}" if p.get("model") else ""
    head.append(f"(proposer: {p.get('kind')}{model}; attempts: {p.get('attempts')}; "
                f"best: {p.get('best_attempt')})")  # fmt: skip
    head.append(f"=== derivation: {len(derivation.steps)} step(s) ===")
    tail = []
    if p.get("note"):
        tail.append(f"note: {p['note']}")
    if derivation.endpoint.correction:
        tail.append(f"correction: {derivation.endpoint.correction}")
    elif derivation.answer is not None:
        tail.append(f"answer: {derivation.answer['sentence']}")
    return "\n".join([*head, render_derivation(derivation, shown), *tail])


def _html_exporter():
    try:
        from veristep.animate import export_html
    except ImportError:
        raise InputError("animation export not available (--html)") from None

    def write(derivation: Any, path: Path) -> None:
        try:
            path.write_text(export_html(derivation), encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {path}: {exc.strerror}") from None

    return write


class _Progress:
    """A rich status line on stderr per attempt (on a terminal only; stdout stays clean)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._status: Any = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console

            self._console = Console(stderr=True)
            self._status = self._console.status("derive: drafting attempt 1 …")
            self._status.start()
        return self

    def attempt(self, attempt: Any) -> None:
        if self._status is None:
            return
        c = attempt.derivation.confidence
        self._console.log(f"attempt {attempt.index}: {c.tier.icon} {c.summary} "
                          f"(score {attempt.score:.2f}, {attempt.ms / 1000:.1f} s)")  # fmt: skip
        self._status.update(f"derive: drafting attempt {attempt.index + 1} …")

    def __exit__(self, *exc: object) -> None:
        if self._status is not None:
            self._status.stop()
