"""Human-readable renderings of a review trace: a terminal report and a self-contained HTML page."""

from __future__ import annotations

import html

from veristep.animate.html import inline_math_assets
from veristep.review.trace import ReviewTrace, State, StepRecord
from veristep.review.trace_display import ordered_steps

_STATE_MARK = {State.OPEN: "○ OPEN", State.VERIFIED: "✓ VERIFIED", State.FLAWED: "✗ FLAWED"}


def text_report(trace: ReviewTrace, width: int = 88) -> str:
    """The per-step states, tiers and elaborations, the ledger and the verdict, as plain text."""
    lines = [f"review: {trace.source}   (model: {trace.model or 'none'})"]
    for step in ordered_steps(trace):
        lines.extend(_step_lines(step, width))
    lines.append("ledger:" + ("" if trace.ledger else " (empty)"))
    for entry in trace.ledger.values():
        cite = entry.citation or "no citation"
        lines.append(
            f"  {entry.id} [{entry.status.value}] {entry.claim} — {cite}"
            + (f" ({entry.note})" if entry.note else "")
        )
    failed = sum(1 for c in trace.calls if not c.ok)
    lines.extend(model_error_lines(trace))
    lines.append(f"verdict: {trace.verdict} — {trace.reason}")
    lines.append(
        f"calls: {len(trace.calls)} ({failed} failed) · tokens: {trace.tokens} · "
        f"iterations: {trace.iterations}"
    )
    return "\n".join(lines)


def model_error_lines(trace: ReviewTrace) -> list[str]:
    """One line per distinct failed model call, with how often it happened and for which roles.

    A failure the user does not see reads as a proof that is hard to judge; these lines say it
    was the model.
    """
    seen: dict[str, list[str]] = {}
    for call in trace.calls:
        if not call.ok:
            seen.setdefault(call.error or "unknown error", []).append(call.role)
    return [
        f"model error ({len(roles)}×, {', '.join(dict.fromkeys(roles))}): {error}"
        for error, roles in seen.items()
    ]


def _step_lines(step: StepRecord, width: int) -> list[str]:
    indent = "  " * (step.depth + 1)
    tier = f"{step.tier.icon} {step.tier}" if step.state is not State.OPEN else "  -"
    text = " ".join(step.text.split())
    if len(text) > width:
        text = text[: width - 1] + "…"
    out = [
        f"{indent}{step.id:<6} {step.location:<8} {_STATE_MARK[step.state]:<11} {tier:<13} {text}"
    ]
    pad = indent + " " * 8
    for check in step.machine.checks if step.machine else []:
        out.append(f"{pad}{check.tier.icon} {check.latex}  [{check.check}: {check.reason}]")
    if step.flaw is not None:
        out.append(f"{pad}flaw ({step.flaw.kind}, {step.flaw.source}): {step.flaw.witness}")
    if step.elaborations:
        last = step.elaborations[-1]
        out.append(f"{pad}Γ={last.local_context} Σ={last.external} T={last.background}")
        out.extend(f"{pad}  · {line}" for line in last.derivation[:8])
    out.extend(f"{pad}convention: {c}" for c in step.conventions)
    if step.blocked_on:
        out.append(f"{pad}waits on ledger {', '.join(step.blocked_on)}")
    return out


def html_report(trace: ReviewTrace) -> str:
    """A single HTML file (no external assets) with the same content as the text report."""
    rows = []
    for step in ordered_steps(trace):
        detail = []
        for check in step.machine.checks if step.machine else []:
            detail.append(f"{check.tier.icon} {_tex(check.latex)} — {_prose(check.reason)}")
        if step.flaw is not None:
            detail.append(f"<b>flaw ({_e(step.flaw.kind)})</b>: {_prose(step.flaw.witness)}")
        if step.elaborations:
            last = step.elaborations[-1]
            detail.append(
                "Γ: "
                + _e(", ".join(last.local_context))
                + " · Σ: "
                + _e(", ".join(last.external))
                + " · T: "
                + _e(", ".join(last.background))
            )
            lines = "".join(f"<li>{_prose(x)}</li>" for x in last.derivation)
            detail.append(f"<ol>{lines}</ol>")
        detail.extend(f"convention: {_prose(c)}" for c in step.conventions)
        tier = "" if step.state is State.OPEN else f"{step.tier.icon} {step.tier}"
        rows.append(
            f'<tr class="{step.state.value}" data-step="{_e(step.id)}">'
            f"<td>{_e(step.id)}</td><td>{_e(step.location)}</td><td>{step.state.value.upper()}</td>"
            f"<td>{tier}</td><td>{_prose(step.text)}"
            f"<div class=d>{'<br>'.join(detail)}</div></td></tr>"
        )
    ledger = "".join(
        f"<li>{_e(e.id)} [{e.status.value}] {_prose(e.claim)} — "
        f"{_prose(e.citation or 'no citation')}</li>"
        for e in trace.ledger.values()
    )
    return _PAGE.format(
        source=_e(trace.source),
        model=_e(trace.model or "none"),
        rows="".join(rows),
        ledger=ledger or "<li>(empty)</li>",
        verdict=_e(trace.verdict or ""),
        reason=_e(trace.reason),
        tokens=trace.tokens,
        calls=len(trace.calls),
        errors="".join(f'<p class="model-error">{_e(x)}</p>' for x in model_error_lines(trace)),
        assets=inline_math_assets(),
    )


def _e(text: str) -> str:
    return html.escape(str(text))


def _prose(text: str) -> str:
    """Proof prose with ``$…$`` math: the escaped text, typeset in the browser by the inlined
    player script (words stay text nodes; only the math goes through KaTeX, untrusted).

    >>> _prose("so $x < 1$")
    '<span data-vs-prose="so $x &lt; 1$">so $x &lt; 1$</span>'
    """
    shown = _e(text)
    return f'<span data-vs-prose="{shown}">{shown}</span>'


def _tex(latex: str) -> str:
    """A bare formula (a machine check's claim), typeset by KaTeX; the source is the fallback."""
    shown = _e(latex)
    return f'<code data-vs-tex="{shown}">{shown}</code>'


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>review: {source}</title>
<style>
body{{font-family:system-ui,sans-serif;margin:2em;max-width:70em}}
table{{border-collapse:collapse;width:100%}}
td{{border-top:1px solid #ddd;padding:.4em;vertical-align:top}}
tr.verified td:nth-child(3){{color:#186a3b}}
tr.flawed td:nth-child(3){{color:#b03a2e;font-weight:bold}}
tr.open td:nth-child(3){{color:#7d6608}} .d{{color:#555;font-size:.9em;margin-top:.3em}}
</style>
{assets}
</head><body>
<h1>Review of {source}</h1><p>model: {model}</p>
<p id="verdict"><b>verdict: {verdict}</b> — {reason}</p>
<table><tr><th>step</th><th>at</th><th>state</th><th>tier</th><th>text and elaboration</th></tr>
{rows}</table>
<h2>Theorem ledger</h2><ul>{ledger}</ul>
<p>{calls} model calls · {tokens} tokens</p>{errors}
</body></html>
"""
