"""The ordered cascade: every check, cheapest first, in ONE tuple; the first decision wins.

The order is the cost order of the issue with one deliberate exception: ``approximate`` acts only
on steps declared ``approximate`` (or written with ≈) and runs right after the structural check,
because every exact check would refute a rounded value ("differs by a constant", "introduces a
value that does not solve the previous step").

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

from veristep.core.errors import VeristepError
from veristep.core.tiers import ChangeType, Relation, Tier
from veristep.core.verdicts import StepVerdict
from veristep.grounding.checks.approximate import approximate
from veristep.grounding.checks.branch_pair import branch_pair
from veristep.grounding.checks.calculus import calculus
from veristep.grounding.checks.fingerprint import fingerprint
from veristep.grounding.checks.parametric import parametric
from veristep.grounding.checks.propositional import propositional
from veristep.grounding.checks.scaled_residual import scaled_residual
from veristep.grounding.checks.solution_set import solution_set
from veristep.grounding.checks.structural import structural
from veristep.grounding.checks.symbolic_equivalence import symbolic_equivalence
from veristep.grounding.checks.system import system
from veristep.grounding.decision import Context, Decision

Check = Callable[[Basic, Basic, Context], "Decision | None"]

CHECKS: tuple[Check, ...] = (
    structural,
    approximate,
    symbolic_equivalence,
    propositional,
    calculus,
    solution_set,
    branch_pair,
    scaled_residual,
    system,
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


def run_checks(prev: Basic, nxt: Basic, ctx: Context) -> tuple[str | None, Decision | None]:
    """(name of the deciding check, its decision), or (None, None) when every check is undecided."""
    failures: list[str] = []
    for check in CHECKS:
        if ctx.remaining() <= 0:
            ctx.timeouts.append("step budget exhausted")
            break
        try:
            decision = check(prev, nxt, ctx)
        except VeristepError:
            raise  # the CAS workers cannot start: an environment failure, not an undecided step
        except Exception as exc:  # a check that breaks decides nothing; the reason says so
            failures.append(f"{check.__name__} failed: {type(exc).__name__}")
            continue
        if decision is not None:
            return check.__name__, decision
    ctx.timeouts.extend(failures)
    return None, None


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
    return StepVerdict(0, tier, decision.relation, name, reason, _jsonable(decision.witness), ms)


def apply_declared(decision: Decision, change_type: ChangeType | None) -> tuple[Tier, str]:
    """The tier after comparing the decided relation with the advisory change_type.

    >>> d = Decision.grounded(Relation.NARROWS, "narrows: keeps 2, loses -2")
    >>> apply_declared(d, ChangeType.REWRITE)
    (<Tier.VERIFIED: 3>, "narrows: keeps 2, loses -2 — but the step was declared 'rewrite'")
    >>> apply_declared(d, ChangeType.SOLVE)[0].name_lower
    'grounded'
    """
    if change_type is None:
        return decision.tier, decision.reason
    suffix = f" — but the step was declared '{change_type.value}'"
    if decision.relation is Relation.REFUTED:
        return Tier.REFUTED, decision.reason + suffix
    if decision.relation not in EXPECTED[change_type]:
        return decision.tier.downgraded(), decision.reason + suffix
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
