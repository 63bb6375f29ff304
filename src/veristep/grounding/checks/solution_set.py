"""Exact real solution sets of one-variable statements (∨ of equations, |·| and rational equations
with their domain, inequalities): equal → equivalent; subset → narrows (roots kept and lost);
superset → widens (extra roots); empty next from a non-empty previous → refuted; values that solve
the next but not the previous → refuted, with those values as the witness.

Every witness is substituted back into the previous state before it is reported, so a solver slip
can only cost a decision, never produce a false refutation.

>>> from sympy import Eq, symbols
>>> x = symbols("x", real=True)
>>> d = _decide(relate_solution_sets(Eq(x**2, 4), Eq(x, 7), x), x)
>>> d.reason, d.witness
('introduces value(s) that do not solve the previous step: 7', [7])
>>> _decide(relate_solution_sets(Eq((x**2 - 1)/(x - 1), 3), Eq(x + 1, 3), x), x).reason
'the same real solution set'
>>> _decide(relate_solution_sets(Eq(x**2 - x, 0), Eq(x - 1, 0) | Eq(x, 0) | Eq(x, 5), x), x).reason
'widens: adds 5, which does not solve the previous step'
>>> _decide(relate_solution_sets(Eq(x**2, 4), Eq(x, 2), x), x).reason
'narrows: keeps 2, loses -2'
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sympy import Basic, FiniteSet, S, Symbol

from veristep.core.tiers import Relation, Tier
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.solving import SetChange, compare_sets, holds, real_solution_set
from veristep.grounding.statements import is_statement, symbols_of
from veristep.grounding.witness import show, sides_at


def solution_set(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    if not (is_statement(prev) and is_statement(nxt)):
        return None
    syms = symbols_of(prev, nxt)
    if len(syms) > 1:
        return None
    var = syms[0] if syms else Symbol("x", real=True)
    out = cas.run(relate_solution_sets, prev, nxt, var, ctx=ctx)
    if not out.ok:
        return None
    decision = _decide(out.value, var)
    if decision is None:
        return None
    return replace(decision, facts=_facts(out.value, var))


def _facts(result: tuple[SetChange, Any, Any], var: Symbol) -> dict[str, Any] | None:
    """The values behind the decision as data (the learner view words them)."""
    tag, first, second = result
    if tag in (SetChange.NARROWS, SetChange.NARROWS_ALL):
        facts = {"var": var.name, "kept": list(first), "lost": list(second)}
        return {**facts, "all": tag == SetChange.NARROWS_ALL}
    if tag in (SetChange.WIDENS, SetChange.WIDENS_FROM_NOTHING):
        return {"var": var.name, "added": list(first)}
    if tag == SetChange.EMPTY:
        return {"var": var.name, "lost": [first]}
    if tag == SetChange.NEW:
        out: dict[str, Any] = {"var": var.name, "wrong": list(first)}
        if second:
            out["sides"] = second  # the previous state's sides at the first wrong value
        return out
    return None


def _decide(result: tuple[SetChange, Any, Any], var: Symbol) -> Decision | None:
    tag, first, second = result
    if tag == SetChange.EQUAL:
        return Decision.grounded(Relation.EQUIVALENT, "the same real solution set")
    if tag in (SetChange.NARROWS, SetChange.NARROWS_ALL):
        return Decision.grounded(
            Relation.NARROWS, f"narrows: keeps {_vals(first)}, loses {show(second)}"
        )
    if tag == SetChange.WIDENS:
        verb = "does" if len(first) == 1 else "do"
        reason = f"widens: adds {show(first)}, which {verb} not solve the previous step"
        return Decision(Relation.WIDENS, Tier.GROUNDED, reason, list(first))
    if tag == SetChange.WIDENS_FROM_NOTHING:
        # Every value this step admits is extraneous: no answer can come out of it. Honest as a
        # widening, but nothing a reader should build on.
        reason = (
            f"the previous step has no real solution; this one admits {show(first)}, "
            "which cannot solve it"
        )
        return Decision(Relation.WIDENS, Tier.PLAUSIBLE, reason, list(first))
    if tag == SetChange.EMPTY:
        reason = f"the next step has no real solution, but {var.name} = {first} solves the previous"
        return Decision.refuted(reason, [first])
    if tag == SetChange.NEW:
        reason = f"introduces value(s) that do not solve the previous step: {show(first)}"
        return Decision.refuted(reason, list(first))
    return None


def _vals(values: list[Any]) -> str:
    return show(values) if values else "nothing"


_SMALL_VALUES = tuple(S(v) for v in (0, 1, -1, 2, -2))


def relate_solution_sets(prev: Basic, nxt: Basic, var: Symbol) -> tuple[SetChange, Any, Any]:
    """CAS task: solve both, compare, and confirm any refuting witness by substitution."""
    b = real_solution_set(nxt, var)
    if b == S.EmptySet:
        # Nothing solves the next: one value that solves the previous settles it, and a small
        # integer often does (1 − x = ⁵√(x + 1) at x = 0), where solving the previous may not end.
        allowed = [v for v in _SMALL_VALUES if _allowed(var, v)]  # x > 0 under assumepos
        found = next((v for v in allowed if holds(prev, var, v) is True), None)
        if found is not None:
            return (SetChange.EMPTY, found, None)
    a = real_solution_set(prev, var)
    tag, first, second = compare_sets(a, b)
    if tag == SetChange.UNDECIDED:
        return periodic(a, b, prev, nxt, var)
    if tag == SetChange.WIDENS and a == S.EmptySet:
        tag = SetChange.WIDENS_FROM_NOTHING
    if tag == SetChange.NARROWS and isinstance(a, FiniteSet):
        # Finitely many solutions, so the kept and the lost values are all of them: a reader
        # may be told to keep every case (never said of an interval or a periodic family).
        tag = SetChange.NARROWS_ALL
    if tag == SetChange.NEW and not all(holds(prev, var, v) is False for v in first):
        return (SetChange.UNDECIDED, None, None)
    if tag == SetChange.NEW:
        return (tag, first, sides_at(prev, var, next(iter(first))))
    if tag == SetChange.EMPTY and (first is None or holds(prev, var, first) is not True):
        return (SetChange.UNDECIDED, None, None)
    return (tag, first, second)


def _allowed(var: Symbol, value: Any) -> bool:
    if var.is_positive and not value.is_positive:
        return False
    return not (var.is_nonnegative and value.is_negative)


def periodic(a: Any, b: Any, prev: Basic, nxt: Basic, var: Symbol) -> tuple[SetChange, Any, Any]:
    """A periodic family on one side and finitely many values on the other (``sin x = 0`` and
    ``x = 0``): decided by substituting the finite values and members of the family — each
    reported value re-checked in both states as written.
    """
    from sympy import FiniteSet

    from veristep.grounding.solving import comparable, members

    if isinstance(b, FiniteSet) and comparable(b) and members(a):
        outside = [v for v in b if holds(prev, var, v) is False]
        lost = [
            m for m in members(a) if holds(prev, var, m) is True and holds(nxt, var, m) is False
        ]
        if outside and lost:
            return (SetChange.NEW, outside[:5], None)
        if lost and all(holds(prev, var, v) is True for v in b):
            return (SetChange.NARROWS, sorted(b, key=float), lost[:1])
    if isinstance(a, FiniteSet) and comparable(a) and members(b):
        added = [
            m for m in members(b) if holds(nxt, var, m) is True and holds(prev, var, m) is False
        ]
        if added and all(holds(nxt, var, v) is True for v in a):
            return (SetChange.WIDENS, added[:1], None)
    if members(a) and members(b) and not (isinstance(a, FiniteSet) or isinstance(b, FiniteSet)):
        # Two infinite families (sin x = 1/2 against sin x = −1/2): the sets are not compared,
        # but a member of each side that fails the other refutes the step in both directions.
        added = [
            m for m in members(b) if holds(nxt, var, m) is True and holds(prev, var, m) is False
        ]
        lost = [
            m for m in members(a) if holds(prev, var, m) is True and holds(nxt, var, m) is False
        ]
        if added and lost:
            return (SetChange.NEW, added[:1], None)
    return (SetChange.UNDECIDED, None, None)
