"""One transition judged: previous state → next state through the cascade, with the written
domain's safeguard. ``chain`` judges a whole derivation with it and ``claim`` an equation typed
alone; the planner, the workspace and the web checker call :func:`judge_transition` directly.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from veristep.core.errors import InputError, did_you_mean
from veristep.core.tiers import ChangeType, Relation, Tier
from veristep.core.verdicts import StepVerdict
from veristep.grounding.cascade import judge
from veristep.grounding.decision import Context
from veristep.grounding.states import State, parse_state

StateLike = Any  # a LaTeX string, a parsed State, or a SymPy statement/expression


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
    a, b = as_state(prev, ctx), as_state(nxt, ctx)
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
        if again.relation is Relation.UNKNOWN and b.hidden <= a.hidden:
            kept = _widening_within(verdict, where)
            if kept is not None:
                return kept
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


def _widening_within(verdict: StepVerdict, where: str) -> StepVerdict | None:
    """A widening of the evaluated statements P ⊆ N, kept when the next state's written
    restrictions C_N are among the previous state's C_P.

    Then P ∧ C_P ⊆ N ∧ C_N: the next step still holds wherever the previous one does as written.
    Only the values it adds may fall outside the written domain (then it is equivalent), which
    makes "widens" the weaker claim and its tier (verified at most) the safe one. Multiplying
    ``\\frac{v}{2\\sqrt{y}} + \\frac{1}{2\\sqrt{x}} = 0`` by ``2\\sqrt{y}`` is such a step.
    """
    if verdict.relation is not Relation.WIDENS:
        return None
    # The facts would name added values as certain; the reason says where they may fall.
    reason = f"with the written domain ({where}): {verdict.reason}"
    return replace(
        verdict, tier=min(verdict.tier, Tier.VERIFIED), facts=None,
        reason=reason + ", where that domain allows it",
    )  # fmt: skip


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


def as_state(s: StateLike, ctx: Context) -> State:
    if isinstance(s, State):
        return s
    if isinstance(s, str):
        return parse_state(s, ctx.settings, ctx.positive)
    return State(latex=str(s), expr=s, display=str(s))


def _unchecked(reason: str) -> StepVerdict:
    return StepVerdict(0, Tier.UNCHECKED, Relation.UNKNOWN, None, reason)
