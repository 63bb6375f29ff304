"""``veristep do``: the conversational CAS on the command line.

veristep do STATE OPERATION [OPERATION ...] [--positive a,b] [--json]

Each operation ("factor", "solve for x", "divide both sides by x - 1") is applied with SymPy and
becomes a step; the whole chain is then graded by the grounding cascade, exactly like
``veristep check`` would grade it. Operations that lose information say so beside their step.
"""

from __future__ import annotations

import argparse
import json
import re

from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "apply operations ('factor', 'solve for x') to a state; every one becomes a graded step"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("state", metavar="STATE", help="the start (LaTeX or plain)")
    parser.add_argument(
        "operations", nargs="+", metavar="OPERATION",
        help="what to do, in words: 'expand the left side', 'solve for x'",
    )  # fmt: skip
    parser.add_argument("--positive", default="", help="comma-separated symbols assumed positive")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.workspace.session import Workspace

    positive = frozenset(n.strip() for n in args.positive.split(",") if n.strip())
    ws = Workspace(args.state, settings, positive, grade=False)
    for number, text in enumerate(args.operations, 1):
        try:
            ws.apply(text)
        except InputError as err:
            err.message = f"operation {number}: {err.message}"
            raise
    derivation = ws.derivation()
    path = ws.path()[1:]
    if args.json:
        doc = derivation.to_json()
        for step, node in zip(doc["steps"], path, strict=True):
            step["warnings"] = list(node.warnings)
        print(json.dumps(doc, ensure_ascii=False))
        return 0
    print(_render(derivation, path))
    return 0


def _render(derivation: object, path: list) -> str:
    """The ``check`` report, with each step's operation and warnings above its line."""
    from veristep.grounding.report import render_derivation

    lines = render_derivation(derivation).splitlines()  # type: ignore[arg-type]
    out: list[str] = []
    for line in lines:
        m = re.match(r"\s*step (\d+):", line)
        if m is not None and 0 < int(m.group(1)) <= len(path):
            node = path[int(m.group(1)) - 1]
            out.append(f"   ── {node.operation}")
            out.extend(f"      ⚠ {w}" for w in node.warnings)
        out.append(line)
    return "\n".join(out)
