"""How a proof-search result shows itself in a notebook: proved or not, by which phase, the proof
that Coq accepted, the cost (Coq calls, attempts, seconds, tokens) and the failures by signal.

Plain HTML and Markdown, nothing fetched. This module imports nothing of ``formal.search`` (which
imports it).
"""

from __future__ import annotations

import html
from typing import Any

SearchResult = Any  # formal.search.SearchResult, which imports this module


def _headline(result: SearchResult) -> str:
    if result.solved:
        return f"✓ proved {result.name} by {result.phase} in {result.seconds:.1f} s"
    return f"✗ not proved {result.name} in {result.seconds:.1f} s"


def _costs(result: SearchResult) -> list[tuple[str, str]]:
    failures = ", ".join(f"{k} {v}" for k, v in sorted(result.failures.items())) or "none"
    return [
        ("verdict", result.verdict or ""),
        ("Coq calls", str(result.coq_calls)),
        ("attempts", str(result.attempts)),
        ("MCTS iterations", str(result.mcts_iterations)),
        ("tokens", str(result.tokens)),
        ("failures by signal", failures),
    ]


def to_html(result: SearchResult) -> str:
    esc = html.escape
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in _costs(result))
    proof = f"<pre>Proof.\n{esc(result.proof)}\nQed.</pre>" if result.proof else ""
    return (
        f'<div class="veristep-proof-search"><p><strong>{esc(_headline(result))}</strong></p>'
        f"{proof}<table>{rows}</table></div>"
    )


def to_markdown(result: SearchResult) -> str:
    lines = [f"**{_headline(result)}**", ""]
    if result.proof:
        lines += ["```coq", "Proof.", result.proof, "Qed.", "```", ""]
    lines += ["| | |", "|---|---|"]
    lines += [f"| {k} | {v.replace('|', chr(92) + '|')} |" for k, v in _costs(result)]
    return "\n".join(lines)
