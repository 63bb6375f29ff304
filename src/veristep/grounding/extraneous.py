"""A narrowing step judged against the start of the chain (docs/design.md, the lossy-step table).

``x = −1 ∨ x = 2 → x = 2`` loses −1 *of the previous line*. After ``√(x+2) = x → x + 2 = x²``
(a widening that added −1) it is the move that makes the answer right: −1 never solved the start.
A narrowing step whose every dropped value fails the start — by substitution into the start as
written, or because the value lies outside the start's domain (a zero denominator, a negative
radicand, the logarithm of a non-positive number) — is therefore grounded, and its reason names
each dropped value and why. A step that drops a value which *does* solve the start stays what the
cascade said it is (🔹, "a lost solution").

Only finite drops are judged: the previous state's solutions (one unknown) or points (a system)
are listed exactly, each value's fate in the next state and in the start is decided by
substitution, and anything undecided keeps the cascade's verdict. The logic is sound whatever
came before: the step shows ``start ∧ previous ⇒ next``, which is all a chain that starts from
the start needs.

>>> from sympy import Eq, Or, sqrt, symbols
>>> x = symbols("x", real=True)
>>> dropped_outside_start(Eq(sqrt(x + 2), x), Or(Eq(x, -1), Eq(x, 2)), Eq(x, 2))
(['x'], [({'x': '-1'}, 'there its left side is 1 and its right side -1')])
>>> dropped_outside_start(Eq(x**2, 4), Or(Eq(x, -2), Eq(x, 2)), Eq(x, 2)) is None
True
"""

from __future__ import annotations

from typing import Any

from sympy import And, Basic, FiniteSet, Or, Symbol, sstr

from veristep.core.tiers import Relation, Tier
from veristep.core.verdicts import StepVerdict
from veristep.grounding import cas
from veristep.grounding.decision import Context

_OPS = {"==": "=", "!=": "≠", ">=": "≥", "<=": "≤"}
# More candidates than this is not a list a student checks by hand (nor one we substitute).
_MAX_VALUES = 12


def against_start(
    start: Any, prev: Any, nxt: Any, verdict: StepVerdict, change_type: Any, ctx: Context
) -> StepVerdict:
    """``verdict`` raised to grounded when the values its step drops do not solve ``start``
    (``start``, ``prev``, ``nxt`` are parsed states); otherwise ``verdict`` unchanged."""
    if not _candidate(verdict) or any(s.error is not None for s in (start, prev, nxt)):
        return verdict
    if any(None in s.hidden for s in (start, prev, nxt)):
        return verdict  # a restriction inside one branch: a domain that is not a conjunct
    hidden = tuple(sorted(start.hidden, key=sstr))
    a, b = _as_written(prev), _as_written(nxt)
    out = cas.run(dropped_outside_start, start.expr, a, b, hidden, ctx=ctx.for_step(None))
    if not out.ok or out.value is None:
        return verdict
    names, dropped = out.value
    return _raised(verdict, names, dropped, change_type)


def _as_written(state: Any) -> Basic:
    """The state with the restrictions SymPy's evaluation took out of it (x/x = 1 is x ≠ 0)."""
    return And(state.expr, *state.hidden) if state.hidden else state.expr


def _candidate(verdict: StepVerdict) -> bool:
    """A step that loses values of the unknowns: narrows (no parameter assumption), or a claim
    of no solution that the solution-set check refuted for it."""
    facts = verdict.facts or {}
    if verdict.relation is Relation.NARROWS:
        return verdict.tier < Tier.GROUNDED and "assumes" not in facts
    return (
        verdict.relation is Relation.REFUTED
        and verdict.check in ("solution_set", "system")
        and bool(facts.get("lost"))
        and not facts.get("wrong")
    )


def _raised(
    verdict: StepVerdict, names: list[str], dropped: list[tuple[dict[str, str], str]], declared: Any
) -> StepVerdict:
    from veristep.grounding.cascade import EXPECTED

    parts = [
        f"drops {_point(p, names)}, which does not solve the start: {why}" for p, why in dropped
    ]
    reason = "; ".join(parts)
    tier = Tier.GROUNDED
    if declared is not None and Relation.NARROWS not in EXPECTED[declared]:
        tier = tier.downgraded()
        reason += f" — but the step was declared '{declared.value}'"
    facts = dict(verdict.facts or {})
    if len(names) == 1:
        facts["var"] = names[0]
        facts["lost"] = [p[names[0]] for p, _ in dropped]
    facts["dropped"] = [{"point": p, "why": why} for p, why in dropped]
    return StepVerdict(
        verdict.index, tier, Relation.NARROWS, "extraneous", reason, None, verdict.ms, facts=facts
    )


def _point(point: dict[str, str], names: list[str]) -> str:
    if len(names) == 1:
        return point[names[0]]
    return "(" + ", ".join(f"{k} = {point[k]}" for k in names) + ")"


# --------------------------------------------------------------------------- CAS task


def dropped_outside_start(
    start: Basic, prev: Basic, nxt: Basic, hidden: tuple[Basic, ...] = ()
) -> tuple[list[str], list[tuple[dict[str, str], str]]] | None:
    """CAS task: (unknowns, [(dropped point, why it fails the start)]) when ``nxt`` keeps a part
    of the finitely many solutions of ``prev`` and every value it drops fails ``start`` (with
    the written restrictions ``hidden`` that SymPy's evaluation took out of it); else None
    (including when anything is undecided)."""
    from veristep.grounding.statements import is_statement, symbols_of

    if not all(is_statement(s) for s in (start, prev, nxt)):
        return None
    syms = symbols_of(start, prev, nxt)
    if not syms or not set(symbols_of(prev, nxt)) <= set(symbols_of(start)):
        return None  # the start says nothing about some letter of the step
    points = _finite_points(prev, syms)
    if points is None:
        return None
    dropped = []
    for point in points:
        fate = _holds_at(nxt, point, syms)
        if fate is None:
            return None
        if fate:
            continue
        why = _fails(start, hidden, point, syms)
        if why is None:
            return None  # a dropped value that solves the start, or one we cannot decide
        dropped.append(({k.name: sstr(v) for k, v in point.items()}, why))
    if not dropped:
        return None
    return [s.name for s in syms], dropped


def _finite_points(prev: Basic, syms: list[Symbol]) -> list[dict[Symbol, Basic]] | None:
    """The solutions of ``prev`` as explicit points, when there are finitely many."""
    from veristep.grounding.conclusion import _numeric_point
    from veristep.grounding.solving import comparable, real_solution_set

    if len(syms) == 1:
        found = real_solution_set(prev, syms[0])
        if not isinstance(found, FiniteSet) or not comparable(found):
            return None
        if len(found) > _MAX_VALUES:
            return None
        return [{syms[0]: v} for v in sorted(found, key=lambda v: float(v.evalf()))]
    from sympy.logic.boolalg import to_dnf

    dnf = to_dnf(prev) if isinstance(prev, (And, Or)) else prev
    points = []
    for conj in Or.make_args(dnf):
        point = _numeric_point(conj)
        if point is None or set(point) != set(syms):
            return None  # a branch that is not a point: not a finite list of candidates
        points.append(point)
    return points if len(points) <= _MAX_VALUES else None


def _holds_at(s: Basic, point: dict[Symbol, Basic], syms: list[Symbol]) -> bool | None:
    """Whether ``s`` holds at the point as written (its domain included)."""
    from veristep.grounding.solving import holds

    first = syms[0]
    others = {k: v for k, v in point.items() if k != first}
    return holds(s.subs(others) if others else s, first, point[first])


def _fails(
    start: Basic, hidden: tuple[Basic, ...], point: dict[Symbol, Basic], syms: list[Symbol]
) -> str | None:
    """Why the point does not solve the start (None: it does, or that is undecided)."""
    if _holds_at(And(start, *hidden), point, syms) is not False:
        return None
    outside = _outside_domain(start, hidden, point)
    if outside is not None:
        return outside
    if len(syms) == 1:
        from veristep.grounding.witness import sides_at

        sides = sides_at(start, syms[0], point[syms[0]])
        if sides is not None:
            return f"there its left side is {sides['left']} and its right side {sides['right']}"
    return _failing_relation(start, point) or "substituted into it, it is false"


def _failing_relation(start: Basic, point: dict[Symbol, Basic]) -> str | None:
    """A system's first relation that is false at the point, with its two sides there."""
    from sympy import S
    from sympy.core.relational import Relational

    from veristep.grounding.witness import real_value

    for rel in And.make_args(start):
        if not isinstance(rel, Relational):
            continue
        left, right = real_value(rel.lhs, point), real_value(rel.rhs, point)
        if left is not None and right is not None and rel.func(left, right) is S.false:
            said = f"{sstr(rel.lhs)} {_OPS.get(rel.rel_op, rel.rel_op)} {sstr(rel.rhs)}"
            return f"there {said} has left side {sstr(left)} and right side {sstr(right)}"
    return None


def _outside_domain(
    start: Basic, hidden: tuple[Basic, ...], point: dict[Symbol, Basic]
) -> str | None:
    """The start's domain condition the point breaks, said plainly, or None."""
    from sympy import Ge, Gt, Ne

    from veristep.grounding.domain import conditions
    from veristep.grounding.statements import truth_value

    for cond in sorted(conditions(start) | set(hidden), key=sstr):
        if not cond.free_symbols <= set(point) or truth_value(cond.subs(point)) is not False:
            continue
        value = sstr(cond.lhs.subs(point))
        if isinstance(cond, Ne):
            return f"there {sstr(cond.lhs)} = 0, outside its domain (a zero denominator)"
        if isinstance(cond, Gt):
            return f"there {sstr(cond.lhs)} = {value}, outside its domain (it must be > 0)"
        if isinstance(cond, Ge):
            return f"there {sstr(cond.lhs)} = {value}, outside its domain (it must be ≥ 0)"
    return None
