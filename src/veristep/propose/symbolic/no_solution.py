"""An equation with no real solution, shown as a teacher shows it.

SymPy's assumptions prove ``x^2 + 1 ≠ 0`` over the reals, so every planner move that rebuilds the
equation collapses it to *false* in one unexplained line. A
teacher writes two lines: the constant term moved to the other side (``x^2 = -1``), then the reason
no real number fits — the left side is never negative, the right side is — and the empty solution
set. The lines are written from the start *as written* (unevaluated); each is graded by the
grounding cascade like any other step, so a wrong claim of "no solution" cannot pass.

>>> from veristep.core.settings import Settings
>>> [s.latex for s in no_solution_steps("x^2 + 1 = 0", Settings())]
['x^{2} = -1', 'x \\\\in \\\\emptyset']
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from veristep.core.settings import Settings


def no_solution_steps(start: str, settings: Settings) -> list[Any] | None:
    """The lines from an equation in one unknown that has no real solution to ``x ∈ ∅``, or None
    when the start is not such an equation or its emptiness has no one-line reason."""
    from veristep.propose.symbolic.moves import state_key
    from veristep.propose.symbolic.planner import PlannedStep
    from veristep.propose.symbolic.printer import to_latex

    written = _written_equation(start, settings)
    if written is None:
        return None
    unknowns = written.free_symbols
    if len(unknowns) != 1:
        return None
    (var,) = unknowns
    difference = _ordered_sum(written.lhs) - _ordered_sum(written.rhs)
    for sign in (1, -1):  # 5 - x^2 = 9 is x^2 = -4: the part that cannot be negative on the left
        constant, rest = _ordered_sum(sign * difference).as_coeff_Add()
        if constant == 0 or rest.is_constant():
            return None
        reason = _never_reaches(rest, -constant)
        if reason is not None:
            break
    else:
        return None
    steps = []
    isolated = sp.Eq(rest, -constant, evaluate=False)
    if not _same_sides(written, rest, -constant):
        operation, why = _isolating_move(written, rest)
        steps.append(PlannedStep("isolate-nonnegative", operation, why, "rewrite",
                                 to_latex(isolated), state_key(written)))  # fmt: skip
    name = to_latex(var)
    why = f"{reason}, so no real {name} satisfies the equation: the solution set is empty"
    steps.append(PlannedStep("no-real-solution", "no real solution", why, "solve",
                             f"{name} \\in \\emptyset", state_key(isolated)))  # fmt: skip
    return steps


def _written_equation(start: str, settings: Settings) -> sp.Eq | None:
    """The start as an unevaluated equation, when it is one that reads as *false* evaluated."""
    from veristep.mathgraph import parse_math, to_sympy
    from veristep.mathgraph.nodes import Kind

    if settings.domain != "real":
        return None
    try:
        graph = parse_math(start, settings)
        root = graph.root
        if root.kind is not Kind.RELATION or root.value != "=" or len(root.children) != 2:
            return None
        sides = [to_sympy(c, real=True, settings=settings) for c in root.children]
        if sp.Eq(*sides) is not sp.false:  # SymPy's assumptions settle it: no real solution
            return None
        # The sides alone, unevaluated: the relation itself would be evaluated back to False.
        with sp.evaluate(False):
            lhs, rhs = (to_sympy(c, real=True, settings=settings) for c in root.children)
    except Exception:  # an unreadable start is the planner's and the grounding's to report
        return None
    return sp.Eq(lhs, rhs, evaluate=False)


def _never_reaches(side: sp.Expr, value: sp.Expr) -> str | None:
    """Why ``side`` never equals the negative number ``value`` for a real unknown, or None."""
    if not (value.is_number and value.is_negative):
        return None
    from veristep.propose.symbolic.moves import tex

    if side.is_positive:
        return f"{tex(side)} is positive for every real value, but {tex(value)} is negative"
    if side.is_nonnegative:
        return f"{tex(side)} is never negative, but {tex(value)} is negative"
    return None


def _same_sides(written: sp.Eq, rest: sp.Expr, value: sp.Expr) -> bool:
    """Whether the start already has the non-negative part alone on the left."""
    return sp.simplify(written.lhs - rest) == 0 and sp.simplify(written.rhs - value) == 0


def _isolating_move(written: sp.Eq, rest: sp.Expr) -> tuple[str, str]:
    """(operation, justification) of the line that leaves ``rest`` alone on the left."""
    from veristep.propose.symbolic.moves import tex

    own_constant, own_rest = _ordered_sum(written.lhs).as_coeff_Add()
    if written.rhs.is_number and own_constant != 0 and sp.simplify(own_rest - rest) == 0:
        why = "the same number taken from both sides keeps every solution"
        if own_constant.is_positive:
            return f"subtract {tex(own_constant)} from both sides", why
        return f"add {tex(-own_constant)} to both sides", why
    why = "the same terms added to both sides keep every solution"
    return "bring the terms with the unknown to the left side and the numbers to the right", why


def _ordered_sum(expr: sp.Expr) -> sp.Expr:
    """A sum rebuilt in SymPy's order (the number first), each term kept as written."""
    return sp.Add(*sp.Add.make_args(expr))
