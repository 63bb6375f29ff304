"""``veristep check``: judge a derivation given on the command line, or a JSONL batch of them.

veristep check STATE0 STATE1 [...] [--types T1,T2,...] [--target T] [--json]
veristep check --jsonl FILE      # {"states": [...], "change_types": [...]?, "target": "..."?}
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "judge every step of a derivation: grounded · verified · plausible · unchecked · refuted"

_BATCH_KEYS = frozenset({"states", "change_types", "target", "positive"})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("states", nargs="*", metavar="STATE", help="LaTeX states, first to last")
    parser.add_argument("--types", help="comma-separated change types, one per step "
                        "(rewrite, solve, substitute, approximate, given)")  # fmt: skip
    parser.add_argument(
        "--target", help="LaTeX the last state must reach (default: the last state)"
    )
    parser.add_argument("--positive", default="", help="comma-separated symbols assumed positive")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument(
        "--jsonl", metavar="FILE", help="batch: one JSON object per line ('-': stdin)"
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    positive = _names(args.positive)
    if args.jsonl:
        if args.states:
            raise InputError("give either states or --jsonl FILE, not both")
        return _run_batch(args.jsonl, settings, positive)
    if not args.states:
        raise InputError("no states given: veristep check STATE0 STATE1 ... (or --jsonl FILE)")
    types = [t.strip() for t in args.types.split(",")] if args.types is not None else None
    states = [_argv_text(s) for s in args.states]
    target = _argv_text(args.target) if args.target is not None else None
    return _run_one(states, types, target, settings, positive, args.json)


def _argv_text(text: str) -> str:
    """Bytes of the command line that are not UTF-8 reach Python as lone surrogates, which no
    strict UTF-8 stdout can print; make each one U+FFFD, so that the state is reported
    (unparseable, with its column) instead of crashing the report.

    >>> _argv_text("x" + chr(0xDCFF) + "=1") == "x\ufffd=1"
    True
    """
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _run_one(
    states: list[str],
    types: list[str] | None,
    target: str | None,
    settings: Settings,
    positive: frozenset[str],
    as_json: bool,
) -> int:
    from veristep.grounding.chain import check_states
    from veristep.grounding.report import render

    derivation, parsed = check_states(states, types, target, settings, positive)
    if as_json:
        print(json.dumps(derivation.to_json(), ensure_ascii=False))
    else:
        displays = [s.display or s.latex for s in parsed]
        print(render(displays, derivation.steps, derivation.endpoint, derivation.confidence))
    return 0


def _run_batch(source: str, settings: Settings, positive: frozenset[str]) -> int:
    from veristep.grounding.chain import check

    lines = _read_lines(source)
    bad = 0
    for number, line in _progress(lines):
        try:
            item = _parse_item(line, number)
            result: dict[str, Any] = check(
                item["states"], item.get("change_types"), item.get("target"), settings,
                positive | frozenset(item.get("positive") or ()),
            ).to_json()  # fmt: skip
        except InputError as err:
            bad += 1
            print(f"veristep check: line {number}: {err.one_line()}", file=sys.stderr)
            result = {"line": number, **err.to_json()}
        print(json.dumps(result, ensure_ascii=False), flush=True)
    return 2 if bad else 0


def _read_lines(source: str) -> list[tuple[int, bytes]]:
    """The non-blank lines as bytes: each is decoded on its own, so that one line that is not
    UTF-8 costs that line only, with its own located error."""
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None
    return [(i, line) for i, line in enumerate(data.splitlines(), 1) if line.strip()]


def _parse_item(raw: bytes, number: int) -> dict[str, Any]:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start + 1} of the line)") from None
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg}", source=line, position=exc.pos) from None
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply") from None
    if not isinstance(item, dict):
        raise InputError("each line must be a JSON object with a 'states' list")
    unknown = sorted(set(item) - _BATCH_KEYS)
    if unknown:
        raise InputError(f"unknown key(s) {', '.join(unknown)}; expected {sorted(_BATCH_KEYS)}")
    if not _strings(item.get("states")) or not item["states"]:
        raise InputError("'states' must be a non-empty list of LaTeX strings")
    for key in ("change_types", "positive"):
        if item.get(key) is not None and not _strings(item[key]):
            raise InputError(f"'{key}' must be a list of strings, got {_shown(item[key])}")
    if item.get("target") is not None and not isinstance(item["target"], str):
        raise InputError(f"'target' must be a LaTeX string, got {_shown(item['target'])}")
    return item


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _progress(lines: list[tuple[int, str]]):
    """Iterate with a progress bar on stderr when a person is watching."""
    if not sys.stderr.isatty() or len(lines) < 2:
        yield from lines
        return
    from rich.progress import Progress

    with Progress(transient=True, console=_stderr_console()) as bar:
        task = bar.add_task("checking", total=len(lines))
        for item in lines:
            yield item
            bar.advance(task)


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


def _split(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def _names(text: str | None) -> frozenset[str]:
    return frozenset(_split(text))
