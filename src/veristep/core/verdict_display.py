"""How a judged derivation shows itself in a notebook: HTML, Markdown and LaTeX views of the
states, each step's tier and relation, the check that decided, its reason and its witness.

Everything is text in the output itself: no script or stylesheet is fetched, so a saved notebook
shows its verdicts offline. The maths is left as TeX between ``$`` signs, which Jupyter's own
bundled typesetter renders.
"""

from __future__ import annotations

import html
import json
from typing import Any

# verdicts.Derivation and verdicts.StepVerdict, which import this module to display themselves
Derivation = StepVerdict = Any


def _witness(step: StepVerdict) -> str:
    if step.witness is None:
        return ""
    return step.witness if isinstance(step.witness, str) else json.dumps(step.witness, default=str)


def _step_cells(step: StepVerdict) -> list[str]:
    found = " · ".join(part for part in (step.check or "", step.reason) if part)
    return [f"{step.tier.icon} {step.tier.name_lower}", step.relation.value, found, _witness(step)]


def to_html(derivation: Derivation) -> str:
    """A table: one row per state, the step's verdict beside the state it leads to."""
    esc = html.escape
    confidence = derivation.confidence
    rows = []
    for number, state in enumerate(derivation.states):
        cells = ["", "", "", ""]
        if number and number - 1 < len(derivation.steps):
            cells = _step_cells(derivation.steps[number - 1])
        shown = f"${esc(state.latex)}$" + (f" <em>({esc(state.error)})</em>" if state.error else "")
        row = "".join(f"<td>{esc(cell)}</td>" for cell in cells)
        rows.append(f"<tr><td>{number or 'start'}</td><td>{shown}</td>{row}</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("", "state", "tier", "relation", "check", "witness"))
    return (
        f'<div class="veristep-derivation"><p><strong>{confidence.tier.icon} '
        f"{esc(confidence.tier.name_lower)}</strong> — {esc(confidence.summary)}</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def to_markdown(derivation: Derivation) -> str:
    confidence = derivation.confidence
    lines = [f"**{confidence.tier.icon} {confidence.tier.name_lower}** — {confidence.summary}", ""]
    lines += ["| | state | tier | relation | check | witness |", "|---|---|---|---|---|---|"]
    for number, state in enumerate(derivation.states):
        cells = ["", "", "", ""]
        if number and number - 1 < len(derivation.steps):
            cells = _step_cells(derivation.steps[number - 1])
        row = [str(number or "start"), f"${state.latex}$", *cells]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    return "\n".join(lines)


def to_latex(derivation: Derivation) -> str:
    """The chain as aligned lines, each step's tier as a text tag (for LaTeX-only frontends)."""
    lines = [derivation.states[0].latex if derivation.states else ""]
    for step, state in zip(derivation.steps, derivation.states[1:], strict=False):
        lines.append(f"{state.latex} && \\text{{{step.tier.name_lower}}}")
    body = " \\\\\n".join(lines)
    tier = derivation.confidence.tier.name_lower
    return f"$$\\begin{{aligned}}\n{body}\n\\end{{aligned}}\\quad\\text{{({tier})}}$$"
