"""Name the slip: which mistake most likely turned a line into the wrong next line.

The mistake families of ``workspace.mistakes`` make wrong next lines *forward* from a correct
step. Here they run backwards: the correct next lines from the previous one (given, or the offline
planner's candidate moves) are fed to every family, and the family whose wrong line is the
learner's line — the same SymPy object, else equivalent by the grounding cascade — is named. Two
backward-only families complete the catalogue: dividing by a factor that can be 0 (a factor of
the previous line's ``left − right`` cancelled), and a lost root (a step that loses a solution
with no other family to blame).

A line is blamed only when the cascade itself judges the step wrong (✗) or losing a solution:
a correct line, however unusual, is never named a slip. All SymPy work runs in the killable
worker pool under the step budget; a timeout names nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sympy as sp

from veristep.core.learner import plain_value
from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier

# How many step budgets all the equivalence comparisons of one slip may take together.
COMPARE_BUDGET_STEPS = 3

# The families in the order ties are broken: the forward generators' own order, then the two
# that are only recognised backwards.
ORDER = (
    "sign_error", "lost_root", "wrong_identity", "dropped_term", "arithmetic_slip",
    "divided_by_zero",
)  # fmt: skip

_SAID = {
    "sign_error": "a sign slipped: a term or a number changed sign (moving a term to the other "
    "side changes its sign, and nothing else does)",
    "lost_root": "a solution was lost: a square has two roots, and a product is 0 when any "
    "factor is 0; keep every case",
    "dropped_term": "a term went missing: every term of the line must reach the next one",
    "arithmetic_slip": "an arithmetic slip: a number is off; redo that calculation",
    "divided_by_zero": "you divided by something that can be 0, which loses the solution that "
    "makes it 0; move everything to one side and factor instead",
}
_IDENTITY = {
    "square": "(a + b)² is not a² + b²: it is a² + 2ab + b²",
    "root": "√(a + b) is not √a + √b",
    "log": "ln(a + b) is not ln a + ln b (ln(ab) is)",
    "reciprocal": "1/(a + b) is not 1/a + 1/b",
}


@dataclass(frozen=True)
class Slip:
    family: str  # one of ORDER
    sentence: str  # what a learner reads
    how: str  # "same" (the family's line as written) or "equivalent" (judged by the cascade)
    expected: str | None = None  # the correct next line the slip was measured from (LaTeX)

    def to_json(self) -> dict[str, Any]:
        return {"family": self.family, "sentence": self.sentence, "how": self.how,
                "expected": self.expected}  # fmt: skip


def name_slip(
    prev: str, wrong: str, settings: Settings | None = None, correct: list[str] | None = None
) -> Slip | None:
    """The most likely slip from ``prev`` to ``wrong`` (LaTeX or plain maths), or None when the
    step is not wrong, or no family explains it. ``correct``: the right next lines when known
    (an exercise knows its expected line); the planner's candidate moves from ``prev`` follow."""
    from veristep.core.pool import run_cas
    from veristep.grounding.chain import judge_transition
    from veristep.grounding.decision import Context
    from veristep.grounding.states import parse_state

    settings = settings or Settings()
    ctx = Context(settings=settings)
    a, b = parse_state(prev, settings), parse_state(wrong, settings)
    if a.error is not None or b.error is not None:
        return None
    verdict = judge_transition(a, b, None, ctx)
    lossy = verdict.relation is Relation.NARROWS and verdict.tier is Tier.PLAUSIBLE
    if verdict.tier is not Tier.REFUTED and not lossy:
        return None  # never blame a line the verifier does not judge wrong
    rights = [parse_state(c, settings) for c in correct or []]
    right_exprs = [r.expr for r in rights if r.error is None]
    out = run_cas(slip_candidates, a.expr, b.expr, right_exprs or None, settings=settings,
                  timeout_s=settings.step_timeout_s)  # fmt: skip
    if not out.ok:
        return None
    exact, made = out.value
    if exact is not None:
        family, detail, expected = exact
        return Slip(family, _sentence(family, detail), "same", expected)
    # Each comparison has the step budget; all of them together get a few (a learner waits).
    stop = time.monotonic() + COMPARE_BUDGET_STEPS * settings.step_timeout_s
    for family, detail, latex, expected in made:
        if time.monotonic() > stop:
            return None  # out of time: nothing is named, never a guess
        again = judge_transition(latex, b, None, ctx)
        if again.relation is Relation.EQUIVALENT and again.tier >= Tier.VERIFIED:
            return Slip(family, _sentence(family, detail), "equivalent", expected)
    if lossy:
        return Slip("lost_root", _sentence("lost_root", None), "relation", None)
    return None


def _sentence(family: str, detail: str | None) -> str:
    if family == "wrong_identity":
        return "a rule that is not true was used: " + _IDENTITY.get(detail or "", "check it")
    if family == "divided_by_zero" and detail:
        f = plain_value(detail)
        return (
            f"you divided by {f}, which can be 0: that loses the solution where {f} = 0; "
            "move everything to one side and factor instead"
        )
    return _SAID[family]


def slip_candidates(
    prev: sp.Basic, wrong: sp.Basic, rights: list[sp.Basic] | None, limit: int = 6
) -> tuple[tuple[str, str | None, str] | None, list[tuple[str, str | None, str, str]]]:
    """CAS task: (the family whose line *is* ``wrong``, or None; every other family's line as
    (family, detail, LaTeX, the correct line it came from) for the parent to compare)."""
    from veristep.propose.symbolic.printer import to_latex
    from veristep.workspace.mistakes import FAMILIES
    from veristep.workspace.worker import state_latex

    # The right next lines a slip could come from: those given first, then the planner's moves.
    # The previous line itself last: a slip made while copying it (x² − 49 → x² − 48).
    rights = list(dict.fromkeys([*(rights or []), *_planner_next(prev, limit), prev]))
    made: list[tuple[str, str | None, str, str]] = []
    seen: set[str] = set()
    for right in rights:
        expected = state_latex(right, to_latex)
        for name in ORDER:
            for state in _family_lines(name, FAMILIES, prev, right):
                detail = _identity_kind(prev, right) if name == "wrong_identity" else None
                if name == "divided_by_zero":
                    state, detail = state
                if state == wrong or sp.srepr(state) == sp.srepr(wrong):
                    return (name, detail, expected), []
                key = name + sp.srepr(state)
                if key not in seen and state not in (sp.true, sp.false):
                    seen.add(key)
                    made.append((name, detail, state_latex(state, to_latex), expected))
    return None, made[:24]


def _family_lines(name: str, families: dict[str, Any], prev: sp.Basic, right: sp.Basic) -> list:
    """The family's forward lines, then the backward-only variants of the same mistake."""
    try:
        if name == "divided_by_zero":
            return _divided(prev)
        lines = list(families[name](prev, right))
        if name == "sign_error":
            lines += _moved_with_its_sign(prev)
        if name == "dropped_term":
            lines += _each_term_dropped(right)
        if name == "lost_root" and isinstance(right, sp.Or):
            # Any one case dropped, not only the first the forward family drops.
            lines += [sp.Or(*(c for c in right.args if c != case)) for case in right.args]
        return lines
    except (ArithmeticError, TypeError, ValueError, AttributeError, IndexError):
        return []  # a family that does not fit this step offers nothing


def _each_term_dropped(state: sp.Basic) -> list[sp.Basic]:
    """Any one additive term left out (the forward family leaves out only the last)."""
    from sympy.core.relational import Relational

    sides = [("lhs", state.lhs), ("rhs", state.rhs)] if isinstance(state, Relational) else []
    if isinstance(state, sp.Expr):
        sides = [("expr", state)]
    out = []
    for which, side in sides:
        terms = sp.Add.make_args(side) if isinstance(side, sp.Add) else ()
        for t in terms:
            kept = side - t
            if which == "expr":
                out.append(kept)
            else:
                lhs, rhs = (kept, state.rhs) if which == "lhs" else (state.lhs, kept)
                out.append(state.func(lhs, rhs))
    return out


def _moved_with_its_sign(prev: sp.Basic) -> list[sp.Basic]:
    """A term carried to the other side without changing its sign (2x + 8 = 30 → 2x = 30 + 8)."""
    if not isinstance(prev, sp.Eq):
        return []
    out = []
    for t in sp.Add.make_args(prev.lhs) if isinstance(prev.lhs, sp.Add) else ():
        out.append(sp.Eq(prev.lhs - t, prev.rhs + t))
    for t in sp.Add.make_args(prev.rhs) if isinstance(prev.rhs, sp.Add) else ():
        out.append(sp.Eq(prev.lhs + t, prev.rhs - t))
    return out


def _divided(prev: sp.Basic) -> list[tuple[sp.Basic, str]]:
    """Each factor (with an unknown) of ``left − right`` cancelled: (the line, the factor)."""
    if not isinstance(prev, sp.Eq):
        return []
    residual = sp.factor(prev.lhs - prev.rhs)
    factors = [f.base if f.is_Pow else f for f in sp.Mul.make_args(residual)]
    factors = [f for f in factors if f.free_symbols and not f.is_number]
    if len(factors) < 2 and not any(f.is_Pow for f in sp.Mul.make_args(residual)):
        return []
    out = []
    for f in dict.fromkeys(factors):
        out.append((sp.Eq(sp.cancel(residual / f), 0), sp.sstr(f)))
        lhs, rhs = sp.cancel(prev.lhs / f), sp.cancel(prev.rhs / f)
        if not (sp.denom(lhs).has(f) or sp.denom(rhs).has(f)):
            out.append((sp.Eq(lhs, rhs), sp.sstr(f)))
    return out


def _identity_kind(prev: sp.Basic, right: sp.Basic) -> str | None:
    for tree in (prev, right):
        for n in sp.preorder_traversal(tree):
            if isinstance(n, sp.Pow) and isinstance(n.base, sp.Add):
                kind = {2: "square", sp.S.Half: "root", -1: "reciprocal"}.get(n.exp)
                if kind:
                    return kind
            if isinstance(n, sp.log) and isinstance(n.args[0], sp.Add):
                return "log"
    return None


def _planner_next(prev: sp.Basic, limit: int) -> list[sp.Basic]:
    """The planner's candidate next lines from ``prev`` (the right moves a slip came from)."""
    from veristep.propose.symbolic.moves import Problem, pick_var
    from veristep.propose.symbolic.planner import candidates

    problem = Problem(start=prev, target=None, var=pick_var(prev))
    return [m.state for m in candidates(prev, problem)[:limit]]
