"""Which reader a typed state needs, decided by the text itself: no flag to set.

A backslash or a brace only occurs in LaTeX (``\\frac{1}{2}``, ``x^{2}``); anything else is
plain maths as people type it (``sqrt(x)``, ``x^2``, ``3/4 y``). Text between ``$…$`` is LaTeX.

>>> reader_for(r"\\sqrt{x} = 2"), reader_for("sqrt(x) = 2"), reader_for("$x^2$")
('latex', 'plain', 'latex')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from veristep.mathgraph.nodes import Graph

if TYPE_CHECKING:
    from veristep.core.settings import Settings

Reader = Literal["latex", "plain"]


def reader_for(text: str) -> Reader:
    """``"latex"`` when the text has a backslash, a brace or ``$`` delimiters, else ``"plain"``."""
    if not isinstance(text, str):
        return "latex"  # the LaTeX reader reports the wrong type
    stripped = text.strip()
    if "\\" in text or "{" in text or "}" in text:
        return "latex"
    if len(stripped) >= 2 and stripped[0] == "$" and stripped[-1] == "$":
        return "latex"
    return "plain"


def parse_math(text: str, settings: Settings | None = None) -> Graph:
    """Parse a state typed either way (LaTeX or plain maths) into the same semantic graph."""
    from veristep.mathgraph.parser import parse_latex
    from veristep.mathgraph.plain_parser import parse_plain

    if reader_for(text) == "plain":
        return parse_plain(text, settings)
    stripped = text.strip()
    if stripped.startswith("$") and stripped.endswith("$") and len(stripped) >= 2:
        # keep columns: blank the delimiters instead of cutting them off
        text = text.replace("$", " ")
    return parse_latex(text, settings)
