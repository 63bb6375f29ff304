"""The command-line side of the batch engine: ``--store``, ``--workers`` and ``--ray``, and one
output line per input line, in input order, printed as soon as every line before it is done.

A command prepares each input line into a :class:`Line` (its output head, and either a task or,
for a line it already found bad, a ready result). A task's outcome is ``{"ok": result}``,
``{"bad": error_json, "message": ...}`` for input it refuses, or the engine's ``{"error": ...}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from veristep.core.batch_task import Task, TaskFn
from veristep.core.errors import InputError


@dataclass
class Line:
    head: dict[str, Any]
    task: Task | None = None
    ready: dict[str, Any] = field(default_factory=dict)  # the result of a line found bad


@dataclass
class Counts:
    bad: int = 0
    failed: int = 0

    @property
    def exit_code(self) -> int:
        return 1 if self.failed else 2 if self.bad else 0


def add_batch_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store", metavar="DB", help="batch: keep results in this SQLite file; a rerun resumes "
        "(a line already done is not done again; a changed line is)",
    )  # fmt: skip
    add_backend_arguments(parser, "batch", "lines done at once")


def add_backend_arguments(parser: argparse.ArgumentParser, purpose: str, unit: str) -> None:
    """``--workers N`` and ``--ray``: where a batch runs (every batch command says it alike)."""
    parser.add_argument(
        "--workers", type=int, default=1, metavar="N",
        help=f"{purpose}: {unit}, each in its own worker process (default 1)",
    )  # fmt: skip
    parser.add_argument(
        "--ray", action="store_true",
        help=f"{purpose}: run on Ray (RAY_ADDRESS joins a cluster; needs veristep[ray])",
    )  # fmt: skip


def run_lines(
    command: str, lines: list[Line], fn: TaskFn, context: Any, salt: str,
    args: argparse.Namespace,
) -> Counts:  # fmt: skip
    """Run every line's task on the backend ``args`` chose and print the lines in order."""
    from veristep.core.batch import ResultStore, backend_for, run_batch
    from veristep.core.interrupts import Interrupted

    if args.workers < 1:
        raise InputError(f"--workers must be at least 1, got {args.workers}")
    printer = _InOrder(command, lines)
    with_task = [at for at, line in enumerate(lines) if line.task is not None]
    store = ResultStore(args.store or ":memory:")
    backend = backend_for(args.ray, args.workers)
    try:
        summary = run_batch(
            fn, [lines[at].task for at in with_task], store, backend, context=context, salt=salt,
            progress=sys.stderr.isatty() and len(with_task) > 1, label=command,
            on_result=lambda index, outcome: printer.add(with_task[index], outcome),
        )  # fmt: skip
    except KeyboardInterrupt:
        kept = f"{len(store)} results kept in {args.store}; run again to resume"
        raise Interrupted(kept if args.store else "interrupted") from None
    finally:
        backend.close()
        store.close()
    printer.flush()
    if args.store:
        print(f"veristep {command}: {summary.resumed} lines from {args.store}, "
              f"{summary.ran} done", file=sys.stderr)  # fmt: skip
    return printer.counts


class _InOrder:
    """Prints each line's result as soon as every line before it has one."""

    def __init__(self, command: str, lines: list[Line]) -> None:
        self._command, self._lines, self._next = command, lines, 0
        self._ready = {at: line.ready for at, line in enumerate(lines) if line.task is None}
        self.counts = Counts(bad=len(self._ready))
        self.flush()

    def add(self, at: int, outcome: dict[str, Any]) -> None:
        if "ok" in outcome:
            result = outcome["ok"]
        elif "bad" in outcome:
            self.counts.bad += 1
            self._say(at, outcome["message"])
            result = outcome["bad"]
        else:  # the engine's error: the task raised, or its worker kept dying
            self.counts.failed += 1
            self._say(at, outcome["error"])
            result = {"error": outcome["error"]}
        self._ready[at] = result
        self.flush()

    def _say(self, at: int, message: str) -> None:
        number = self._lines[at].head["line"]
        print(f"veristep {self._command}: line {number}: {message}", file=sys.stderr)

    def flush(self) -> None:
        while self._next in self._ready:
            result = self._ready.pop(self._next)
            head = self._lines[self._next].head
            print(json.dumps({**head, **result}, ensure_ascii=False), flush=True)
            self._next += 1


def read_json_lines(source: str) -> list[tuple[int, Any, InputError | None]]:
    """Every line of ``source`` (``-``: stdin) as ``(number, parsed JSON, None)``, or as
    ``(number, None, error)`` when it is blank, not UTF-8 or not JSON: one bad line costs itself."""
    from pathlib import Path

    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None
    return [(number, *_json_of(raw)) for number, raw in enumerate(data.splitlines(), 1)]


def _json_of(raw: bytes) -> tuple[Any, InputError | None]:
    if not raw.strip():
        return None, InputError("blank line: expected a JSON object")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, InputError(f"not UTF-8 text (byte {exc.start + 1} of the line)")
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, InputError(f"invalid JSON: {exc.msg}", source=text, position=exc.pos)
    except RecursionError:
        return None, InputError("invalid JSON: nested too deeply")
