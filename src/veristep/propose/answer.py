"""The answer of a goal-only task in a sentence, and the correction of a wrong target.

Nothing here is claimed by the planner: :func:`apply_goal_gate` sets the endpoint from the
grounding engine's finished-form gate and the substitution of the answer into the start
(``grounding.finished``); the sentence is stated only for a chain judged verified or better.
A given target is corrected only when substitution (or a refuting point for an expression) shows
it wrong, each computed in a CAS worker under a deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.core.verdicts import Derivation, chain_confidence

_SAY = {
    "differentiate": "the derivative is",
    "integrate": "the integral is",
    "limit": "the limit is",
    "evaluate": "the sum is",
    "simplify": "it simplifies to",
    "factor": "it factors as",
    "expand": "it expands to",
}


def apply_goal_gate(derivation: Derivation, goal: str, settings: Settings) -> Derivation:
    """Endpoint = the finished form of ``goal`` was reached (and, for an equation, its answer
    substituted back holds); the chain verdict is recomputed; the answer is stated."""
    from veristep.grounding.decision import Context
    from veristep.grounding.finished import finished_form, substitute_answer
    from veristep.grounding.states import parse_state

    ctx = Context(settings=settings)
    start = parse_state(derivation.start, settings)
    last = parse_state(derivation.states[-1].latex, settings)
    end = derivation.endpoint
    derivation.goal = goal
    if last.error is not None or start.error is not None:
        end.reached = end.math_correct = end.exact_graph = False
        derivation.answer = _no_answer(goal, "the last state could not be read")
        return _recompute(derivation)
    done, why = finished_form(goal, last.expr, ctx)
    if done and not derivation.steps and goal == "solve" and not _solved_as_written(start):
        # SymPy decided the start on reading (x^2 + 1 = 0 is False over the reals): no line of
        # working shows it, so nothing is reached.
        done, why = False, "no step was written toward a solved form"
    substituted = None
    if done and goal == "solve" and last.expr != start.expr:
        substituted = substitute_answer(start.expr, last.expr, ctx)
        if substituted is not None and not substituted["holds"]:
            done, why = False, "the answer does not solve the start when substituted back"
    end.reached = end.math_correct = end.exact_graph = done
    _recompute(derivation)
    if not done:
        derivation.answer = _no_answer(goal, why)
    elif not derivation.steps:
        derivation.answer = {**_no_answer(goal, ""), "sentence": "nothing to do: the start "
                             "already is in its finished form"}  # fmt: skip
    elif derivation.confidence.tier < Tier.VERIFIED:
        derivation.answer = _no_answer(goal, "a step could not be verified")
    else:
        derivation.answer = {
            "goal": goal,
            "stated": True,
            "latex": derivation.states[-1].latex,
            "sentence": sentence(goal, last.expr, derivation.states[-1].latex),
            "substitution": substituted,
        }
    return derivation


def _solved_as_written(start: Any) -> bool:
    """The start, as written, is already a solved form (``x = 5``), not decided by SymPy."""
    from veristep.grounding.conclusion import solved_unknowns

    return start.expr not in (sp.true, sp.false) and solved_unknowns(start.expr) is not None


def prove_answer(derivation: Derivation, settings: Settings) -> Derivation:
    """*prove A = B*: the identity is stated as holding only when the chain reached B verified
    or better; otherwise the claim A = B is judged on its own (a refuting point when false)."""
    derivation.goal = "prove"
    tier = derivation.confidence.tier
    if derivation.endpoint.reached and tier >= Tier.VERIFIED and derivation.steps:
        letters = sorted(_letters(derivation, settings))
        every = f"for every real value of {', '.join(letters)}" if letters else ""
        said = (
            f"the identity holds {every}".strip()
            if tier is Tier.GROUNDED
            else "the identity holds wherever both sides are defined"
        )
        derivation.answer = {"goal": "prove", "stated": True, "latex": derivation.target,
                             "sentence": said, "substitution": None}  # fmt: skip
    else:
        derivation.answer = _no_answer("prove", "the identity was not proved")
    return derivation


def _letters(derivation: Derivation, settings: Settings) -> set[str]:
    from veristep.grounding.states import parse_state

    found: set[str] = set()
    for text in (derivation.start, derivation.target or ""):
        state = parse_state(text, settings)
        if state.expr is not None:
            found |= {s.name for s in state.expr.free_symbols}
    return found


def _recompute(derivation: Derivation) -> Derivation:
    convertible = derivation.confidence.convertible
    derivation.confidence = chain_confidence(derivation.steps, derivation.endpoint, convertible)
    if not derivation.steps and derivation.endpoint.reached:
        derivation.confidence.summary += " · the start already is in its finished form"
    return derivation


def _no_answer(goal: str, why: str) -> dict[str, Any]:
    return {"goal": goal, "stated": False, "latex": None, "sentence": f"no answer: {why}"}


def sentence(goal: str, expr: Any, latex: str) -> str:
    """What a teacher would say: "$x = 11$", "the solutions are $x = 2$ and $x = 3$"."""
    if goal == "solve":
        return _solutions(expr, latex)
    return f"{_SAY.get(goal, 'the result is')} ${latex}$"


def _solutions(expr: Any, latex: str) -> str:
    from veristep.propose.symbolic.printer import to_latex

    if expr is sp.false:
        return "there is no real solution"
    if expr.has(sp.Contains):  # an integer-indexed family: x = π/6 + 2kπ ∧ k ∈ ℤ
        return f"the solutions are ${latex}$"
    cases = sp.Or.make_args(expr)
    if all(isinstance(c, sp.Eq) and isinstance(c.lhs, sp.Symbol) for c in cases):
        shown = [f"${to_latex(c)}$" for c in sorted(cases, key=sp.default_sort_key)]
        if len(shown) == 1:
            return shown[0]
        return "the solutions are " + ", ".join(shown[:-1]) + " and " + shown[-1]
    if isinstance(expr, sp.And) and all(isinstance(c, sp.Eq) for c in expr.args):
        shown = [f"${to_latex(c)}$" for c in sorted(expr.args, key=sp.default_sort_key)]
        return ", ".join(shown[:-1]) + " and " + shown[-1]
    between = _between(expr)
    return f"the solution is ${between or latex}$"


_OPS = {sp.Lt: "<", sp.Le: "\\leq", sp.Gt: ">", sp.Ge: "\\geq"}
_FLIP = {sp.Lt: sp.Gt, sp.Le: sp.Ge, sp.Gt: sp.Lt, sp.Ge: sp.Le}


def _between(expr: Any) -> str | None:
    """Two bounds on one unknown as a teacher writes them: ``-2 \\leq x \\leq 4``."""
    from veristep.propose.symbolic.printer import to_latex

    if not isinstance(expr, sp.And) or len(expr.args) != 2:
        return None
    lower = upper = None
    var = None
    for atom in expr.args:
        kind = type(atom)
        if kind not in _OPS:
            return None
        if isinstance(atom.lhs, sp.Symbol) and not atom.rhs.free_symbols:
            v, bound = atom.lhs, atom.rhs
        elif isinstance(atom.rhs, sp.Symbol) and not atom.lhs.free_symbols:
            v, bound, kind = atom.rhs, atom.lhs, _FLIP[kind]
        else:
            return None
        if var not in (None, v):
            return None
        var = v
        if kind in (sp.Lt, sp.Le):  # x < bound
            upper = (bound, _OPS[kind])
        else:  # x > bound: bound < x
            lower = (bound, _OPS[_FLIP[kind]])
    if lower is None or upper is None:
        return None
    return f"{to_latex(lower[0])} {lower[1]} {to_latex(var)} {upper[1]} {to_latex(upper[0])}"


@dataclass(frozen=True)
class Correction:
    sentence: str  # "$x = 12$ does not solve it: the left side is $32$, the right side $30$"
    goal: str  # the goal whose derivation supplies the right answer


def wrong_target(
    start: str, target: str, settings: Settings, prove: bool = False
) -> Correction | None:
    """A sentence when the given target is wrong, or None when it is right or undecided.

    An equation's solved-form target is substituted into the start; an expression's target is
    compared with the start by the grounding cascade (a refuting point is required)."""
    from veristep.grounding import cas
    from veristep.grounding.conclusion import solved_unknowns
    from veristep.grounding.decision import Context
    from veristep.grounding.statements import is_statement
    from veristep.grounding.states import parse_state

    ctx = Context(settings=settings)
    a, b = parse_state(start, settings), parse_state(target, settings)
    if a.error is not None or b.error is not None:
        return None
    if is_statement(a.expr):
        if solved_unknowns(b.expr) is None:
            return None
        out = cas.run(_substitution_words, a.expr, b.expr, target, ctx=ctx.for_step(None))
        if not out.ok or out.value is None:
            return None
        return Correction(out.value, "solve")
    if isinstance(a.expr, sp.Expr) and isinstance(b.expr, sp.Expr):
        return _expression_correction(a, b, target, ctx, prove)
    return None


def _expression_correction(
    a: Any, b: Any, target: str, ctx: Any, prove: bool = False
) -> Correction | None:
    from veristep.core.tiers import Relation
    from veristep.grounding.chain import judge_transition
    from veristep.propose.symbolic.finished import default_goal

    verdict = judge_transition(a, b, None, ctx.for_step(None))
    if verdict.relation is not Relation.REFUTED or not isinstance(verdict.witness, dict):
        return None
    w = verdict.witness
    names = {s.name for s in a.expr.free_symbols | b.expr.free_symbols}
    at = ", ".join(f"{k} = {v}" for k, v in w.items() if k in names)
    where = f"at {at} " if at else ""
    said = (
        f"${target}$ is not equal to the start: {where}the start is {w.get('previous')} "
        f"and ${target}$ is {w.get('next')}"
    )
    if prove:
        said = (
            f"the identity does not hold: {where}the left side is {w.get('previous')} "
            f"and the right side is {w.get('next')}"
        )
    return Correction(said, default_goal(a.expr))


def _substitution_words(start: Any, target: Any, target_latex: str) -> str | None:
    """CAS task: why a solved-form target is wrong, by substitution; None when it is right."""
    from veristep.grounding.finished import _substitute
    from veristep.grounding.solving import holds
    from veristep.grounding.statements import symbols_of

    found = _substitute(start, target)
    if found is None:
        return None
    if found["holds"] and found["complete"] is not False:
        return None
    syms = symbols_of(start, target)
    if not found["holds"] and len(syms) == 1 and isinstance(start, sp.Eq):
        var = syms[0]
        for case in sp.Or.make_args(target):
            value = case.rhs if isinstance(case, sp.Eq) and case.lhs == var else None
            if value is None or holds(start, var, value) is not False:
                continue
            return _sides_differ(start, var, value)
    if not found["holds"]:
        return f"${target_latex}$ does not solve it"
    return f"${target_latex}$ solves it, but it is not every solution"


def _sides_differ(start: sp.Eq, var: Any, value: Any) -> str:
    from veristep.propose.symbolic.printer import to_latex

    claim = f"${to_latex(sp.Eq(var, value))}$ does not solve it"
    left, right = start.lhs.subs(var, value), start.rhs.subs(var, value)
    if left.has(sp.zoo, sp.nan) or right.has(sp.zoo, sp.nan):
        return f"{claim}: it is outside the domain (a side is undefined there)"
    if left.is_real is False or right.is_real is False:
        return f"{claim}: a side is not a real number there"
    left, right = sp.simplify(left), sp.simplify(right)
    return f"{claim}: the left side is ${to_latex(left)}$, the right side ${to_latex(right)}$"
