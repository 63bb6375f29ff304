"""The parent's side of an operation: read its maths arguments, run it in a worker, report.

The maths arguments of a command ("divide by x − 1") are parsed with the same whitelisted parser
and the same symbol assumptions as the states, and a bad argument is located inside the command.
The SymPy work runs in the shared pool of killable workers under a deadline; a timeout, a memory
kill or a crash is a clear error for the person, never a state.
"""

from __future__ import annotations

from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.grounding.states import State
from veristep.workspace.grammar import Operation


def run_operation(
    op: Operation, state: State, settings: Settings, positive: frozenset[str]
) -> tuple[list[str], list[str]]:
    """The LaTeX of the state(s) ``op`` reaches from ``state``, and the operation's warnings."""
    from veristep.core.pool import run_cas
    from veristep.workspace.worker import apply_and_print

    if state.expr is None:
        raise InputError(f"cannot apply '{op.text}': the current state could not be read")
    params = _params(op, settings, positive)
    budget = settings.step_timeout_s
    result = run_cas(apply_and_print, op.kind, state.expr, params, settings=settings,
                     timeout_s=budget)  # fmt: skip
    if result.ok and result.value.refusal is not None:
        raise InputError(f"cannot {op.text} here: {result.value.refusal}", kind="operation")
    if result.ok:
        return list(result.value.states), list(result.value.warnings)
    if result.status == "error":  # any other exception keeps its type in the message
        error = result.error or "the operation failed"
        raise InputError(f"cannot {op.text} here: {error}", kind="operation")
    raise InputError(
        f"'{op.text}' did not finish ({result.status} after {budget:g} s); nothing was changed",
        kind="budget",
    )


def plan_solve(state: State, op: Operation, settings: Settings) -> list[tuple[str, str, str]]:
    """The lines a teacher writes to solve ``state`` (LaTeX, what was done, change type), from the
    offline planner (in a worker, under the derive deadline); empty when it does not reach the
    solutions, so the caller falls back to solving in one jump."""
    from veristep.propose.symbolic.proposer import SymbolicProposer

    if settings.domain == "complex" or not state.shown_latex:
        return []  # the planner solves over the reals only
    var = op.var.lstrip("\\") if op.var else None
    draft = SymbolicProposer(settings, goal="solve", var=var).propose(state.shown_latex, "")
    if not draft.meta.get("reached"):
        return []
    return [(s.expr_latex, s.operation, s.change_type) for s in draft.steps]


def plan_next(state: State, settings: Settings) -> dict[str, str] | None:
    """The planner's first candidate move from ``state``, computed in a worker."""
    from veristep.core.pool import run_cas
    from veristep.workspace.worker import next_move

    if state.expr is None:
        return None
    result = run_cas(next_move, state.expr, settings=settings, timeout_s=settings.step_timeout_s)
    if not result.ok or result.value is None:
        return None
    operation, why, change_type, latex = result.value
    return {"operation": operation, "justification": why, "change_type": change_type,
            "latex": latex}  # fmt: skip


def _params(op: Operation, settings: Settings, positive: frozenset[str]) -> dict[str, Any]:
    params: dict[str, Any] = {"side": op.side, "domain": settings.domain}
    if op.var is not None:
        params["var"] = op.var.lstrip("\\")
    if op.arg is not None:
        params["arg"] = parse_argument(op.arg, op, settings, positive)
    for name in ("low", "high"):
        text = getattr(op, name)
        if text is not None:
            params[name] = parse_argument(text, op, settings, positive)
    return params


def parse_argument(text: str, op: Operation, settings: Settings, positive: frozenset[str]) -> Any:
    """A maths argument as SymPy, with errors located in the command rather than the fragment."""
    from veristep.mathgraph import parse_math, to_sympy

    offset = op.text.find(text)
    try:
        graph = parse_math(text, settings)
        return to_sympy(graph, real=settings.domain == "real", positive=positive,
                        settings=settings)  # fmt: skip
    except InputError as err:
        at = None if err.position is None or offset < 0 else offset + err.position
        raise InputError(
            f"cannot read the maths in '{op.text}': {err.message}",
            source=op.text, position=at if at is not None else max(offset, 0),
            length=err.length if at is not None else len(text), hint=err.hint,
        ) from None  # fmt: skip
    except Exception as exc:  # SymPy refused the construct
        raise InputError(
            f"cannot use '{text}' here: {type(exc).__name__}", source=op.text,
            position=max(offset, 0), length=len(text),
        ) from None  # fmt: skip
