"""The animation payload: a derivation's states re-rendered with stable glyph ids, plus its steps.

Shape (``format: veristep-animation``, version 1)::

    {"frames": [{"latex", "tex", "ids", "error"?}],      # tex: LaTeX with \\htmlData{n=ID}{…}
     "steps":  [{"index", "tier", "icon", "relation", "operation", "reason", "check",
                 "witness", "moves", "deletes", "inserts"}],  # id lists, as the engine animates
     "plots":  [{"kind": "equation" | "witness", "frame", "var", ...}],  # see animate.plots
     "start", "target", "confidence", "endpoint", "proposer"}

A state that does not parse still becomes a frame (wrapped in one fresh id, so it cross-fades);
rebasing then continues from the last state that did parse. A step may carry a planner ``mapping``
(previous graph id → next graph id), which the matcher takes as given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from veristep.animate.graphs import tree_from_graph
from veristep.animate.plots import plots_for
from veristep.animate.rebase import IdThread
from veristep.core.errors import VeristepError
from veristep.core.tiers import Tier

FORMAT = "veristep-animation"
_ID_RE = re.compile(r"\\htmlData\{n=(\d+)[,}]")


def ids_in(tex: str) -> list[int]:
    r"""The glyph ids a rendered state carries.

    >>> ids_in(r"\htmlData{n=3}{x}+\htmlData{n=12}{y}")
    [3, 12]
    """
    return sorted({int(m) for m in _ID_RE.findall(tex)})


def build_payload(
    derivation: Mapping[str, Any],
    *,
    parse: Callable[[str], Any] | None = None,
    render: Callable[[Any], str] | None = None,
) -> dict[str, Any]:
    """The payload for a derivation JSON (``Derivation.to_json()``)."""
    parse, render = _defaults(parse, render)
    thread = IdThread()
    frames: list[dict[str, Any]] = []
    prev: tuple[Any, dict[int, int]] | None = None  # (tree, stable ids) of the last parsed state
    steps_in = list(derivation.get("steps") or [])
    for k, state in enumerate(derivation.get("states") or []):
        latex = state.get("latex") or ""
        try:
            graph = parse(latex)
        except (VeristepError, ValueError, RecursionError) as exc:
            frames.append(_unparsed_frame(latex, thread, str(exc)))
            continue
        try:
            tree = tree_from_graph(graph)
            hint = _hint(steps_in, k)
            ids = thread.first(tree) if prev is None else thread.advance(*prev, tree, hint)
            tex = render(graph.relabel(ids))
        except (
            Exception
        ) as exc:  # e.g. a graph too deep to walk: one frame loses its ids, not the page
            frames.append(_unparsed_frame(latex, thread, f"not animated: {type(exc).__name__}"))
            continue
        frames.append({"latex": latex, "tex": tex, "ids": ids_in(tex)})
        prev = (tree, ids)
    return {
        "format": FORMAT,
        "version": 1,
        "start": derivation.get("start"),
        "target": derivation.get("target"),
        "frames": frames,
        "steps": (steps := [_step(s, frames) for s in steps_in]),
        "plots": plots_for(derivation, parse, steps),
        "confidence": _confidence(derivation.get("confidence"), steps_in),
        "endpoint": derivation.get("endpoint"),
        "proposer": derivation.get("proposer"),
    }


def _defaults(
    parse: Callable[[str], Any] | None, render: Callable[[Any], str] | None
) -> tuple[Callable[[str], Any], Callable[[Any], str]]:
    if parse is None or render is None:
        from veristep.mathgraph import parse_math, to_latex

        parse = parse or parse_math
        render = render or (lambda g: to_latex(g, with_ids=True))
    return parse, render


def _hint(steps: list[Mapping[str, Any]], k: int) -> dict[int, int] | None:
    """The planner mapping of the step into state ``k`` (step index k), if it gave one."""
    if k == 0 or k - 1 >= len(steps):
        return None
    mapping = steps[k - 1].get("mapping")
    if not isinstance(mapping, Mapping):
        return None
    try:
        return {int(a): int(b) for a, b in mapping.items()}
    except (TypeError, ValueError):
        return None


def _unparsed_frame(latex: str, thread: IdThread, error: str) -> dict[str, Any]:
    ident = thread.fresh()
    return {
        "latex": latex,
        "tex": f"\\htmlData{{n={ident}}}{{{latex}}}",
        "ids": [ident],
        "error": error,
    }


def _confidence(confidence: Any, steps: list[Any]) -> dict[str, Any]:
    """The chain verdict as shown: a known tier, and never above unchecked with no step to judge."""
    shown = dict(confidence) if isinstance(confidence, Mapping) else {}
    try:
        tier = Tier.parse(str(shown.get("tier") or "unchecked"))
    except ValueError:
        tier = Tier.UNCHECKED
    if not steps and tier is not Tier.REFUTED:
        tier = Tier.UNCHECKED
        shown["summary"] = "nothing to judge: no steps" + (
            f" ({shown['summary']})" if shown.get("summary") else ""
        )
    shown["tier"] = tier.name_lower
    return shown


def _step(step: Mapping[str, Any], frames: list[dict[str, Any]]) -> dict[str, Any]:
    index = int(step.get("index") or 0)
    try:
        tier = Tier.parse(str(step.get("tier") or "unchecked"))
    except ValueError:
        tier = Tier.UNCHECKED  # an unknown tier name must never display as a stronger one
    before = set(frames[index - 1]["ids"]) if 0 < index <= len(frames) else set()
    after = set(frames[index]["ids"]) if 0 <= index < len(frames) else set()
    return {
        "index": index,
        "tier": tier.name_lower,
        "icon": tier.icon,
        "relation": step.get("relation"),
        "operation": step.get("operation"),
        "justification": step.get("justification"),
        "change_type": step.get("change_type"),
        "check": step.get("check"),
        "reason": step.get("reason") or "",
        "witness": step.get("witness"),
        "moves": sorted(before & after),
        "deletes": sorted(before - after),
        "inserts": sorted(after - before),
    }
