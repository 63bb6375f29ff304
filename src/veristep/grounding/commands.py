"""``veristep check``: judge a derivation given on the command line, or a JSONL batch of them.

veristep check STATE0 STATE1 [...] [--types T1,T2,...] [--target T] [--json]
veristep check --jsonl FILE      # {"states": [...], "change_types": [...]?, "target": "..."?}
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from veristep.core.batch_lines import Line, add_batch_arguments
from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "judge every step of a derivation: grounded · verified · plausible · unchecked · refuted"

_SURROGATE = re.compile("[\ud800-\udfff]")
_BATCH_KEYS = frozenset({"states", "change_types", "target", "positive"})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("states", nargs="*", metavar="STATE",
                        help="states (LaTeX or plain maths), first to last")  # fmt: skip
    parser.add_argument("--types", help="comma-separated change types, one per step "
                        "(rewrite, solve, substitute, approximate, given)")  # fmt: skip
    parser.add_argument(
        "--target", help="the state the last one must reach (default: the last state)"
    )
    parser.add_argument("--positive", default="", help="comma-separated symbols assumed positive")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    # Teacher by default: the command line is read by teachers, scripts and tests, and the tiers,
    # checks and witnesses are what they rely on; a learner asks for plain sentences.
    parser.add_argument(
        "--view", choices=("teacher", "learner"), default="teacher",
        help="teacher: tiers, checks' reasons, witnesses (default); learner: plain sentences",
    )  # fmt: skip
    parser.add_argument(
        "--jsonl", metavar="FILE", help="batch: one JSON object per line ('-': stdin)"
    )
    add_batch_arguments(parser)


# A one-shot command: small CAS calls may run in-process (see grounding.cas) unless the user set it.
INLINE_CAS_S = 0.5


# The learner view names each wrong step's likely slip: (previous LaTeX, the step's LaTeX,
# settings) → a slip with a ``sentence``, or None. The slip namer runs the planner's moves
# backwards, so it lives above grounding (``workspace.slips``); the command line hands it in.
SlipNamer = Callable[[str, str, Settings], Any]


def run(args: argparse.Namespace, settings: Settings, name_slip: SlipNamer | None = None) -> int:
    positive = _names(args.positive)
    if settings.inline_cas_s == 0.0 and "VERISTEP_INLINE_CAS" not in os.environ:
        settings = settings.replace(inline_cas_s=INLINE_CAS_S)
    if args.jsonl:
        if args.states:
            raise InputError("give either states or --jsonl FILE, not both")
        return _run_batch(args, settings, positive)
    if not args.states:
        raise InputError("no states given: veristep check STATE0 STATE1 ... (or --jsonl FILE)")
    types = [t.strip() for t in args.types.split(",")] if args.types is not None else None
    states = [_argv_text(s) for s in args.states]
    target = _argv_text(args.target) if args.target is not None else None
    return _run_one(states, types, target, settings, positive, args.json, args.view, name_slip)


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
    view: str = "teacher",
    name_slip: SlipNamer | None = None,
) -> int:
    from veristep.grounding.chain import check_states
    from veristep.grounding.report import render, render_learner

    derivation, parsed = check_states(states, types, target, settings, positive)
    if as_json:
        print(json.dumps(derivation.to_json(), ensure_ascii=False))
    elif view == "learner":
        print(render_learner(derivation, _slips(derivation, settings, name_slip)))
    else:
        displays = [s.display or s.latex for s in parsed]
        print(render(displays, derivation.steps, derivation.endpoint, derivation.confidence))
    return 0


def _slips(
    derivation: Any, settings: Settings, name_slip: SlipNamer | None, most: int = 5
) -> dict[int, str]:
    """The likely slip of each wrong or incomplete step (the first few), by step index."""
    from veristep.core.tiers import Relation, Tier

    out: dict[int, str] = {}
    if name_slip is None:
        return out
    for step in derivation.steps[:most]:
        lossy = step.relation is Relation.NARROWS and step.tier is Tier.PLAUSIBLE
        if step.tier is not Tier.REFUTED and not lossy:
            continue
        prev, nxt = derivation.states[step.index - 1], derivation.states[step.index]
        slip = name_slip(prev.latex, nxt.latex, settings)
        if slip is not None:
            out[step.index] = slip.sentence
    return out


def _run_batch(args: argparse.Namespace, settings: Settings, positive: frozenset[str]) -> int:
    """One result line per input line, in order, each carrying its ``line`` number (and the
    item's ``id`` when it has one), whatever any other line does. Lines are graded by the batch
    engine (``core.batch``): with a store a rerun resumes, with workers or Ray they run at once."""
    from veristep.core.batch_lines import run_lines
    from veristep.grounding.batch import check_task, judging_salt

    lines = [_prepare_line(number, raw, positive) for number, raw in _read_lines(args.jsonl)]
    if args.workers > 1 or args.ray:
        settings = settings.replace(pool_workers=1)  # one CAS worker per grading worker
    salt = judging_salt(settings)
    return run_lines("check", lines, check_task, settings, salt, args).exit_code


def _prepare_line(number: int, raw: bytes, positive: frozenset[str]) -> Line:
    """The line's output head and its task, or its error when the line is bad."""
    warnings: list[str] = []
    try:
        item = _parse_item(raw, warnings)
    except InputError as err:
        print(f"veristep check: line {number}: {err.one_line()}", file=sys.stderr)
        return Line(_head(number, None, warnings), ready=err.to_json())
    task = {
        "states": item["states"],
        "change_types": item.get("change_types"),
        "target": item.get("target"),
        "positive": sorted(positive | frozenset(item.get("positive") or ())),
    }
    return Line(_head(number, item.get("id"), warnings), task)


def _head(number: int, item_id: Any, warnings: list[str]) -> dict[str, Any]:
    head: dict[str, Any] = {"line": number}
    if item_id is not None:
        head["id"] = item_id
    if warnings:
        head["warnings"] = warnings
    return head


def _read_lines(source: str) -> list[tuple[int, bytes]]:
    """Every line as bytes (blank ones too: output line N answers input line N); each is decoded
    on its own, so that one line that is not UTF-8 costs that line only."""
    try:
        data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None
    return list(enumerate(data.splitlines(), 1))


def _parse_item(raw: bytes, warnings: list[str]) -> dict[str, Any]:
    """The JSON object of one line. Keys other than the batch's own (an id, a label, notes)
    are kept for the caller and reported once in ``warnings``; ``id`` is echoed."""
    if not raw.strip():
        raise InputError("blank line: expected a JSON object with a 'states' list")
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
    item = _without_surrogates(item)
    unknown = sorted(set(item) - _BATCH_KEYS - {"id"})
    if unknown:
        warnings.append(f"unknown key(s) {', '.join(unknown)} ignored")
    if item.get("id") is not None and not isinstance(item["id"], (str, int, float)):
        warnings.append("'id' is not a string or number; not echoed")
        item.pop("id")
    if not _strings(item.get("states")) or not item["states"]:
        raise InputError("'states' must be a non-empty list of LaTeX strings")
    for key in ("change_types", "positive"):
        if item.get(key) is not None and not _strings(item[key]):
            raise InputError(f"'{key}' must be a list of strings, got {_shown(item[key])}")
    if item.get("target") is not None and not isinstance(item["target"], str):
        raise InputError(f"'target' must be a LaTeX string, got {_shown(item['target'])}")
    return item


def _without_surrogates(value: Any) -> Any:
    """JSON may spell lone surrogates (``"\\ud800"``), which no UTF-8 output can carry: each
    becomes U+FFFD, so the state is reported unparseable at its column instead of crashing.

    >>> _without_surrogates({"states": ["x" + chr(0xD800)]}) == {"states": ["x" + chr(0xFFFD)]}
    True
    """
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    return value


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _split(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def _names(text: str | None) -> frozenset[str]:
    return frozenset(_split(text))
