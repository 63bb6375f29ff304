"""Functions the CAS worker runs for the workspace: apply an operation and print its states.

Printing happens in the worker too, so the parent receives LaTeX, the form a person reads. The
parent parses that LaTeX again and grades *it*: what is judged is exactly what is shown.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from veristep.workspace.operations import Params, apply


def apply_and_print(kind: str, state: sp.Basic, params: Params) -> tuple[list[str], list[str]]:
    """The LaTeX of the state(s) an operation reaches and its warnings."""
    from veristep.propose.symbolic.printer import to_latex

    states, notes = apply(kind, state, params)
    return [state_latex(s, to_latex) for s in states], notes


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
