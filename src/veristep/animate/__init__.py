"""Animation of derivations: stable glyph ids across states, the payload, the browser player.

``export_html(derivation)`` returns one self-contained HTML file (KaTeX, fonts, player, payload
inlined) that plays the derivation with no network.
"""

from __future__ import annotations

from typing import Any

from veristep.animate.html import player_document
from veristep.animate.payload import build_payload
from veristep.animate.rebase import thread_ids

__all__ = ["build_payload", "export_html", "thread_ids"]


def export_html(
    derivation: Any, title: str | None = None, payload: dict[str, Any] | None = None
) -> str:
    """A self-contained HTML document animating ``derivation`` (a Derivation or its JSON).

    ``payload`` skips rebuilding the animation payload when the caller already has it.
    """
    data = derivation.to_json() if hasattr(derivation, "to_json") else dict(derivation)
    payload = payload or build_payload(data)
    if title is None:
        target = data.get("target")
        title = f"{data.get('start', '')} → {target}" if target else str(data.get("start", ""))
    return player_document(payload, inline=True, title=title)
