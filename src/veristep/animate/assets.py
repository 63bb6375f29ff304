"""The vendored browser assets: KaTeX (pinned), the player's JS and CSS, and their inlined forms.

KaTeX's stylesheet lists woff2, woff and ttf for every face; only woff2 is shipped (every browser
we target reads it), so the other sources are dropped here rather than left to 404. For the
self-contained export each woff2 file becomes a data URI.

>>> KATEX_VERSION
'0.19.1'
>>> "woff2" in katex_css(inline_fonts=False) and ".ttf" not in katex_css(inline_fonts=False)
True
"""

from __future__ import annotations

import base64
import re
from functools import cache
from importlib import resources
from pathlib import Path

KATEX_VERSION = "0.19.1"

_FONT_SRC = re.compile(r"src:url\(fonts/([A-Za-z0-9_-]+)\.woff2\)[^;}]*")


def static_dir() -> Path:
    """The directory served under ``/static`` (KaTeX in ``katex/``, the player beside it)."""
    return Path(str(resources.files("veristep.animate") / "static"))


@cache
def _read(name: str) -> str:
    return (static_dir() / name).read_text(encoding="utf-8")


@cache
def katex_css(inline_fonts: bool, font_base: str = "fonts/") -> str:
    """KaTeX's CSS with woff2-only font sources, as URLs under ``font_base`` or as data URIs."""

    def source(match: re.Match[str]) -> str:
        name = match.group(1)
        if not inline_fonts:
            return f'src:url({font_base}{name}.woff2) format("woff2")'
        data = (static_dir() / "katex" / "fonts" / f"{name}.woff2").read_bytes()
        b64 = base64.b64encode(data).decode("ascii")
        return f'src:url(data:font/woff2;base64,{b64}) format("woff2")'

    return _FONT_SRC.sub(source, _read("katex/katex.min.css"))


def katex_js() -> str:
    return _read("katex/katex.min.js")


def player_js() -> str:
    return _read("player.js")


def plots_js() -> str:
    """Zoom, pan and trace for every plot, and the browser's sampler of expression trees."""
    return _read("plots.js")


def player_css() -> str:
    return _read("player.css")


def uplot_js() -> str:
    """uPlot (MIT, pinned in ``uplot/VERSION``), which draws the payload's plots."""
    return _read("uplot/uPlot.iife.min.js")


def uplot_css() -> str:
    return _read("uplot/uPlot.min.css")
