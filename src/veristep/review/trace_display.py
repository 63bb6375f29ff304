"""How a review shows itself in a notebook: the verdict, then every step (nested steps under their
parent) with its state, its tier, the machine checks with their reasons, and a flaw's witness.

Like a derivation's display (``core.verdict_display``), everything is text in the output itself,
nothing is fetched: the proof's own ``$…$`` maths and each check's formula are left as TeX for
Jupyter's bundled typesetter. This module imports nothing of ``review.trace`` (which imports it).
"""

from __future__ import annotations

import html
from typing import Any

ReviewTrace = StepRecord = Any  # review.trace's classes, which import this module

_STATE = {"open": "○ open", "verified": "✓ verified", "flawed": "✗ flawed"}


def ordered_steps(trace: ReviewTrace) -> list[StepRecord]:
    """The steps in proof order, each followed by the steps it was split into."""
    out: list[StepRecord] = []

    def visit(step_id: str) -> None:
        step = trace.steps[step_id]
        out.append(step)
        for child in step.children:
            if child in trace.steps:
                visit(child)

    for step_id in trace.order:
        visit(step_id)
    return out


def _tier(step: StepRecord) -> str:
    return "" if step.state.value == "open" else f"{step.tier.icon} {step.tier.name_lower}"


def _details(step: StepRecord) -> list[tuple[str, str]]:
    """(formula or label, what was found) for each machine check and the flaw, as plain text."""
    found = [
        (f"{check.tier.icon} ${check.latex}$", f"{check.check}: {check.reason}")
        for check in (step.machine.checks if step.machine else [])
    ]
    if step.flaw is not None:
        found.append((f"flaw ({step.flaw.kind})", step.flaw.witness))
    return found


def _headline(trace: ReviewTrace) -> tuple[str, str]:
    return f"review: {trace.verdict or 'unfinished'}", trace.reason


def to_html(trace: ReviewTrace) -> str:
    esc = html.escape
    rows = []
    for step in ordered_steps(trace):
        found = "".join(f"<div>{esc(what)} — {esc(why)}</div>" for what, why in _details(step))
        indent = f' style="padding-left:{1 + 1.5 * step.depth:.1f}em"' if step.depth else ""
        rows.append(
            f"<tr><td>{esc(step.id)}</td><td>{esc(_STATE[step.state.value])}</td>"
            f"<td>{esc(_tier(step))}</td><td{indent}>{esc(step.text)}{found}</td></tr>"
        )
    title, reason = _headline(trace)
    head = "".join(f"<th>{h}</th>" for h in ("step", "state", "tier", "text and checks"))
    model = f" · model: {esc(trace.model)}" if trace.model else " · no model: machine checks only"
    return (
        f'<div class="veristep-review"><p><strong>{esc(title)}</strong> — {esc(reason)}'
        f"{model}</p><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody>"
        "</table></div>"
    )


def to_markdown(trace: ReviewTrace) -> str:
    title, reason = _headline(trace)
    lines = [f"**{title}** — {reason}", "", "| step | state | tier | text and checks |"]
    lines.append("|---|---|---|---|")
    for step in ordered_steps(trace):
        found = "".join(f"<br>{what} — {why}" for what, why in _details(step))
        cells = [step.id, _STATE[step.state.value], _tier(step), " ".join(step.text.split())]
        cells[-1] += found
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)
