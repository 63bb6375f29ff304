"""The endpoint gate of a goal-only task, and the substitution that checks a stated answer.

A derivation asked for with a goal and no target (``solve 2x + 3 = 25``) *reaches* its endpoint
when its last state is the finished form of that goal:

| goal | finished form |
|---|---|
| solve | a solved form: each unknown isolated (``x = v``, a ∨ of those, a bound or interval, |
| | a ∧ of those for a system, an integer-indexed family), or "no solution" |
| differentiate · integrate · limit · evaluate | no derivative, integral, limit or sum sign left |
| factor | no factor of the last state factors further (SymPy's ``factor`` finds no more factors) |
| expand | the last state is its own expansion |
| simplify | SymPy's ``simplify`` makes it no shorter |

The form is only half of it: the steps into it are judged one by one, and an equation's answer is
substituted back into the start (:func:`substitute_answer`) before it is stated as checked. A CAS
timeout decides nothing: the form is then "not shown finished", and the answer "not checked".
"""

from __future__ import annotations

from typing import Any

from sympy import And, Basic, Contains, Derivative, Expr, Integral, Limit, Or, Sum, false

from veristep.grounding import cas
from veristep.grounding.decision import Context


def finished_form(goal: str, last: Basic, ctx: Context) -> tuple[bool, str]:
    """Whether ``last`` is the finished form of ``goal``, and why not (in words)."""
    if goal == "solve":
        if last is false or _solved_form(last):
            return True, ""
        return False, "the last state is not a solved form (each unknown isolated)"
    if isinstance(last, Expr) and last.has(Derivative, Integral, Limit, Sum):
        return False, "a derivative, integral, limit or sum is still to be carried out"
    if goal in ("differentiate", "integrate", "limit", "evaluate"):
        is_expr = isinstance(last, Expr)
        return is_expr, "" if is_expr else "the last state is not an expression"
    if goal in ("factor", "expand", "simplify") and isinstance(last, Expr):
        out = cas.run(_form_done, goal, last, ctx=ctx.for_step(None))
        if not out.ok:
            return False, f"could not be decided in time ({out.status}): not shown finished"
        return bool(
            out.value
        ), "" if out.value else f"the last state can still be {goal_past(goal)}"
    return False, f"no finished form is defined for the goal {goal!r} here"


def goal_past(goal: str) -> str:
    return {"factor": "factored further", "expand": "expanded", "simplify": "simplified"}.get(
        goal, goal
    )


def _solved_form(last: Basic) -> bool:
    from veristep.grounding.conclusion import solved_unknowns

    if solved_unknowns(last) is not None:
        return True
    # An integer-indexed family: x = π/6 + 2kπ ∧ k ∈ ℤ (the membership atoms set aside).
    if isinstance(last, (And, Or)):
        core = [a for a in And.make_args(last) if not isinstance(a, Contains)]
        return len(core) < len(And.make_args(last)) and solved_unknowns(And(*core)) is not None
    return False


def _form_done(goal: str, last: Expr) -> bool:
    """CAS task: the last state is already in the form of ``goal``."""
    from sympy import count_ops, expand, factor_list, simplify

    if goal == "expand":
        return expand(last) == last
    if goal == "factor":
        return _factor_count(last) >= sum(m for _, m in factor_list(last)[1])
    return count_ops(simplify(last)) >= count_ops(last)


def _factor_count(e: Expr) -> int:
    """Non-constant factors of ``e`` as written, a power counted by its whole exponent."""
    count = 0
    for f in e.as_ordered_factors() if e.is_Mul else [e]:
        if f.is_number:
            continue
        _, exp = f.as_base_exp()
        count += int(exp) if exp.is_Integer and exp > 0 else 1
    return count


def substitute_answer(start: Basic, last: Basic, ctx: Context) -> dict[str, Any] | None:
    """Substitute a solved form's values into the start: ``{"holds": bool, "complete": bool,
    "points": [...]}``, or None when that cannot be decided (a timeout is no evidence)."""
    out = cas.run(_substitute, start, last, ctx=ctx.for_step(None))
    return out.value if out.ok else None


def _substitute(start: Basic, last: Basic) -> dict[str, Any] | None:
    """CAS task: each named point substituted into the start as written; for one unknown the
    exact solution sets are compared too (``complete``: no solution of the start is lost)."""
    from sympy import sstr

    from veristep.grounding.solving import SetChange, compare_sets, holds, real_solution_set
    from veristep.grounding.statements import symbols_of

    syms = symbols_of(start, last)
    if len(syms) == 1:
        var = syms[0]
        tag, _, _ = compare_sets(real_solution_set(start, var), real_solution_set(last, var))
        if tag == SetChange.UNDECIDED:
            return None
        values = [] if last is false else _values(last, var)
        checks = [holds(start, var, v) for v in values] if values is not None else []
        if None in checks:
            return None
        points = [{var.name: sstr(v)} for v in values or []]
        admitted_ok = tag in (SetChange.EQUAL, SetChange.NARROWS, SetChange.EMPTY) and all(checks)
        return {"holds": admitted_ok, "complete": tag == SetChange.EQUAL, "points": points}
    return _points_hold(start, last, syms)


def _values(last: Basic, var: Any) -> list[Any] | None:
    """The values of ``var`` a solved form names (None for a bound or an interval)."""
    from sympy import Eq

    out = []
    for case in Or.make_args(last):
        if not isinstance(case, Eq):
            return None
        out.append(case.rhs if case.lhs == var else case.lhs)
    return out


def _points_hold(start: Basic, last: Basic, syms: list[Any]) -> dict[str, Any] | None:
    from sympy import Eq, sstr
    from sympy.logic.boolalg import to_dnf

    from veristep.grounding.statements import truth_value

    points = []
    for conj in Or.make_args(to_dnf(last)):
        point = {}
        for atom in And.make_args(conj):
            if not isinstance(atom, Eq) or atom.lhs not in syms or atom.rhs.free_symbols:
                return None
            point[atom.lhs] = atom.rhs
        if set(point) != set(syms):
            return None
        if truth_value(start.subs(point)) is not True:
            return {"holds": False, "complete": False,
                    "points": [{k.name: sstr(v) for k, v in point.items()}]}  # fmt: skip
        points.append({k.name: sstr(v) for k, v in point.items()})
    return {"holds": True, "complete": None, "points": points}
