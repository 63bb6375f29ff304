"""Goal-only tasks: what each goal's finished form is, as the planner steers toward it.

Without a target the planner needs to know where to stop. Two kinds of goal:

- **a shape to reach** (``solve``, ``differentiate``, ``integrate``, ``limit``, ``evaluate``):
  the planner stops at the first state of that shape — each unknown isolated with its value
  written out and no extraneous root left to reject; no derivative, integral, limit or sum sign
  left and the arithmetic done. No computer-algebra answer is consulted: the state is reached
  by the teacher moves alone.
- **a form to write** (``simplify``, ``factor``, ``expand``): the form is SymPy's (``simplify``,
  ``factor``, ``expand``) and serves only as the planner's *guide target*.

Either way the planner only proposes: every step is judged by the grounding engine, the
endpoint gate checks the finished form (``grounding.finished``) and an equation's answer is
substituted back into the start before it is stated.

>>> x = sp.Symbol("x")
>>> default_goal(sp.Eq(2 * x, 4)), default_goal(sp.Derivative(x**2, x)), default_goal(x + x)
('solve', 'differentiate', 'simplify')
>>> guide_target(x**2 - 1, "factor")
(x - 1)*(x + 1)
"""

from __future__ import annotations

import sympy as sp

from veristep.propose.goals import GOALS as GOALS  # kept here too: its readers import it here

SHAPE_GOALS = frozenset({"solve", "differentiate", "integrate", "limit", "evaluate"})


def default_goal(start: sp.Basic) -> str:
    """The goal a start implies: a statement is solved, a pending operator is carried out,
    anything else is simplified."""
    if not isinstance(start, sp.Expr):
        return "solve"
    if start.has(sp.Derivative):
        return "differentiate"
    if start.has(sp.Integral):
        return "integrate"
    if start.has(sp.Limit):
        return "limit"
    if start.has(sp.Sum):
        return "evaluate"
    return "simplify"


def guide_target(start: sp.Basic, goal: str) -> sp.Basic | None:
    """The form the planner steers toward for ``simplify``/``factor``/``expand`` (None for a
    shape goal). The start itself when no rewrite makes it simpler (nothing to do)."""
    if goal not in ("simplify", "factor", "expand") or not isinstance(start, sp.Expr):
        return None
    if goal == "factor":
        return sp.factor(start)
    if goal == "expand":
        return sp.expand(start)
    value = start.doit()
    if not value.free_symbols:
        # A computation: its value (in decimals when it was written in decimals); logarithms of
        # numbers combine (ln 8 − ln 2 = ln 4), which simplify alone leaves as it is.
        forms = [value, sp.simplify(value), sp.logcombine(value, force=True)]
        return min(forms, key=sp.count_ops)
    simpler = sp.simplify(value)
    if sp.count_ops(simpler) < sp.count_ops(value):
        return simpler
    # simplify keeps (x^3 - 8)/(x - 2) (as many operations as x^2 + 2x + 4): a teacher cancels
    # the common factor of a fraction all the same
    return sp.cancel(value) if _common_factor(value) else value


def _common_factor(value: sp.Expr) -> bool:
    """Whether the numerator and the denominator of ``value`` share a factor with a letter."""
    num, den = sp.fraction(sp.together(value))
    if not den.free_symbols:
        return False
    try:
        return bool(sp.gcd(num, den).free_symbols)
    except (sp.PolynomialError, sp.CoercionFailed, NotImplementedError):
        return False


def is_finished(state: sp.Basic, goal: str, var: sp.Symbol | None, start: sp.Basic) -> bool:
    """Whether ``state`` is the finished form of a shape goal (see the module docstring)."""
    if candidates_pending(state):
        return False
    if goal == "solve":
        return _solved(state, var, start)
    if goal in SHAPE_GOALS and isinstance(state, sp.Expr):
        return sp.srepr(state.doit()) == sp.srepr(state)  # the arithmetic is done too
    return False


def candidates_pending(state: sp.Basic) -> bool:
    """Whether a derivative, integral, limit or sum is still written out to be computed."""
    from veristep.propose.symbolic.derivatives import has_pending_derivative
    from veristep.propose.symbolic.integrals import has_pending_integral
    from veristep.propose.symbolic.limits import has_pending_limit
    from veristep.propose.symbolic.sums import has_pending_sum

    pending = (has_pending_derivative, has_pending_integral, has_pending_limit, has_pending_sum)
    return any(check(state) for check in pending)


def _solved(state: sp.Basic, var: sp.Symbol | None, start: sp.Basic) -> bool:
    from veristep.propose.symbolic import goals
    from veristep.propose.symbolic.inequalities import is_solved_inequality
    from veristep.propose.symbolic.moves import Problem
    from veristep.propose.symbolic.periodic import is_family
    from veristep.propose.symbolic.special_equations import candidate_check_moves
    from veristep.propose.symbolic.systems import is_system, solved_points

    if is_system(state) or (isinstance(state, sp.And) and solved_points(state) is not None):
        return solved_points(state) is not None
    if is_family(state, var):
        return True
    values = goals.solved_values(state, var)
    if values is not None:
        if any(sp.srepr(v.doit()) != sp.srepr(v) for v in values):
            return False  # π + π/4 is written out first
        problem = Problem(start, None, var)
        return not candidate_check_moves(state, problem, values)  # no extraneous root left
    return is_solved_inequality(state, var)
