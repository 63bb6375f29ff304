"""One line is a claim: an equation typed alone is judged as an identity.

``(a+b)^2 = a^2 + b^2`` typed on its own line is a statement about every value of its letters.
It is judged by the same cascade as a step: the left side is the "previous" expression, the right
side the "next", so the tiers keep their meaning:

- **true** (grounded): the two sides are equal for every real value of the letters, proved
  symbolically ("the difference is 0 (by expand)");
- **true where defined** (verified): equal wherever both sides are defined as written
  (``x/x = 1`` holds for x ≠ 0) — the condition is named;
- **false** (refuted): a point a person can substitute, with the value of each side there; for
  one letter, the values where the equation does hold are named when they form a set that is
  not just a few points ("it holds only for x ≥ 0");
- **undecided** (plausible): no check could decide. A timeout is never evidence.

A claim written with its condition (``\\sqrt{x^2} = x \\text{ for } x \\ge 0``) is judged under
that condition: true when every value the condition allows solves the equation.
"""

from __future__ import annotations

from typing import Any

from veristep.core.tiers import Relation, Tier
from veristep.grounding.decision import Context
from veristep.grounding.states import State, parse_state
from veristep.grounding.transition import judge_transition


def claim_parts(state: State) -> tuple[Any, Any, list[Any]] | None:
    """The two sides (graph nodes) of an equation typed alone, and its written conditions.

    None when the state is no single ``lhs = rhs`` between expressions (optionally ``∧`` the
    conditions it is claimed under).
    """
    from veristep.mathgraph.nodes import Kind

    if state.graph is None or state.error is not None:
        return None
    root = state.graph.root
    conditions: list[Any] = []
    if root.kind is Kind.AND and root.children:
        root, conditions = root.children[0], list(root.children[1:])
    if root.kind is not Kind.RELATION or root.value != "=" or len(root.children) != 2:
        return None
    statements = {Kind.RELATION, Kind.AND, Kind.OR, Kind.NOT, Kind.IMPLIES, Kind.IFF, Kind.SYSTEM}
    if any(side.kind in statements for side in root.children):
        return None
    if any(c.kind is not Kind.RELATION or c.value == "=" for c in conditions):
        return None  # ``x = 1 \land y = 2`` is a system, not a claim under a condition
    return root.children[0], root.children[1], conditions


def judge_claim(state: State, ctx: Context) -> dict[str, Any] | None:
    """The claim's verdict as the derivation JSON carries it, or None when it is no claim.

    Keys: ``verdict`` (true · true_where_defined · true_under_condition · false · undecided),
    ``tier``, ``sentence`` (what a teacher would say), ``reason`` (the check's own words),
    ``witness`` (a point and the value of each side there) and ``condition`` (or None).
    """
    from veristep.mathgraph import to_latex

    parts = claim_parts(state)
    if parts is None:
        return None
    lhs_node, rhs_node, conditions = parts
    settings = ctx.settings
    lhs = parse_state(to_latex(lhs_node), settings, ctx.positive)
    rhs = parse_state(to_latex(rhs_node), settings, ctx.positive)
    if lhs.error is not None or rhs.error is not None:
        return None
    letters = _letters(lhs.expr, rhs.expr)
    if conditions:
        return _under_condition(state, lhs, rhs, conditions, letters, ctx)
    verdict = judge_transition(lhs, rhs, None, ctx.for_step(None))
    if verdict.relation is Relation.EQUIVALENT and verdict.tier >= Tier.VERIFIED:
        return _true(verdict, letters)
    if verdict.tier is Tier.REFUTED and isinstance(verdict.witness, dict):
        return _false(state, verdict, letters, ctx)
    return _claim(
        "undecided",
        Tier.PLAUSIBLE,
        "no check could decide whether the two sides are always equal",
        verdict.reason,
    )


def _claim(
    verdict: str,
    tier: Tier,
    sentence: str,
    reason: str,
    witness: Any = None,
    condition: str | None = None,
) -> dict[str, Any]:
    return {
        "verdict": verdict,
        "tier": tier.name_lower,
        "sentence": sentence,
        "reason": reason,
        "witness": witness,
        "condition": condition,
    }


def _letters(*exprs: Any) -> list[str]:
    names = set()
    for e in exprs:
        names |= {s.name for s in e.free_symbols}
    return sorted(names)


def _every(letters: list[str]) -> str:
    if not letters:
        return "the two sides are the same number"
    return f"true for every real value of {_and(letters)}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _true(verdict: Any, letters: list[str]) -> dict[str, Any]:
    if verdict.tier is Tier.GROUNDED:
        return _claim("true", Tier.GROUNDED, _every(letters), verdict.reason)
    where = _where_defined(verdict.reason)
    sentence = f"true wherever both sides are defined ({where})" if where else (
        "true wherever both sides are defined"
    )  # fmt: skip
    return _claim("true_where_defined", Tier.VERIFIED, sentence, verdict.reason, condition=where)


def _where_defined(reason: str) -> str | None:
    """The written-domain condition the cascade names ("… as written (x ≠ 0)")."""
    marker = "defined as written ("
    at = reason.find(marker)
    if at < 0:
        return None
    inner = reason[at + len(marker) :]
    return inner[: inner.rfind(")")] if ")" in inner else None


def _false(state: State, verdict: Any, letters: list[str], ctx: Context) -> dict[str, Any]:
    """A point a person can substitute, each side's value there, and where it does hold."""
    w = verdict.witness
    point = {k: v for k, v in w.items() if k in letters}
    at = ", ".join(f"{k} = {v}" for k, v in point.items())
    left, right = w.get("previous"), w.get("next")
    if at:
        sentence = f"false: at {at} the left side is {left} and the right side is {right}"
    else:
        sentence = f"false: the left side is {left} and the right side is {right}"
    holds_on = _holds_only_on(state, letters, ctx)
    if holds_on:
        sentence += f"; it holds only for {holds_on}"
    out = _claim("false", Tier.REFUTED, sentence, verdict.reason, witness=w, condition=holds_on)
    return out


def _holds_only_on(state: State, letters: list[str], ctx: Context) -> str | None:
    """For one letter: the values where the equation holds, when they are more than a few
    points (an interval such as x ≥ 0); None otherwise or when it cannot be decided."""
    from veristep.grounding import cas

    if len(letters) != 1:
        return None
    out = cas.run(_solution_region, state.expr, ctx=ctx.for_step(None))
    return out.value if out.ok else None


def _solution_region(statement: Any) -> str | None:
    """CAS task: the real solution set of a one-letter equation as a condition, when it is an
    interval or a union of intervals (a finite set of points is no condition worth naming)."""
    from sympy import FiniteSet, Interval, Union

    from veristep.grounding.solving import real_solution_set
    from veristep.grounding.statements import symbols_of

    (var,) = symbols_of(statement)
    found = real_solution_set(statement, var)
    if isinstance(found, FiniteSet) and 0 < len(found) <= 4:
        ordered = sorted(found, key=lambda v: float(v.evalf()))
        return " or ".join(f"{var.name} = {v}" for v in ordered)
    pieces = found.args if isinstance(found, Union) else (found,)
    if not all(isinstance(p, Interval) for p in pieces):
        return None
    return " or ".join(_interval_words(p, var.name) for p in pieces)


def _interval_words(interval: Any, name: str) -> str:
    from sympy import oo

    lo, hi = interval.start, interval.end
    low = "" if lo == -oo else f"{lo} {'<' if interval.left_open else '≤'} "
    high = "" if hi == oo else f" {'<' if interval.right_open else '≤'} {hi}"
    if not low and not high:
        return f"every real {name}"
    if not low:
        return f"{name}{high}"
    if not high:
        flipped = f"{name} {'>' if interval.left_open else '≥'} {lo}"
        return flipped
    return f"{low}{name}{high}"


def _under_condition(
    state: State, lhs: State, rhs: State, conditions: list[Any], letters: list[str], ctx: Context
) -> dict[str, Any]:
    """A claim under the condition it names: true when every allowed value solves it."""
    from veristep.grounding import cas
    from veristep.mathgraph import to_latex

    named = " and ".join(f"${to_latex(c)}$" for c in conditions)
    if len(letters) != 1:
        why = "a claim under a condition is decided for one letter only"
        return _claim("undecided", Tier.PLAUSIBLE, f"not decided under {named}", why)
    out = cas.run(_condition_check, state.expr, ctx=ctx.for_step(None))
    if not out.ok or out.value is None:
        why = "no check could decide (the computer algebra system did not answer in time)"
        if out.ok:
            why = "no check could decide: the solution set could not be compared"
        return _claim("undecided", Tier.PLAUSIBLE, f"not decided under {named}", why)
    tag, value = out.value
    if tag == "true":
        reason = "every value the condition allows solves the equation (exact solution sets)"
        return _claim(
            "true_under_condition", Tier.GROUNDED, f"true for {named}", reason, condition=named
        )
    point = {letters[0]: value[0], "previous": value[1], "next": value[2]}
    sentence = (
        f"false even for {named}: at {letters[0]} = {value[0]} the left side is {value[1]} "
        f"and the right side is {value[2]}"
    )
    reason = "a value the condition allows does not solve the equation"
    return _claim("false", Tier.REFUTED, sentence, reason, witness=point, condition=named)


def _condition_check(statement: Any) -> tuple[str, Any] | None:
    """CAS task for ``lhs = rhs ∧ conditions``: ('true', None) when the conditions' set lies
    inside the equation's; ('false', (value, left, right)) with an allowed value that fails."""
    from sympy import And, Eq, sstr

    from veristep.grounding.solving import members, real_solution_set, representative
    from veristep.grounding.statements import symbols_of
    from veristep.grounding.witness import real_value

    (var,) = symbols_of(statement)
    parts = list(statement.args) if isinstance(statement, And) else [statement]
    equation = next((a for a in parts if isinstance(a, Eq)), None)
    conds = [a for a in parts if a is not equation]
    if equation is None or not conds:
        return None
    allowed = real_solution_set(And(*conds), var)
    solves = real_solution_set(equation, var)
    if allowed.is_subset(solves) is True:
        return ("true", None)
    failing = allowed - solves
    for value in members(failing) or [representative(failing)]:
        if value is None:
            continue
        left = real_value(equation.lhs, {var: value})
        right = real_value(equation.rhs, {var: value})
        if left is not None and right is not None and left != right:
            return ("false", (sstr(value), sstr(left), sstr(right)))
    return None
