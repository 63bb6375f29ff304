"""When has the planner arrived? Solved forms, and the comparison of a state with the target.

>>> x = sp.Symbol("x")
>>> solved_values(sp.Or(sp.Eq(x, 2), sp.Eq(-2, x)), x) in ([2, -2], [-2, 2])
True
>>> same_solutions(sp.Or(sp.Eq(x, 2), sp.Eq(x, -2)), sp.Or(sp.Eq(x, -2), sp.Eq(x, 2)), x)
True
"""

from __future__ import annotations

import sympy as sp


def solved_values(state: sp.Basic, x: sp.Symbol | None) -> list[sp.Basic] | None:
    """The values of ``x`` when the state reads ``x = v`` (or a disjunction of such); else None."""
    if x is None:
        return None
    if state is sp.false:
        return []
    cases = state.args if isinstance(state, sp.Or) else (state,)
    values = []
    for case in cases:
        if not isinstance(case, sp.Eq):
            return None
        if case.lhs == x and not case.rhs.has(x):
            values.append(case.rhs)
        elif case.rhs == x and not case.lhs.has(x):
            values.append(case.lhs)
        else:
            return None
    return values


def _equal(a: sp.Basic, b: sp.Basic) -> bool:
    if a == b:
        return True
    probe = _probe_equal(a, b)
    if probe is not None:
        return probe
    try:
        diff = sp.simplify(a - b)
    except (TypeError, ValueError):
        return False
    return diff == 0


_POINTS = (sp.Rational(3, 7), sp.Rational(11, 5), sp.Rational(-13, 9))


def _probe_equal(a: sp.Basic, b: sp.Basic) -> bool | None:
    """Numeric comparison at a few points: a planner's guess, cheap where ``simplify`` is slow.

    The planner only uses it to decide where to stop; the grounding engine judges the step.
    None when the values cannot be compared (a pole, a non-real value, an unevaluated construct).
    """
    if not (isinstance(a, sp.Expr) and isinstance(b, sp.Expr)):
        return None
    syms = sorted(a.free_symbols | b.free_symbols, key=lambda s: s.name)
    if not syms or a.has(sp.Integral, sp.Limit, sp.Derivative, sp.Sum):
        return None
    for i, point in enumerate(_POINTS):
        values = {s: point + sp.Rational(j, 3) for j, s in enumerate(syms, start=i)}
        try:
            va, vb = complex(a.evalf(20, subs=values)), complex(b.evalf(20, subs=values))
        except (TypeError, ValueError, ZeroDivisionError):
            return None
        if abs(va - vb) > 1e-9 * (1 + abs(va)):
            return False
    return True


def same_solutions(state: sp.Basic, target: sp.Basic, x: sp.Symbol | None) -> bool:
    """Both are solved forms listing the same values (in any order, duplicates ignored)."""
    mine, theirs = solved_values(state, x), solved_values(target, x)
    if mine is None or theirs is None:
        return False
    covered = all(any(_equal(m, t) for t in theirs) for m in mine)
    return covered and all(any(_equal(m, t) for m in mine) for t in theirs)


def same_equation(state: sp.Basic, target: sp.Basic) -> bool:
    """Two equations whose sides differ by the same rearrangement (lhs − rhs equal up to a sign)."""
    if not (isinstance(state, sp.Eq) and isinstance(target, sp.Eq)):
        return False
    mine = sp.expand(state.lhs - state.rhs)
    theirs = sp.expand(target.lhs - target.rhs)
    return sp.expand(mine - theirs) == 0 or sp.expand(mine + theirs) == 0


def same_expression(state: sp.Basic, target: sp.Basic) -> bool:
    if not (isinstance(state, sp.Expr) and isinstance(target, sp.Expr)):
        return False
    return _equal(state.doit(), target.doit())


def identical(state: sp.Basic, target: sp.Basic) -> bool:
    return sp.srepr(state) == sp.srepr(target)


def same_set(state: sp.Basic, target: sp.Basic, x: sp.Symbol | None) -> bool:
    """Two statements in one unknown with the same real solution set (bounds, intervals)."""
    if x is None or not isinstance(state, sp.Basic) or isinstance(state, sp.Expr):
        return False
    try:
        return _as_set(state, x) == _as_set(target, x)
    except (NotImplementedError, TypeError, ValueError, AttributeError):
        return False


def _as_set(s: sp.Basic, x: sp.Symbol) -> sp.Set:
    if isinstance(s, sp.Contains):
        return s.args[1]
    if s.free_symbols - {x}:
        raise ValueError("more than one unknown")
    return s.as_set()


def same_family(state: sp.Basic, target: sp.Basic, x: sp.Symbol | None) -> bool:
    """Two integer-indexed families (``x = π/2 + kπ ∧ k ∈ ℤ``) with the same members."""
    from veristep.grounding.checks.periodic_family import family_of, same_families

    if x is None:
        return False
    a, b = family_of(state, x), family_of(target, x)
    if a is None or b is None or a.bounds or b.bounds:
        return False
    try:
        found = same_families(a, b)
    except (TypeError, ValueError, AttributeError, ArithmeticError):
        return False
    return found is not None and found[0] == "equivalent"


def unknown_from_target(target: sp.Basic | None) -> sp.Symbol | None:
    """The unknown the target solves for: ``r`` in ``r = \\sqrt{A/\\pi}``, ``x`` in ``x < 5``.

    >>> a, r = sp.symbols("A r")
    >>> unknown_from_target(sp.Eq(r, sp.sqrt(a)))
    r
    """
    if isinstance(target, sp.Or):
        found = {unknown_from_target(c) for c in target.args}
        return found.pop() if len(found) == 1 else None
    if isinstance(target, sp.Contains):
        return target.args[0] if isinstance(target.args[0], sp.Symbol) else None
    if isinstance(target, sp.And):
        found = {unknown_from_target(c) for c in target.args if not isinstance(c, sp.Contains)}
        return found.pop() if len(found) == 1 else None
    if isinstance(target, sp.Rel):
        for side, other in ((target.lhs, target.rhs), (target.rhs, target.lhs)):
            if isinstance(side, sp.Symbol) and not other.has(side):
                return side
    return None
