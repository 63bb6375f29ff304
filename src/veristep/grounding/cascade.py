"""The ordered cascade: every check, cheapest first, in ONE tuple; the first decision wins.

The order is the design's cost order (cheapest first) with one deliberate exception: ``approximate``
acts only on steps declared ``approximate`` (or written with ≈) and runs right after the structural
check, because every exact check would refute a rounded value ("differs by a constant", "introduces
a value that does not solve the previous step").

:func:`judge_transition` then applies the policy: no decision means ``unknown`` → plausible (a
timeout is never evidence), and a relation that contradicts the declared change_type costs one
tier, with the reason saying so.

>>> [check.__name__ for check in CHECKS][:3]
['structural', 'approximate', 'symbolic_equivalence']
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sympy import Basic

from veristep.core.pool import WorkerStartError
from veristep.core.tiers import ChangeType, Relation, Tier
from veristep.core.verdicts import StepVerdict
from veristep.grounding.checks.approximate import approximate
from veristep.grounding.checks.branch_pair import branch_pair
from veristep.grounding.checks.calculus import calculus
from veristep.grounding.checks.cleared_denominator import cleared_denominator
from veristep.grounding.checks.fingerprint import fingerprint
from veristep.grounding.checks.implicit_differentiation import (
    differentiation_pair,
    implicit_differentiation,
)
from veristep.grounding.checks.parametric import parametric
from veristep.grounding.checks.periodic_family import periodic_family
from veristep.grounding.checks.propositional import propositional
from veristep.grounding.checks.region import region
from veristep.grounding.checks.scaled_residual import scaled_residual
from veristep.grounding.checks.signed_root import signed_root
from veristep.grounding.checks.solution_set import solution_set
from veristep.grounding.checks.squared_widening import squared_widening
from veristep.grounding.checks.structural import structural
from veristep.grounding.checks.symbolic_equivalence import symbolic_equivalence
from veristep.grounding.checks.system import system
from veristep.grounding.decision import Context, Decision
from veristep.grounding.dependents import read_dependents
from veristep.grounding.membership import as_relations

Check = Callable[[Basic, Basic, Context], "Decision | None"]

CHECKS: tuple[Check, ...] = (
    structural,
    approximate,
    symbolic_equivalence,
    propositional,
    implicit_differentiation,
    calculus,
    periodic_family,
    solution_set,
    branch_pair,
    squared_widening,
    scaled_residual,
    cleared_denominator,
    signed_root,
    system,
    region,
    parametric,
    fingerprint,
)

# Which relations each declared change_type claims. ``given`` introduces a fact, so any relation
# is consistent with it; a refutation is reported whatever was declared.
EXPECTED: dict[ChangeType, frozenset[Relation]] = {
    ChangeType.REWRITE: frozenset({Relation.EQUIVALENT}),
    ChangeType.SOLVE: frozenset({Relation.EQUIVALENT, Relation.NARROWS, Relation.WIDENS}),
    ChangeType.SUBSTITUTE: frozenset({Relation.EQUIVALENT, Relation.NARROWS}),
    ChangeType.APPROXIMATE: frozenset({Relation.EQUIVALENT, Relation.NARROWS}),
    ChangeType.GIVEN: frozenset(Relation),
}


# Checks that compare statements through their residuals (lhs − rhs). SymPy cancels while it
# builds a residual (log₂x + x² − (log₂x + 4) is x² − 4), so their verdict says nothing about the
# natural domains; where the two states' domains differ, only checks that substitute values back
# into the states as written (solution_set, system) may decide.
RESIDUAL_CHECKS = frozenset(
    {"symbolic_equivalence", "scaled_residual", "branch_pair", "parametric", "fingerprint"}
)


def run_checks(prev: Basic, nxt: Basic, ctx: Context) -> tuple[str | None, Decision | None]:
    """(name of the deciding check, its decision), or (None, None) when every check is undecided."""
    failures: list[str] = []
    prev, nxt = as_relations(prev), as_relations(nxt)  # x ∈ [2, ∞) is read as x ≥ 2
    # y(x) and dy/dx as unknowns where a step is algebra at each x (solving for dy/dx).
    prev, nxt = read_dependents(prev, nxt) or (prev, nxt)
    domains_differ = _statement_domains_differ(prev, nxt)
    checks = CHECKS
    if differentiation_pair(prev, nxt) is not None:
        # Differentiating both sides is no algebra between the two lines: only its own check
        # may decide (an algebraic witness would not lie on a curve of the previous line).
        checks = (implicit_differentiation,)
    for check in checks:
        if ctx.remaining() <= 0:
            ctx.timeouts.append("step budget exhausted")
            break
        if domains_differ and check.__name__ in RESIDUAL_CHECKS:
            continue
        try:
            decision = check(prev, nxt, ctx)
        except WorkerStartError:
            raise  # the CAS workers cannot start: an environment failure, not an undecided step
        except Exception as exc:  # a check that breaks decides nothing; the reason says so
            failures.append(f"{check.__name__} failed: {type(exc).__name__}")
            continue
        if decision is not None:
            return check.__name__, decision
    ctx.timeouts.extend(failures)
    return None, None


def _statement_domains_differ(prev: Basic, nxt: Basic) -> bool:
    """Two statements whose natural real domains in the unknown are not the same.

    A change that involves parameters only (dividing by ``a`` adds ``a ≠ 0``) is the residual
    checks' business: they name it as an assumption. With no single unknown, every symbol counts.
    """
    from veristep.grounding.domain import conditions, implied_by_kept
    from veristep.grounding.statements import is_statement, symbols_of, unknown

    if not (is_statement(prev) and is_statement(nxt)):
        return False
    try:
        var = unknown(prev, nxt)
        watched = {var} if var is not None else set(symbols_of(prev, nxt))
        implied = implied_by_kept(prev, nxt)  # r ≠ 0 beside r > 0 written on both sides

        def about_unknowns(s: Basic) -> frozenset[Basic]:
            return frozenset(c for c in conditions(s) if c.free_symbols & watched) - implied

        return about_unknowns(prev) != about_unknowns(nxt)
    except Exception:  # an unreadable domain is a differing one: trust only substitution
        return True


def judge(prev: Basic, nxt: Basic, change_type: ChangeType | None, ctx: Context) -> StepVerdict:
    """Judge one transition between two SymPy states (the index is filled in by the caller)."""
    step_ctx = ctx.for_step(change_type)
    start = time.perf_counter()
    name, decision = run_checks(prev, nxt, step_ctx)
    ms = (time.perf_counter() - start) * 1000
    if decision is None:
        reason = "no check could decide"
        if step_ctx.timeouts:
            reason += " (" + "; ".join(dict.fromkeys(step_ctx.timeouts)) + ")"
        return StepVerdict(0, Tier.PLAUSIBLE, Relation.UNKNOWN, None, reason, None, ms)
    tier, reason = apply_declared(decision, change_type)
    verdict = StepVerdict(0, tier, decision.relation, name, reason, _jsonable(decision.witness), ms)
    facts = dict(decision.facts or {})
    if decision.assumption is not None:
        facts["assumes"] = decision.assumption.removeprefix("assumes ")
    verdict.facts = _jsonable(facts) or None
    return verdict


def apply_declared(decision: Decision, change_type: ChangeType | None) -> tuple[Tier, str]:
    """The tier of a decided step: the relation's ceiling (docs/design.md, "Lossy steps"), then one
    tier less when the relation contradicts the advisory change_type.

    A step that loses a value of the unknown is at most plausible, one that adds values at most
    verified, one that loses only a degenerate parameter case at most verified:

    >>> d = Decision.grounded(Relation.NARROWS, "narrows: keeps 2, loses -2")
    >>> apply_declared(d, ChangeType.SOLVE)
    (<Tier.PLAUSIBLE: 2>, 'narrows: keeps 2, loses -2 — a lost solution: ...')
    >>> w = Decision.grounded(Relation.WIDENS, "widens: adds 1, which does not solve it")
    >>> apply_declared(w, ChangeType.SOLVE)[0].name_lower, apply_declared(w, ChangeType.REWRITE)[0]
    ('verified', <Tier.PLAUSIBLE: 2>)
    """
    tier, reason = relation_ceiling(decision)
    if change_type is None:
        return tier, reason
    suffix = f" — but the step was declared '{change_type.value}'"
    if decision.relation is Relation.REFUTED:
        if change_type is ChangeType.GIVEN:
            # A given step introduces a fact: it is not refuted for not following, but nothing
            # machine-checked supports it either.
            return (
                Tier.PLAUSIBLE,
                f"a given fact that does not follow from the previous step: {reason}",
            )
        return Tier.REFUTED, reason + suffix
    if decision.relation not in EXPECTED[change_type] and decision.relation is not Relation.UNKNOWN:
        return tier.downgraded(), reason + suffix
    return tier, reason


_LOST_HINT = (
    " — a lost solution: valid only under an assumption that excludes it (or keep every case)"
)


def relation_ceiling(decision: Decision) -> tuple[Tier, str]:
    """The best tier a decided relation allows, and the reason that says why."""
    if decision.relation is Relation.WIDENS:
        return min(decision.tier, Tier.VERIFIED), decision.reason
    if decision.relation is Relation.NARROWS:
        if decision.assumption is not None:
            return min(decision.tier, Tier.VERIFIED), f"{decision.reason} ({decision.assumption})"
        return Tier.PLAUSIBLE, decision.reason + _LOST_HINT
    return decision.tier, decision.reason


def _jsonable(witness: Any) -> Any:
    """Witnesses travel in JSON: SymPy numbers become strings a person can read."""
    if witness is None or isinstance(witness, (bool, int, float, str)):
        return witness
    if isinstance(witness, dict):
        return {str(k): _jsonable(v) for k, v in witness.items()}
    if isinstance(witness, (list, tuple)):
        return [_jsonable(v) for v in witness]
    if getattr(witness, "is_Integer", False):
        return int(witness)
    return str(witness)
