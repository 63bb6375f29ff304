"""Functions the CAS worker runs for the workspace: apply an operation and print its states.

Printing happens in the worker too, so the parent receives LaTeX, the form a person reads. The
parent parses that LaTeX again and grades *it*: what is judged is exactly what is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from veristep.workspace.operations import OperationError, Params, apply


@dataclass(frozen=True)
class Applied:
    """What an operation did, as it crosses back from the worker: the LaTeX of the states it
    reached and its warnings, or the reason it does not apply here (``refusal``)."""

    states: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    refusal: str | None = None


def apply_and_print(kind: str, state: sp.Basic, params: Params) -> Applied:
    """The LaTeX of the state(s) an operation reaches and its warnings, or why it does not fit."""
    from veristep.propose.symbolic.printer import to_latex

    try:
        states, notes = apply(kind, state, params)
    except OperationError as err:
        return Applied(refusal=err.reason)
    return Applied([state_latex(s, to_latex) for s in states], list(notes))


def state_latex(state: sp.Basic, to_latex: Any) -> str:
    if state is sp.false:
        return r"\bot"
    if state is sp.true:
        return r"\top"
    return str(to_latex(state))


def next_move(state: sp.Basic) -> tuple[str, str, str, str] | None:
    """The offline planner's first candidate move here: (operation, why, change type, LaTeX)."""
    from veristep.propose.symbolic.moves import Problem, pick_var
    from veristep.propose.symbolic.planner import candidates
    from veristep.propose.symbolic.printer import to_latex

    problem = Problem(start=state, target=None, var=pick_var(state))
    for move in candidates(state, problem):
        latex = move.latex or state_latex(move.state, to_latex)
        return move.operation, move.justification, move.change_type, latex
    return None
