"""Turn the LaTeX of one state into what the checks compare: its graph and its SymPy statement.

A state that cannot be parsed or converted keeps its located error; the steps into and out of it
are then ``unchecked`` and their reason quotes the offending fragment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.verdicts import StateRecord


@dataclass
class State:
    latex: str
    graph: Any = None  # veristep.mathgraph.Graph
    expr: Any = None  # the SymPy expression or statement
    display: str = ""  # the clean re-rendering shown in reports
    latex_ids: str | None = None
    error: str | None = None

    @property
    def convertible(self) -> bool:
        return self.error is None

    def record(self) -> StateRecord:
        return StateRecord(self.latex, self.latex_ids, self.error)


def parse_state(latex: str, settings: Settings, positive: frozenset[str] = frozenset()) -> State:
    """Parse and convert; any failure becomes the state's error, never an exception."""
    from veristep.mathgraph import parse_latex, to_latex, to_sympy

    try:
        graph = parse_latex(latex, settings)
    except InputError as err:
        return State(latex, display=latex, error=err.one_line())
    except Exception as exc:  # a parser defect must cost this state, not the whole verdict
        return State(latex, display=latex, error=f"internal parser error: {type(exc).__name__}")
    display = _render(to_latex, graph, latex)
    ids = _render(lambda g: to_latex(g, with_ids=True), graph, None)
    try:
        expr = to_sympy(graph, real=settings.domain == "real", positive=positive, settings=settings)
    except InputError as err:
        return State(latex, graph, None, display, ids, err.one_line())
    except Exception as exc:
        # SymPy refused the construct: the state is well-formed LaTeX but not one CAS object.
        reason = f"not convertible to SymPy: {type(exc).__name__}: {exc}"
        return State(latex, graph, None, display, ids, reason)
    return State(latex, graph, expr, display, ids)


def _render(fn: Any, graph: Any, fallback: str | None) -> str | None:
    try:
        return fn(graph)
    except Exception:  # rendering is cosmetic: a renderer bug must not hide a verdict
        return fallback
