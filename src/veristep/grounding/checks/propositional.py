"""Propositional logic: states built from propositional letters with ∧, ∨, ¬ (STACK writes such
lines). Equivalence is decided by a SAT call on ``prev ⊕ next``; a satisfying assignment is the
witness of a refutation — unless the step is a valid implication, which then widens or narrows.

>>> from sympy import And, Not, Or, symbols
>>> A, B = symbols("A B")
>>> compare_formulas(And(Or(A, B), Or(Not(A), B)), B)
('equal', None)
>>> compare_formulas(Or(A, B), And(A, B))[0]
'narrows'
"""

from __future__ import annotations

from typing import Any

from sympy import And, Basic, Not, Symbol, satisfiable
from sympy.logic.boolalg import Boolean, BooleanAtom

from veristep.core.tiers import Relation, Tier
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision


def propositional(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    if not (_formula(prev) and _formula(nxt)) or not (prev.free_symbols or nxt.free_symbols):
        return None
    out = cas.run(compare_formulas, _letters(prev), _letters(nxt), ctx=ctx)
    if not out.ok:
        return None
    tag, model = out.value
    if tag == "equal":
        return Decision.grounded(Relation.EQUIVALENT, "the same truth table")
    if tag == "narrows":
        reason = f"the next implies the previous but not conversely: {model}"
        return Decision(Relation.NARROWS, Tier.GROUNDED, reason, model)
    if tag == "widens":
        reason = f"the previous implies the next but not conversely: {model}"
        return Decision(Relation.WIDENS, Tier.GROUNDED, reason, model)
    return Decision.refuted(f"true before and false after at {model}", model)


def _formula(s: Basic) -> bool:
    """Only propositional letters and connectives: no relation, no number."""
    if isinstance(s, Symbol | BooleanAtom):
        return True
    return (
        isinstance(s, Boolean)
        and bool(s.args)
        and all(_formula(a) for a in s.args)
        and (type(s).__name__ in ("And", "Or", "Not", "Implies", "Equivalent", "Xor"))
    )


def _letters(s: Basic) -> Basic:
    # A letter standing alone is parsed as a real symbol, inside a connective as a plain one:
    # the same name must be the same proposition.
    return s.xreplace({v: Symbol(v.name) for v in s.free_symbols if isinstance(v, Symbol)})


def compare_formulas(prev: Basic, nxt: Basic) -> tuple[str, Any]:
    """CAS task: ('equal'|'narrows'|'widens'|'refuted', a distinguishing assignment)."""
    gained = satisfiable(And(nxt, Not(prev)))  # true after, false before
    lost = satisfiable(And(prev, Not(nxt)))  # true before, false after
    if not gained and not lost:
        return ("equal", None)
    if not gained:
        return ("narrows", _named(lost))
    if not lost:
        return ("widens", _named(gained))
    return ("refuted", _named(lost))


def _named(model: Any) -> dict[str, bool]:
    return {str(k): bool(v) for k, v in sorted(model.items(), key=lambda kv: str(kv[0]))}
