"""Judge a whole derivation: every transition, the endpoint gate, the chain verdict.

``check`` is the public entry point (docs/design.md); ``judge_transition``
and ``endpoint`` are the pieces the planner and the review agent call directly.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Callable
from typing import Any

from veristep.core.errors import InputError, did_you_mean
from veristep.core.settings import Settings
from veristep.core.tiers import ChangeType, Relation, Tier
from veristep.core.verdicts import Derivation, Endpoint, StepVerdict, chain_confidence
from veristep.grounding.cascade import judge
from veristep.grounding.decision import Context
from veristep.grounding.extraneous import against_start
from veristep.grounding.states import State, parse_state

StateLike = Any  # a LaTeX string, a parsed State, or a SymPy statement/expression
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


def parse_change_types(change_types: list[str] | None, n_steps: int) -> list[ChangeType | None]:
    if change_types is None:
        return [None] * n_steps
    if len(change_types) != n_steps:
        raise InputError(
            f"{len(change_types)} change type(s) given for {n_steps} step(s); give one per step"
        )
    out: list[ChangeType | None] = []
    for text in change_types:
        if text is None or text == "":
            out.append(None)
            continue
        try:
            out.append(ChangeType.parse(text))
        except ValueError as exc:
            hint = did_you_mean(text.strip().lower(), [c.value for c in ChangeType], cutoff=0.6)
            raise InputError(str(exc), hint=hint) from None
    return out


def judge_transition(
    prev: StateLike,
    nxt: StateLike,
    change_type: ChangeType | str | None = None,
    ctx: Context | None = None,
) -> StepVerdict:
    """One transition previous → next through the cascade (index 0; the caller numbers steps)."""
    ctx = ctx or Context()
    if isinstance(change_type, str):
        change_type = parse_change_types([change_type], 1)[0]
    a, b = _as_state(prev, ctx), _as_state(nxt, ctx)
    if b.error is not None:
        return _unchecked(f"this state could not be read: {b.error}")
    if a.error is not None:
        return _unchecked(f"the previous state could not be read: {a.error}")
    verdict = judge(a.expr, b.expr, change_type, ctx)
    if a.hidden == b.hidden and verdict.relation is Relation.EQUIVALENT:
        return verdict  # the same dropped restriction on both sides changes no equivalence
    if a.hidden or b.hidden:
        return written_domain(a, b, verdict, change_type, ctx)
    return verdict


def _same_written_domain(a: State, b: State) -> bool:
    """Whether the two expressions, as written, restrict their letters by the same conditions."""
    from veristep.grounding.domain import conditions

    return set(conditions(a.expr)) | set(a.hidden) == set(conditions(b.expr)) | set(b.hidden)


def _domain_only_doubt(verdict: StepVerdict, a: State, b: State, ctx: Context) -> bool:
    """A symbolic equivalence held back only by a domain that SymPy's evaluation changed: the
    difference still zero-tests to 0 (never a positivity assumption, never mere evidence)."""
    from veristep.grounding import cas
    from veristep.grounding.rewrite import zero_test

    if verdict.relation is not Relation.EQUIVALENT or verdict.tier is not Tier.VERIFIED:
        return False
    if verdict.check != "symbolic_equivalence" or "natural domain" not in (verdict.reason or ""):
        return False
    out = cas.run(zero_test, a.expr - b.expr, ctx=ctx)
    return out.ok and out.value[0] == "zero"


def written_domain(
    a: State, b: State, verdict: StepVerdict, change_type: ChangeType | None, ctx: Context
) -> StepVerdict:
    """Re-judge a step whose states lost domain restrictions to SymPy's evaluation.

    Statements are judged again with their written restrictions as conjuncts (``x/x = 1`` is
    ``x ≠ 0``, not ``True``); for expressions an equivalence holds only where both are defined
    (verified at most), and a refuting point must lie inside both written domains.
    """
    from sympy import And

    from veristep.grounding.domain import describe
    from veristep.grounding.statements import is_statement

    if None in a.hidden or None in b.hidden:
        return StepVerdict(
            0, Tier.PLAUSIBLE, Relation.UNKNOWN, None,
            "no check could decide: a branch of a disjunction restricts the domain as written",
        )  # fmt: skip
    where = describe(a.hidden | b.hidden)
    if is_statement(a.expr) and is_statement(b.expr):
        again = judge(And(a.expr, *a.hidden), And(b.expr, *b.hidden), change_type, ctx)
        again.reason = f"with the written domain ({where}): {again.reason}"
        return again
    if _same_written_domain(a, b) and _domain_only_doubt(verdict, a, b, ctx):
        # SymPy evaluated a restriction away ((x-1)(x+1)/(x-1) is read as x + 1), but as
        # written both sides are defined at the same points and equal at each of them.
        return StepVerdict(
            0, Tier.GROUNDED, Relation.EQUIVALENT, verdict.check,
            f"the difference is 0, and both are defined at the same points as written ({where})",
        )  # fmt: skip
    if verdict.relation is Relation.EQUIVALENT and verdict.tier is Tier.GROUNDED:
        verdict.tier = Tier.VERIFIED
        verdict.reason += f"; equal only where both are defined as written ({where})"
    elif verdict.relation is Relation.REFUTED and not _inside(verdict.witness, a, b):
        return StepVerdict(
            0, Tier.PLAUSIBLE, Relation.UNKNOWN, None,
            f"no check could decide: the differing point lies outside the written domain ({where})",
        )  # fmt: skip
    return verdict


def _inside(witness: Any, a: State, b: State) -> bool:
    """Whether a refuting point satisfies every written restriction of both states."""
    from sympy import sympify
    from sympy.logic.boolalg import BooleanTrue

    hidden = a.hidden | b.hidden
    symbols = {v.name: v for c in hidden for v in c.free_symbols}
    if not (a.expr.free_symbols or b.expr.free_symbols):
        # Two constants (x/x → 2): they differ wherever the written forms are defined at all,
        # so any simple point inside the written domain is a witness.
        for value in (1, 2, -1, 3, -2, 5):
            point = {v: value for v in symbols.values()}
            if all(isinstance(c.subs(point), BooleanTrue) for c in hidden):
                return True
        return False
    if isinstance(witness, list) and len(symbols) == 1 and witness:
        # A list of values of the one unknown (a solution-set witness): each must lie inside.
        (var,) = symbols.values()
        try:
            points = [{var: sympify(v)} for v in witness]
        except Exception:
            return False
        return all(all(isinstance(c.subs(p), BooleanTrue) for c in hidden) for p in points)
    if not isinstance(witness, dict):
        return False
    try:
        point = {v: sympify(witness[name]) for name, v in symbols.items()}
    except Exception:  # a witness without this variable, or not a number
        return False
    return all(isinstance(c.subs(point), BooleanTrue) for c in hidden)


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
    a, b = _as_state(last, ctx), _as_state(target, ctx)
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


def _as_state(s: StateLike, ctx: Context) -> State:
    if isinstance(s, State):
        return s
    if isinstance(s, str):
        return parse_state(s, ctx.settings, ctx.positive)
    return State(latex=str(s), expr=s, display=str(s))


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


def _unchecked(reason: str) -> StepVerdict:
    return StepVerdict(0, Tier.UNCHECKED, Relation.UNKNOWN, None, reason)
