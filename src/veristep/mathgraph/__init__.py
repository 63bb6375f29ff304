"""The semantic math graph: LaTeX or plain maths → graph (located errors) → SymPy, LaTeX, JSON.

Parsing never imports SymPy; :func:`to_sympy` and :func:`branches` import it when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from veristep.mathgraph.errors import LatexParseError, PlusMinusError
from veristep.mathgraph.latex_out import to_latex
from veristep.mathgraph.nodes import STATEMENT_KINDS, Graph, Kind, Node, structurally_equal
from veristep.mathgraph.parser import parse_latex
from veristep.mathgraph.plain_parser import parse_plain
from veristep.mathgraph.reader import parse_math, reader_for

if TYPE_CHECKING:
    from veristep.core.settings import Settings

__all__ = [
    "STATEMENT_KINDS",
    "Graph",
    "Kind",
    "LatexParseError",
    "Node",
    "PlusMinusError",
    "branches",
    "parse_latex",
    "parse_math",
    "parse_plain",
    "reader_for",
    "structurally_equal",
    "to_latex",
    "to_sympy",
]


def to_sympy(
    graph: Graph,
    *,
    real: bool = True,
    positive: frozenset[str] = frozenset(),
    settings: Settings | None = None,
) -> Any:
    """The graph's SymPy form (statements become Booleans; calculus stays unevaluated)."""
    from veristep.mathgraph.sympy_bridge import to_sympy as convert

    return convert(graph, real=real, positive=positive, settings=settings)


def branches(
    graph: Graph,
    *,
    real: bool = True,
    positive: frozenset[str] = frozenset(),
    settings: Settings | None = None,
) -> list[Any]:
    """One SymPy object per sign choice of ± (∓ opposite); a one-element list without ±."""
    from veristep.mathgraph.sympy_bridge import branches as expand

    return expand(graph, real=real, positive=positive, settings=settings)
