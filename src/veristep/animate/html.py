"""HTML documents around the player: linked assets for the web app, inlined ones for export.

The exported file carries KaTeX, its woff2 fonts (as data URIs), the player and the payload, so it
renders the same with no network at all.

>>> doc = player_document({"frames": [{"tex": "x"}], "steps": []}, inline=False)
>>> '/static/katex/katex.min.js' in doc and 'data-veristep-payload="vs-payload"' in doc
True
>>> "</script><script>" in embed_json({"a": "</script><script>"})
False
"""

from __future__ import annotations

import html
import json
from typing import Any

from veristep.animate.assets import (
    katex_css,
    katex_js,
    player_css,
    player_js,
    plots_js,
    uplot_css,
    uplot_js,
)


def embed_json(data: Any) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``</script>``, no ``<!--``)."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _head_assets(inline: bool, static_url: str) -> str:
    if inline:
        return (
            f"<style>{katex_css(inline_fonts=True)}</style>\n"
            f"<style>{player_css()}</style>\n"
            f"<style>{uplot_css()}</style>\n"
            f"<script>{_script_safe(katex_js())}</script>\n"
            f"<script>{_script_safe(uplot_js())}</script>\n"
            f"<script>{_script_safe(plots_js())}</script>\n"
            f"<script>{_script_safe(player_js())}</script>"
        )
    return (
        f'<link rel="stylesheet" href="{static_url}/katex.css">\n'
        f'<link rel="stylesheet" href="{static_url}/player.css">\n'
        f'<link rel="stylesheet" href="{static_url}/uplot/uPlot.min.css">\n'
        f'<script src="{static_url}/katex/katex.min.js" defer></script>\n'
        f'<script src="{static_url}/uplot/uPlot.iife.min.js" defer></script>\n'
        f'<script src="{static_url}/plots.js" defer></script>\n'
        f'<script src="{static_url}/player.js" defer></script>'
    )


def inline_math_assets(*, plots: bool = False) -> str:
    """KaTeX (script, stylesheet, woff2 fonts as data URIs) and the player script, inlined.

    For other self-contained pages with ``$…$`` prose (``data-vs-prose``) or formulas
    (``data-vs-tex``): the player script typesets those on load, with no network and no payload.
    ``plots`` adds uPlot and the plot controls, so a derivation's plots draw and every plot
    zooms, pans and traces with no server (an exported page).
    """
    drawing = ""
    if plots:
        drawing = (
            f"<style>{uplot_css()}</style>\n"
            f"<script>{_script_safe(uplot_js())}</script>\n"
            f"<script>{_script_safe(plots_js())}</script>\n"
        )
    return (
        f"<style>{katex_css(inline_fonts=True)}</style>\n"
        f"<script>{_script_safe(katex_js())}</script>\n"
        f"{drawing}<script>{_script_safe(player_js())}</script>"
    )


def _script_safe(code: str) -> str:
    # A literal "</script" inside inlined code would end the element early.
    return code.replace("</script", "<\\/script")


def player_section(payload: dict[str, Any], element_id: str = "vs-payload") -> str:
    """The mount point and its payload; the player script mounts it on DOMContentLoaded."""
    return (
        f'<div class="vs-mount" data-veristep-payload="{element_id}"></div>\n'
        f'<script type="application/json" id="{element_id}">{embed_json(payload)}</script>'
    )


def player_document(
    payload: dict[str, Any],
    *,
    inline: bool,
    title: str = "veristep derivation",
    static_url: str = "/static",
    body_prefix: str = "",
    body_suffix: str = "",
) -> str:
    """A whole HTML page showing one derivation."""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
{_head_assets(inline, static_url)}
<style>body {{ margin: 1.5rem; background: #f3f5f9; }}</style>
</head>
<body>
{body_prefix}
{player_section(payload)}
{body_suffix}
</body>
</html>
"""
