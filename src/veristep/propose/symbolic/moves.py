"""The unit of the planner: one move a teacher would write, and the problem it works toward.

A move is a plain value: the state it reaches (a SymPy object), the words for what was done and why,
and the proposer's advisory ``change_type``. Strategy modules are functions from the current
state to an ordered list of candidate moves; the planner (``planner.py``) searches over them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp


@dataclass(frozen=True)
class Move:
    # A stable identifier of the kind of move, used to ban it after a failed grounding; every
    # name is in the catalogue (symbolic/catalogue.py), with a problem on which it is offered.
    name: str
    operation: str
    justification: str
    change_type: str
    state: sp.Basic
    latex: str | None = None  # overrides the printed state (only the ± form needs it)
    # Intermediate lines a teacher writes before this one (the middle term split, the squares
    # named): (operation, justification, LaTeX), each the same value as the state before.
    before: tuple[tuple[str, str, str], ...] = ()


@dataclass
class Problem:
    """What the planner knows about the task: the unknown, the original equation, the target."""

    start: sp.Basic
    target: sp.Basic | None
    var: sp.Symbol | None
    target_latex: str = ""
    wants_pm: bool = False  # the target is written with \pm
    banned: set[tuple[str, str]] = field(default_factory=set)  # (state key, move name)
    deadline: float | None = None  # time.monotonic() after which no new rewrite is started
    decimals: bool = False  # a computation written in decimals is shown in decimals
    goal: str | None = None  # a goal-only task (no target): where to stop (symbolic.finished)


Strategy = Callable[[sp.Basic, Problem], list[Move]]


def state_key(state: sp.Basic) -> str:
    """A stable key for a state, so a move that failed grounding there is not tried again."""
    return sp.srepr(state)


def pick_var(*exprs: sp.Basic | None) -> sp.Symbol | None:
    """The unknown: ``x`` when present, else the only free symbol, else the alphabetically first.

    >>> a, x = sp.symbols("a x")
    >>> pick_var(sp.Eq(a * x, 1)), pick_var(sp.Eq(a, 1))
    (x, a)
    """
    symbols: set[sp.Symbol] = set()
    for expr in exprs:
        if expr is not None:
            symbols |= {s for s in expr.free_symbols if isinstance(s, sp.Symbol)}
    for preferred in ("x", "y", "t", "z", "n"):
        for s in symbols:
            if s.name == preferred:
                return s
    return min(symbols, key=lambda s: s.name) if symbols else None


def bare_tex(expr: sp.Basic) -> str:
    """LaTeX of a term without delimiters, for composing a larger formula inside one ``$…$``."""
    from veristep.propose.symbolic.printer import to_latex

    return to_latex(expr)


def tex(expr: sp.Basic) -> str:
    """Inline math of a term inside an operation's wording, delimited as ``$…$``.

    Prose and formulas travel in one string (as LLM proposers write them), so the delimiters are
    what lets a reader render the math and leave the words alone.

    >>> tex(sp.Rational(1, 2))
    '$\\\\frac{1}{2}$'
    """
    return math(bare_tex(expr))


def math(latex: str) -> str:
    """Delimit a hand-written LaTeX fragment as inline math.

    >>> math("u^2 = k")
    '$u^2 = k$'
    """
    return f"${latex}$"


def apply_first_rule(
    state: sp.Basic, pending: list[sp.Basic], one: Callable[[sp.Basic], Move | None]
) -> list[Move]:
    """One move: the rule of the first pending construct, applied wherever that same rule applies.

    The replacement is left unevaluated so the reader sees, say, 2 \\cdot \\frac{1}{2} before the
    arithmetic is done.
    """
    moves = [(c, one(c)) for c in pending]
    moves = [(c, mv) for c, mv in moves if mv is not None]
    if not moves:
        return []
    first = moves[0][1]
    same = {c: mv.state for c, mv in moves if mv.name == first.name}
    whys = "; ".join(dict.fromkeys(mv.justification for _, mv in moves if mv.name == first.name))
    with sp.evaluate(False):
        new = state.xreplace(same)
    return [Move(first.name, first.operation, whys, first.change_type, new)]


def subtract_words(term: sp.Basic) -> str:
    """How subtracting ``term`` from both sides reads: adding its negative when it is one."""
    if term.could_extract_minus_sign():
        return f"add {tex(-term)} to both sides"
    return f"subtract {tex(term)} from both sides"
