"""The symbolic planner behind the :class:`~veristep.propose.protocol.Proposer` protocol.

Start and target are parsed by ``mathgraph`` (the same parser the grounding engine uses, so the
planner and the checker read the same mathematics), the search runs in a killable CAS worker under
``settings.derive_timeout_s``, and feedback from a failed grounding bans the weak moves at the
states where they were tried, so the next attempt searches around them.
"""

from __future__ import annotations

import re
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.propose.protocol import Draft, Feedback, ProposedStep

# The worker gets a little longer than the planner's own clock, which it checks between moves.
_GRACE_S = 2.0


# SymPy fails on some starts held unevaluated (its assumption system can meet an unevaluated
# product inside ``fraction``: "invalid input: Mod(1*1, 2*1)"), and the converter reports that as
# an InputError. The forms built unevaluated are niceties: on such a failure the plan goes on
# from the evaluated start instead of stopping.
_NOT_WRITABLE = (InputError, TypeError, ValueError, NotImplementedError, RecursionError,
                 AttributeError)  # fmt: skip


def latex_to_sympy(latex: str, settings: Settings, *, as_written: bool = False) -> Any:
    """Parse LaTeX with the project's parser and convert it to SymPy (InputError when it fails).

    ``as_written`` keeps a computation without letters unevaluated (``\\frac12 + \\frac13``
    stays a sum), so the planner can show its arithmetic instead of finding it already done.
    """
    import sympy as sp

    from veristep.mathgraph import parse_math, to_sympy
    from veristep.propose.symbolic.arithmetic import is_closed_arithmetic

    graph = parse_math(latex, settings)
    real = settings.domain == "real"
    value = to_sympy(graph, real=real, settings=settings)
    if not as_written or not is_closed_arithmetic(value):
        return value
    try:
        with sp.evaluate(False):
            written = to_sympy(graph, real=real, settings=settings)
    except _NOT_WRITABLE:
        return value
    if not _hand_sized(written):
        return value  # 10^{10^{10}}: nothing a line by hand would show, and doit() would explode
    # The unevaluated form must still be the same number (a converter shortcut may not be).
    same = is_closed_arithmetic(written) and sp.simplify(written.doit() - value) == 0
    return written if same else value


def _hand_sized(expr: Any) -> bool:
    """Small enough to compute by hand: few operations, whole numbers below 10^12, powers
    below 1000."""
    import sympy as sp

    for count, node in enumerate(sp.preorder_traversal(expr), 1):
        if count > 400:
            return False
        if isinstance(node, sp.Integer) and abs(node) > 10**12:
            return False
        if isinstance(node, sp.Pow) and not _small_exponent(node.exp):
            return False
    return True


def _small_exponent(exp: Any) -> bool:
    """An exponent of at most 1000 in size, built without powers (10^{10^{10}} is not)."""
    import sympy as sp

    if any(isinstance(n, sp.Pow) and n.exp != -1 for n in sp.preorder_traversal(exp)):
        return False
    try:
        return abs(float(exp)) <= 1000
    except (TypeError, ValueError):
        return False


class SymbolicProposer:
    kind = "symbolic"
    model: str | None = None
    deterministic = True  # the same feedback gives the same plan: retry only after a ban

    def __init__(self, settings: Settings, goal: str | None = None, var: str | None = None) -> None:
        self.settings = settings
        self.banned: set[tuple[str, str]] = set()
        # A goal-only task (an empty target): the goal, and the unknown when the task names it.
        self.goal = goal
        self.var = var

    def propose(
        self, start: str, target: str, domain: str = "auto", feedback: Feedback | None = None
    ) -> Draft:
        from veristep.core.pool import run_cas

        try:
            start_expr = latex_to_sympy(start, self.settings)
            target_expr = latex_to_sympy(target, self.settings) if target.strip() else None
        except (TypeError, ValueError, NotImplementedError, RecursionError) as exc:
            # Well-formed LaTeX that SymPy cannot hold: nothing to plan on; grounding reports it.
            note = f"the planner cannot read the problem: {type(exc).__name__}: {exc}"
            return Draft([], self.kind, note=note)
        self._learn(feedback)
        budget = self.settings.derive_timeout_s
        # The start travels as LaTeX: a pickled SymPy object is rebuilt evaluated on arrival.
        del start_expr
        result = run_cas(
            _plan_as_written,
            start,
            target_expr,
            self.settings,
            settings=self.settings,
            timeout_s=budget + _GRACE_S,
            target_latex=target,
            banned=frozenset(self.banned),
            budget_s=budget,
            goal=self.goal,
            var=self.var,
        )
        if result.status != "ok":
            why = result.error or result.status
            return Draft([], self.kind, note=f"planner stopped ({result.status}): {why}")
        found = result.value
        steps = [
            ProposedStep(s.operation, s.latex, s.justification, s.change_type) for s in found.steps
        ]
        keys = [(s.from_key, s.name) for s in found.steps]
        meta = {"keys": keys, "reached": found.reached, "nodes": found.nodes, "ms": found.ms}
        return Draft(steps, self.kind, note=found.message, meta=meta)

    def _learn(self, feedback: Feedback | None) -> None:
        """Ban every move that did not ground, at the state where it was applied."""
        if feedback is None or feedback.previous is None:
            return
        keys = feedback.previous.meta.get("keys", [])
        for index in feedback.weak_steps:
            if 1 <= index <= len(keys):
                self.banned.add(tuple(keys[index - 1]))


def _plan_as_written(start: str, target: Any, settings: Settings, **options: Any) -> Any:
    """The planner's search from the start as written (runs in the CAS worker)."""
    import sympy as sp

    from veristep.propose.symbolic.planner import plan

    decimals = re.search(r"\d\.\d", start) is not None
    written = latex_to_sympy(start, settings, as_written=True)
    # An equation SymPy's assumptions settle as false (x^2 + 1 = 0; the reader leaves it a
    # relation): the teacher's lines, before a search whose moves would collapse it in one line.
    empty_target = target is None or target is sp.false
    if empty_target and (written is sp.false or isinstance(written, sp.Eq)):
        found = _no_solution_plan(start, settings)
        if found is not None:
            return found
    goal = None
    if target is None:
        goal = options.get("goal") or default_goal_of(written)
        target, options = _goal_options(written, options)
    typed = _typed(start, settings)
    found = plan(written, target, decimals=decimals, start_written=typed, **options)
    if found.reached and not found.steps:
        step = _combine_step(start, options.get("target_latex", ""), settings)
        if step is not None:
            found.steps.append(step)
    elif found.steps:
        first = _expansion_step(start, settings)
        if first is not None:
            found.steps.insert(0, first)
    if goal is not None and found.reached:
        found.message = f"finished form reached ({goal})"  # a guide target is no user's target
    return found


def _typed(latex: str, settings: Settings) -> Any:
    """The start converted unevaluated, its sums' terms in the order typed (the planner's lines
    carry that order), or None when it cannot be."""
    import sympy as sp

    from veristep.mathgraph import parse_math, to_sympy

    try:
        with sp.evaluate(False):
            typed = to_sympy(parse_math(latex, settings), real=settings.domain == "real",
                             settings=settings)  # fmt: skip
    except Exception:  # the order is a nicety: any failure means SymPy's order
        return None
    return typed if _cheap_to_evaluate(typed) else None


def _cheap_to_evaluate(expr: Any) -> bool:
    """Each typed sum is evaluated to find it again in the start: no tower of powers of numbers
    (10^{10^{10}}), no factorial, nothing beyond a hand-written size."""
    import sympy as sp

    for count, node in enumerate(sp.preorder_traversal(expr), 1):
        if count > 400 or isinstance(node, (sp.factorial, sp.binomial, sp.gamma)):
            return False
        numbers = isinstance(node, sp.Pow) and node.base.is_number and node.exp.is_number
        if numbers and not _small_exponent(node.exp):
            return False
    return True


def _no_solution_plan(start: str, settings: Settings) -> Any:
    """An equation read as false over the reals (``x^2 + 1 = 0``): the lines that show it has no
    real solution, or None when they cannot be written."""
    from veristep.propose.symbolic.no_solution import no_solution_steps
    from veristep.propose.symbolic.planner import Plan

    steps = no_solution_steps(start, settings)
    if steps is None:
        return None
    return Plan(steps, True, "finished form reached (solve): no real solution", len(steps))


def default_goal_of(start: Any) -> str:
    from veristep.propose.symbolic.finished import default_goal

    return default_goal(start)


def _goal_options(start: Any, options: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """A goal-only task: the goal (the start's default when none was asked for), the unknown,
    and, for a form goal (simplify, factor, expand), the guide target the planner steers to."""
    import sympy as sp

    from veristep.propose.symbolic.finished import default_goal, guide_target
    from veristep.propose.symbolic.printer import to_latex

    goal = options.pop("goal", None) or default_goal(start)
    name = options.pop("var", None)
    var = next((s for s in start.free_symbols if s.name == name), None) if name else None
    if goal in ("simplify", "factor", "expand"):
        value = start.doit() if isinstance(start, sp.Expr) else start
        guide = guide_target(value, goal)
        if guide is not None:
            return guide, {**options, "target_latex": to_latex(guide), "var": var}
    return None, {**options, "goal": goal, "var": var}


def _expansion_step(start: str, settings: Settings) -> Any:
    """The line a teacher writes first when SymPy already multiplied out a bracket on reading
    (``3(x-2)`` is read as ``3x - 6``): "expand the brackets", to the form the plan starts from.
    None when the start as written has no such bracket."""
    import sympy as sp

    from veristep.mathgraph import parse_math, to_sympy
    from veristep.propose.symbolic.moves import state_key
    from veristep.propose.symbolic.planner import PlannedStep
    from veristep.propose.symbolic.printer import to_latex

    value = latex_to_sympy(start, settings)
    if not getattr(value, "free_symbols", None):
        return None  # a computation without letters is planned as written already
    if value.has(sp.Integral, sp.Derivative, sp.Limit, sp.Sum):
        return None  # calculus has its own first lines (split the integral, the rules)
    try:
        with sp.evaluate(False):
            written = to_sympy(parse_math(start, settings), real=settings.domain == "real",
                               settings=settings)  # fmt: skip
    except _NOT_WRITABLE:
        return None
    distributed = any(
        isinstance(node, sp.Mul)
        and any(a.is_Number for a in node.args)
        and any(isinstance(a, sp.Add) for a in node.args)
        for node in sp.preorder_traversal(written)
    )
    if not distributed or written == value:
        return None
    why = "multiply each term in the bracket by the number in front of it (distributive law)"
    return PlannedStep("expand", "expand the brackets", why, "rewrite", to_latex(value),
                       state_key(written))  # fmt: skip


def _combine_step(start: str, target: str, settings: Settings) -> Any:
    """The one line owed when SymPy already combined the start into the target on reading
    (``2x + 3x`` is read as ``5x``): the search found nothing left to do, yet the start as
    written is not the target as written. None when it is."""
    import sympy as sp

    from veristep.grounding.conclusion import same_as_written
    from veristep.mathgraph import parse_math, to_sympy
    from veristep.propose.symbolic.moves import state_key
    from veristep.propose.symbolic.planner import PlannedStep

    if not target:
        return None
    graph = parse_math(start, settings)
    if same_as_written(graph, parse_math(target, settings)):
        return None
    value = latex_to_sympy(start, settings)
    try:
        with sp.evaluate(False):
            written = to_sympy(graph, real=settings.domain == "real", settings=settings)
    except _NOT_WRITABLE:
        written = value
    fewer_terms = isinstance(written, sp.Add) and len(sp.Add.make_args(value)) < len(written.args)
    if fewer_terms:
        operation, why = (
            "combine the like terms",
            "terms of the same kind add by their coefficients",
        )
    else:
        operation, why = "simplify", "the same expression, simplified"
    return PlannedStep("combine", operation, why, "rewrite", target, state_key(value))
