"""The offline planner: a best-first search over teacher moves from the start toward the target.

Each state offers a few candidate moves (from the strategy modules, most specific first); the search
expands the cheapest path first — fewest moves, then closest to the target's shape — and stops at
the first state that *is* the target (same solutions for an equation, the same expression tree
otherwise). When only a mathematically equal state was found, a last step rewrites it into the
requested form, so the endpoint is the target as written. When nothing reaches the target within
the node and time budget, the plan says so and keeps the longest honest progress.

>>> x = sp.Symbol("x")
>>> result = plan(sp.Eq(2 * (x + 3), 5 * x - 9), sp.Eq(x, 5))
>>> result.reached, len(result.steps)
(True, 3)
>>> [s.operation for s in result.steps][-1]
'divide both sides by $-3$'
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import time
from dataclasses import dataclass, field

import sympy as sp

from veristep.propose.symbolic import finished, goals
from veristep.propose.symbolic.arithmetic import closed_moves, is_closed_arithmetic
from veristep.propose.symbolic.conditions import (
    condition_moves,
    exponential_as_unknown,
    trig_in_one_function,
    trig_product_moves,
)
from veristep.propose.symbolic.conditions import split as split_conditions
from veristep.propose.symbolic.derivatives import derivative_moves, has_pending_derivative
from veristep.propose.symbolic.equations import polynomial_moves
from veristep.propose.symbolic.expressions import arithmetic_move, rewrite_moves
from veristep.propose.symbolic.factoring import circle_moves, shown_moves
from veristep.propose.symbolic.finished import candidates_pending
from veristep.propose.symbolic.implicit import implicit_moves, is_implicit, read_implicit
from veristep.propose.symbolic.inequalities import (
    inequality_moves,
    interval_form_move,
    is_solved_inequality,
)
from veristep.propose.symbolic.integrals import has_pending_integral, integral_moves
from veristep.propose.symbolic.limits import has_pending_limit, limit_moves
from veristep.propose.symbolic.logs import log_law_moves
from veristep.propose.symbolic.moves import Move, Problem, pick_var, state_key
from veristep.propose.symbolic.periodic import is_family, periodic_moves
from veristep.propose.symbolic.printer import Lines, to_latex
from veristep.propose.symbolic.special_equations import (
    candidate_check_moves,
    confirm_candidates_move,
    evaluate_power_move,
    out_of_range_moves,
    special_moves,
)
from veristep.propose.symbolic.sums import has_pending_sum, sum_moves
from veristep.propose.symbolic.systems import is_system, same_points, solved_points, system_moves
from veristep.propose.symbolic.trig import IDENTITY_MOVES, TRIG_FUNCTIONS, trig_moves


@dataclass(frozen=True)
class PlannedStep:
    name: str
    operation: str
    justification: str
    change_type: str
    latex: str
    from_key: str  # the state the move was applied to (to ban it there if it fails grounding)


@dataclass
class Plan:
    steps: list[PlannedStep]
    reached: bool
    message: str
    nodes: int = 0
    ms: float = 0.0


@dataclass(order=True)
class _Node:
    priority: float
    order: int
    state: sp.Basic = field(compare=False)
    path: tuple[Move, ...] = field(compare=False, default=())


def plan(
    start: sp.Basic,
    target: sp.Basic,
    *,
    target_latex: str = "",
    banned: frozenset[tuple[str, str]] = frozenset(),
    budget_s: float = 10.0,
    max_nodes: int = 120,
    max_depth: int = 18,
    decimals: bool = False,
    goal: str | None = None,
    var: sp.Symbol | None = None,
    start_written: sp.Basic | None = None,
) -> Plan:
    """Search for a chain of moves from ``start`` to ``target`` (SymPy objects); ``decimals``
    when the start was written in decimals. A goal-only task passes ``target=None`` and a shape
    ``goal`` (``symbolic.finished``): the search stops at the first finished form of it."""
    began = time.monotonic()
    wants_pm = "\\pm" in target_latex
    start, target, var = read_implicit(start, target, var)  # find dy/dx: it is the unknown
    var = var or goals.unknown_from_target(target) or pick_var(start, target)
    p = Problem(start, target, var, target_latex, wants_pm, set(banned), decimals=decimals)
    p.goal = goal if target is None else None
    p.deadline = began + budget_s
    counter = itertools.count()
    frontier = [_Node(0.0, next(counter), start)]
    seen = {state_key(start)}
    best_equal: _Node | None = None
    deepest = frontier[0]
    nodes = 0
    while frontier and nodes < max_nodes and time.monotonic() - began < budget_s:
        node = heapq.heappop(frontier)
        nodes += 1
        verdict = _arrived(node.state, p)
        if verdict == "exact":
            return _finish(node.path, p, began, nodes, exact=True, written=start_written)
        if verdict == "equal" and (best_equal is None or p.wants_pm):
            # For the ± form the later equal state (roots over one denominator) reads better.
            best_equal = node
        if _progress(node, p) > _progress(deepest, p):
            deepest = node
        if len(node.path) >= max_depth:
            continue
        for move in candidates(node.state, p):
            key = state_key(move.state)
            if key in seen or (state_key(node.state), move.name) in p.banned:
                continue
            path = (*node.path, move)
            priority = _priority(move, path, p)
            if cites_the_claim(path, p):
                # Kept as a fallback, without claiming the state: a proof shown in more lines
                # may still reach it first.
                priority += _CITATION_PENALTY
            else:
                seen.add(key)
            heapq.heappush(frontier, _Node(priority, next(counter), move.state, path))
    if best_equal is not None:
        return _finish(best_equal.path, p, began, nodes, exact=False, written=start_written)
    why = "ran out of time" if time.monotonic() - began >= budget_s else "no move sequence found"
    aim = "target" if p.goal is None else f"finished form ({p.goal})"
    message = f"{aim} not reached: {why} after {nodes} states; shown is the furthest progress"
    steps = _steps(start, deepest.path, start_written, p.var)
    return Plan(steps, False, message, nodes, _ms(began))


def _progress(node: _Node, p: Problem) -> tuple[int, int]:
    """How far a node got, for the honest partial answer: solved forms first (by the shortest
    path), then the deepest path."""
    if goals.solved_values(node.state, p.var) is not None and not candidates_pending(node.state):
        return (1, -len(node.path))
    return (0, len(node.path))


def candidates(state: sp.Basic, p: Problem) -> list[Move]:
    """The candidate moves at ``state``, most specific strategy first.

    A strategy that trips over an unusual SymPy object offers no move there; the search goes on
    elsewhere rather than losing the whole plan.
    """
    try:
        return _candidates(state, p)
    except (ArithmeticError, AttributeError, NotImplementedError, TypeError, ValueError,
            sp.PolynomialError, RecursionError):  # fmt: skip
        return []


def _candidates(state: sp.Basic, p: Problem) -> list[Move]:
    implicit = implicit_moves(state, p.var) if is_implicit(p.var) else []
    if implicit:
        return implicit
    if has_pending_derivative(state):
        return derivative_moves(state, p)
    if has_pending_integral(state):
        return integral_moves(state, p)
    if has_pending_limit(state):
        return limit_moves(state, p)
    if has_pending_sum(state):
        return sum_moves(state, p)
    if is_closed_arithmetic(p.start) and is_closed_arithmetic(state):
        # A computation asked for as written: one operation per line, innermost first.
        moves = closed_moves(state, decimals=p.decimals)
        if moves:
            return moves
    if isinstance(state, sp.Expr):
        # Plain numbers left by a calculus move: do the arithmetic; otherwise a named rewrite.
        laws = log_law_moves(state, p) if isinstance(p.target, sp.Expr) else []
        if laws:
            # One logarithm law per step, never the all-at-once expansion.
            return laws + rewrite_moves(state, p, _LOG_JUMPS)
        if not state.free_symbols:
            return arithmetic_move(state) + rewrite_moves(state, p)
        if state.has(*TRIG_FUNCTIONS):
            # One named identity per step, never a simplifier's jump with a borrowed name.
            return trig_moves(state, p) + rewrite_moves(state, p, _TRIG_JUMPS)
        shown = shown_moves(state, p)
        if shown:
            # A family that shows the work is offered instead of the one-line jumps it explains.
            return shown + rewrite_moves(state, p, _ALGEBRA_JUMPS)
        return rewrite_moves(state, p) + arithmetic_move(state)
    return _statement_moves(state, p)


_TRIG_JUMPS = frozenset({"trigsimp", "simplify", "expand-trig", "apart", "together"})
_LOG_JUMPS = frozenset({"expand", "expand-log", "combine-log", "simplify"})
_ALGEBRA_JUMPS = frozenset({"factor", "apart", "together", "cancel", "simplify"})


def _statement_moves(state: sp.Basic, p: Problem) -> list[Move]:
    if is_family(state, p.var):
        return periodic_moves(state, p)
    general = periodic_moves(state, p)
    if general:
        return general
    if is_system(state):
        return [] if solved_points(state) is not None else system_moves(state, p, _case_moves)
    if split_conditions(state, p.var) is not None:
        return condition_moves(state, p, _case_moves)
    values = goals.solved_values(state, p.var)
    if values is not None:
        return (
            candidate_check_moves(state, p, values)
            + evaluate_power_move(state)
            + _common_denominator_move(state, p, values)
        )
    if is_solved_inequality(state, p.var):
        return interval_form_move(state, p)
    if isinstance(state, sp.Or):
        return _lift_over_cases(state, p)
    circle = circle_moves(state, p)
    if circle:
        return circle
    return _case_moves(state, p) or _cas_solve_move(state, p)


def _case_moves(case: sp.Basic, p: Problem) -> list[Move]:
    """The moves for one equation or inequality in one unknown."""
    moves = inequality_moves(case, p) + special_moves(case, p) + polynomial_moves(case, p)
    return moves or exponential_as_unknown(case, p, _case_moves) or _trig_case_moves(case, p)


def _trig_case_moves(case: sp.Basic, p: Problem) -> list[Move]:
    """2 sin x - 1 = 0 with no interval: solved for sin x as for an unknown (sin x = 1/2), whose
    general solution the periodic moves then write; several functions are factored first."""
    if p.var is None:
        return []
    return (
        out_of_range_moves(case)
        or trig_in_one_function(case, p, _case_moves)
        or trig_product_moves(case, p.var)
    )


def _lift_over_cases(state: sp.Or, p: Problem) -> list[Move]:
    """Apply the next move to every unsolved case at once ("in each case, ..."), then, as
    alternatives for the search, each other move of one case alone: a case whose first move
    leads back where it came from (x^2 - 2x = -4 is put back in standard form) still reaches its
    answer by completing the square."""
    options: list[list[Move]] = []
    for case in state.args:
        if goals.solved_values(case, p.var) is not None or is_solved_inequality(case, p.var):
            options.append([])
            continue
        moves = _case_moves(case, p)
        if not moves:
            return []
        options.append(moves)
    if not any(options):
        return []
    lifted = [_lifted(state, [moves[:1] for moves in options])]
    for index, moves in enumerate(options):
        for move in moves[1:_CASE_ALTERNATIVES]:
            only = [[move] if i == index else [] for i in range(len(options))]
            lifted.append(_lifted(state, only))
    return lifted


_CASE_ALTERNATIVES = 4  # the first move and up to three others per case


def _lifted(state: sp.Or, chosen: list[list[Move]]) -> Move:
    """One line: the chosen move (if any) applied to each case of ``state``."""
    replaced, operations, whys, names_used = [], [], [], []
    for case, moves in zip(state.args, chosen, strict=True):
        if not moves:
            replaced.append(case)
            continue
        replaced.append(moves[0].state)
        operations.append(moves[0].operation)
        names_used.append(moves[0].name)
        whys.append(moves[0].justification)
    if len(operations) == 1 and len(state.args) > 1:
        operation = "in one case, " + operations[0]
    elif len(set(operations)) == 1:
        operation = "in each case, " + operations[0]
    elif len(set(names_used)) == 1 and names_used[0] in _CASE_WORDS:
        operation = "in each case, " + _CASE_WORDS[names_used[0]]
    else:
        operation = "; ".join(operations)
    why = "; ".join(dict.fromkeys(whys))
    return Move("cases", operation, why, "rewrite", sp.Or(*replaced))


_CASE_WORDS = {
    "move-constant": "move the constant term to the right side",
    "collect-unknown": "bring the terms with the unknown to the left side",
    "divide": "divide both sides by the coefficient of the unknown",
}


def _common_denominator_move(state: sp.Basic, p: Problem, values: list[sp.Basic]) -> list[Move]:
    if not p.wants_pm or len(values) != 2:
        return []
    combined = [sp.together(v) for v in values]
    if all(goals.identical(a, b) for a, b in zip(combined, values, strict=True)):
        return []
    new = sp.Or(*[sp.Eq(p.var, v) for v in combined])
    return [
        Move(
            "common-denominator",
            "write each root over a common denominator",
            "add the fractions",
            "rewrite",
            new,
        )
    ]


def _cas_solve_move(state: sp.Basic, p: Problem) -> list[Move]:
    """Last resort: SymPy's solver in one step, labelled as such (never a teacher's move).

    Only a complete, finite real solution set is written: a partial answer (the principal roots
    of a trigonometric equation) would be a wrong step.
    """
    if p.var is None or not isinstance(state, sp.Eq):
        return []
    try:
        roots = sp.solveset(state, p.var, sp.S.Reals)
    except (NotImplementedError, ValueError, TypeError):
        return []
    if not isinstance(roots, sp.FiniteSet):
        return []
    ordered = sorted(roots, key=sp.default_sort_key)
    new = sp.Or(*[sp.Eq(p.var, r) for r in ordered]) if ordered else sp.false
    why = "solved by the computer algebra system in one step"
    return [Move("cas-solve", f"solve for {to_latex(p.var)}", why, "solve", new)]


def _arrived(state: sp.Basic, p: Problem) -> str | None:
    """'exact' (the state is the target), 'equal' (same mathematics, other form) or None."""
    target = p.target
    if target is None:
        if p.goal is not None and finished.is_finished(state, p.goal, p.var, p.start):
            return "exact"
        return None
    values = goals.solved_values(state, p.var)
    if values and any(sp.srepr(v.doit()) != sp.srepr(v) for v in values):
        return None  # arithmetic written out (π + π/4) is done in a line of its own first
    if goals.identical(state, target):
        return "equal" if p.wants_pm else "exact"
    if is_closed_arithmetic(state) and to_latex(state) == to_latex(target):
        return "exact"  # a computation's result held unevaluated (5·6⁻¹) but printed as 5/6
    if is_family(state, p.var) or is_family(target, p.var):
        return "equal" if goals.same_family(state, target, p.var) else None
    if isinstance(target, sp.Expr):
        if candidates_pending(state):
            return None
        return "equal" if goals.same_expression(state, target) else None
    if goals.same_solutions(state, target, p.var):
        return "exact" if not p.wants_pm else "equal"
    if same_points(state, target):
        return "exact"
    if is_solved_inequality(state, p.var) and not isinstance(target, sp.Contains):
        return "exact" if goals.same_set(state, target, p.var) else None
    if goals.solved_values(target, p.var) is None and goals.same_equation(state, target):
        return "equal"
    return None


_CITATION_PENALTY = 2.5  # a proof up to two moves longer is preferred to citing the claim


def cites_the_claim(path: tuple[Move, ...], p: Problem) -> bool:
    """The whole derivation would be one line that names an identity and lands on the target:
    the identity cited is the claim itself (``\\cos^2 x - \\sin^2 x = \\cos 2x`` "by the
    double-angle formula"), which a proof must derive from a more basic one."""
    if len(path) != 1 or path[0].before or path[0].name not in IDENTITY_MOVES:
        return False
    return isinstance(p.target, sp.Expr) and goals.identical(path[0].state, p.target)


def _priority(move: Move, path: tuple[Move, ...], p: Problem) -> float:
    # Fewest moves first; among equal lengths, the state whose size is closest to the target's.
    if p.target is None or not isinstance(move.state, sp.Expr):
        return float(len(path))
    gap = abs(sp.count_ops(move.state) - sp.count_ops(p.target))
    return len(path) + gap / (10.0 + gap)


def _finish(
    path: tuple[Move, ...],
    p: Problem,
    began: float,
    nodes: int,
    *,
    exact: bool,
    written: sp.Basic | None = None,
) -> Plan:
    path = _with_confirmation(path, p)
    steps = _steps(p.start, path, written, p.var)
    if exact and steps and p.target_latex and _same_as_target(path[-1].state, p):
        # The same statement as the target: write it exactly as the target is written, so the
        # derivation ends at the target as written (not at SymPy's printing of it).
        steps[-1] = dataclasses.replace(steps[-1], latex=p.target_latex)
    if not exact and p.target is not None:
        last = path[-1].state if path else p.start
        operation = (
            "write the two roots with $\\pm$" if p.wants_pm else "write in the requested form"
        )
        latex = p.target_latex or to_latex(p.target)
        steps.append(
            PlannedStep(
                "target-form",
                operation,
                "the same mathematics, rearranged",
                "rewrite",
                latex,
                state_key(last),
            )
        )
    reached = "target reached" if p.goal is None else f"finished form reached ({p.goal})"
    return Plan(steps, True, reached, nodes, _ms(began))


def _same_as_target(state: sp.Basic, p: Problem) -> bool:
    return _arrived(state, p) == "exact"


def _with_confirmation(path: tuple[Move, ...], p: Problem) -> tuple[Move, ...]:
    """Add the explicit candidate check when the moves could have added roots and none was cut."""
    if not path or any(m.name in ("reject-extraneous", "apply-condition") for m in path):
        return path
    last = path[-1].state
    values = goals.solved_values(last, p.var)
    if values is None:
        return path
    check = confirm_candidates_move(last, p, values)
    return (*path, check) if check is not None else path


def _steps(
    start: sp.Basic,
    path: tuple[Move, ...],
    written: sp.Basic | None = None,
    var: sp.Symbol | None = None,
) -> list[PlannedStep]:
    """The moves as lines; each line keeps the order of terms of the line before, the first
    the order the start was written in (``written``: the start converted unevaluated). A line
    that is *false* (no real solution) is written as the empty solution set of ``var``: a ⊥
    means nothing to a learner."""
    out, prev = [], start
    lines = Lines()
    lines.start(start, written)
    for move in path:
        for operation, why, shown in move.before:
            out.append(PlannedStep(move.name, operation, why, "rewrite", shown, state_key(prev)))
        printed = lines.line(move.state)
        if move.state is sp.false and var is not None:
            printed = f"{to_latex(var)} \\in \\emptyset"
        latex = move.latex or printed
        out.append(
            PlannedStep(
                move.name,
                move.operation,
                move.justification,
                move.change_type,
                latex,
                state_key(prev),
            )
        )
        prev = move.state
    return out


def _ms(began: float) -> float:
    return (time.monotonic() - began) * 1000.0
