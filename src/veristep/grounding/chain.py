"""Judge a whole derivation: every transition, the endpoint gate, the chain verdict.

``check`` is the public entry point (docs/design.md); ``endpoint`` and (from ``transition``)
``judge_transition`` are the pieces the planner and the review agent call directly.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Callable
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier
from veristep.core.verdicts import Derivation, Endpoint, StepVerdict, chain_confidence
from veristep.grounding.cascade import judge
from veristep.grounding.decision import Context
from veristep.grounding.extraneous import against_start
from veristep.grounding.states import State, parse_state
from veristep.grounding.transition import (
    StateLike,
    as_state,
    judge_transition,
    parse_change_types,
    written_domain,
)

__all__ = ["check", "check_states", "conclusion", "endpoint", "judge_transition"]

OnStep = Callable[[StepVerdict, int], None]

log = logging.getLogger(__name__)
_DECIMAL = re.compile(r"\d\.\d")


def check(
    states: list[str],
    change_types: list[str] | None = None,
    target: str | None = None,
    settings: Settings | None = None,
    positive: frozenset[str] = frozenset(),
    *,
    on_step: OnStep | None = None,
    as_claim: bool = True,
) -> Derivation:
    """Judge every transition of ``states`` and the endpoint against ``target``.

    Without a target the last state is the target (the gate passes trivially). Bad arguments
    (a wrong number of change types, an unknown type) raise :class:`InputError`; a state that does
    not parse does not: it is reported, and the steps touching it are unchecked.

    ``on_step(verdict, total)`` is called in order right after each step is judged, with a copy
    of that step's verdict (numbered from 1) and the number of steps. It is an observer only:
    mutating the copy changes nothing, and an exception it raises is logged and the callback is
    not called again in this check; the judging and the returned derivation go on unchanged.

    One equation alone, without a target, is judged as a claim about every value of its letters
    (``grounding.claim``) unless ``as_claim`` is False (a derivation of 0 steps).
    """
    found = check_states(
        states, change_types, target, settings, positive, on_step=on_step, as_claim=as_claim
    )
    return found[0]


def check_states(
    states: list[str],
    change_types: list[str] | None = None,
    target: str | None = None,
    settings: Settings | None = None,
    positive: frozenset[str] = frozenset(),
    *,
    on_step: OnStep | None = None,
    as_claim: bool = True,
) -> tuple[Derivation, list[State]]:
    """:func:`check`, also returning the parsed states (the report shows their clean LaTeX)."""
    settings = settings or Settings()
    if not states:
        raise InputError("a derivation needs at least one state")
    types = parse_change_types(change_types, len(states) - 1)
    ctx = Context(settings=settings, positive=frozenset(positive))
    parsed = [parse_state(s, settings, ctx.positive) for s in states]
    steps = []
    notify = _Observer(on_step, len(parsed) - 1)
    for i in range(1, len(parsed)):
        verdict = judge_transition(parsed[i - 1], parsed[i], types[i - 1], ctx)
        if i > 1:  # a value dropped that never solved the start is no lost solution
            verdict = against_start(parsed[0], parsed[i - 1], parsed[i], verdict, types[i - 1], ctx)
        verdict.index = i
        verdict.expr_latex = parsed[i].shown_latex  # plain input: the LaTeX it was read as
        verdict.change_type = types[i - 1].value if types[i - 1] else None
        steps.append(verdict)
        notify(verdict)
    if target is None:
        end = Endpoint(reached=parsed[-1].convertible, math_correct=parsed[-1].convertible,
                       exact_graph=parsed[-1].convertible)  # fmt: skip
    else:
        goal = parse_state(target, settings, ctx.positive)
        end = endpoint(parsed[-1], goal, ctx, steps_taken=len(parsed) - 1)
    if len(parsed) > 1:
        end.conclusion = conclusion(parsed[0], parsed[-1], ctx)
    convertible = sum(1 for s in parsed[1:] if s.convertible) if len(parsed) > 1 else 0
    confidence = chain_confidence(steps, end, convertible)
    records = [s.record() for s in parsed]
    derivation = Derivation(states[0], target, records, steps, end, confidence)
    if as_claim and len(parsed) == 1 and target is None:
        _judge_as_claim(derivation, parsed[0], ctx)
    return derivation, parsed


def _judge_as_claim(derivation: Derivation, state: State, ctx: Context) -> None:
    """One equation typed alone is a claim about every value of its letters (grounding.claim):
    its verdict becomes the chain's, in the claim's own words."""
    from veristep.grounding.claim import judge_claim

    try:
        found = judge_claim(state, ctx)
    except Exception:  # the claim reading is an addition; a defect in it must not cost the report
        log.warning("claim judgement failed", exc_info=True)
        return
    if found is None:
        return
    derivation.claim = found
    derivation.confidence.tier = Tier.parse(found["tier"])
    derivation.confidence.summary = f"claim {found['sentence']}"


def endpoint(
    last: StateLike, target: StateLike, ctx: Context | None = None, steps_taken: int = 1
) -> Endpoint:
    """Whether the last state reaches the target: it must *be* the target as written (operand
    order aside) — or, after at least one step, the same SymPy object (a ∨-form last state and a
    ±-form target: the parser expands ± into the same ∨). ``math_correct`` says whether the two
    mean the same, judged by the same cascade. A derivation of no steps reaches its target only
    when its start already is the target as written.
    """
    from veristep.grounding.conclusion import same_as_written
    from veristep.mathgraph import structurally_equal

    ctx = ctx or Context()
    a, b = as_state(last, ctx), as_state(target, ctx)
    if a.error is not None or b.error is not None:
        return Endpoint(reached=False, math_correct=False, exact_graph=False)
    graphs = a.graph is not None and b.graph is not None
    exact = graphs and structurally_equal(a.graph, b.graph)
    as_written = graphs and same_as_written(a.graph, b.graph)
    if as_written or (steps_taken > 0 and a.expr == b.expr and a.hidden == b.hidden):
        return Endpoint(reached=True, math_correct=True, exact_graph=exact)
    verdict = judge(a.expr, b.expr, None, ctx)
    if a.hidden != b.hidden:  # the same written-domain safeguard as every step
        verdict = written_domain(a, b, verdict, None, ctx)
    math_correct = verdict.relation is Relation.EQUIVALENT and verdict.tier >= Tier.VERIFIED
    return Endpoint(reached=False, math_correct=math_correct, exact_graph=exact)


def conclusion(start: State, last: State, ctx: Context) -> dict[str, Any] | None:
    """The conclusion gate's finding as the derivation JSON carries it (None: nothing found)."""
    from veristep.grounding.conclusion import conclusion_gate
    from veristep.grounding.statements import is_statement

    if start.error is not None or last.error is not None or not is_statement(start.expr):
        return None
    if _DECIMAL.search(last.latex):
        return None  # a decimal answer is an approximation: the approximate check judges it
    try:
        prev = start.expr
        if start.hidden and None not in start.hidden:
            from sympy import And

            prev = And(start.expr, *start.hidden)  # the start's domain as written
        found = conclusion_gate(prev, last.expr, ctx.for_step(None))
    except Exception:  # the gate is a safeguard; a defect in it must not hide the steps
        log.warning("conclusion gate failed", exc_info=True)
        return None
    if found is None:
        return None
    if found.admitted_wrong is not None:
        out = {"verdict": "refuted", "reason": found.reason, "witness": found.admitted_wrong}
        if found.sides is not None:
            out["sides"] = found.sides
        return out
    return {"verdict": "incomplete", "reason": found.reason, "witness": found.lost}


class _Observer:
    """Hands ``on_step`` copies and absorbs its failures: progress reporting is never allowed to
    change or abort a judgement (a verdict must not depend on whether anyone was watching)."""

    def __init__(self, on_step: OnStep | None, total: int) -> None:
        self.on_step = on_step
        self.total = total

    def __call__(self, verdict: StepVerdict) -> None:
        if self.on_step is None:
            return
        try:
            self.on_step(copy.deepcopy(verdict), self.total)
        except Exception:
            log.warning("on_step callback failed; no further step events", exc_info=True)
            self.on_step = None
