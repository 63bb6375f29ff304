"""Periodic families written out: ``x = π/6 + 2kπ ∨ x = 5π/6 + 2kπ ∧ k ∈ ℤ``.

A state that names an integer ``k`` and gives the unknown as expressions linear in k (optionally
with bounds on the unknown) is a *family*. Three steps involve one:

- an equation → its general solution: **every member solves the equation** (substituted with k
  an integer symbol, the equation simplifies to an identity) and **every solution is a member**
  (each of SymPy's integer-indexed solution families ``g(n) = g₀ + g₁n`` is ``f(a n + b)`` of one
  written branch ``f(k) = f₀ + f₁k`` with integers a, b; an isolated solution is some ``f(k)``);
- a family with bounds → the finitely many members inside them (enumerated exactly);
- a family → the same family written differently (containment both ways, as above).

A member that does not solve the equation refutes the step with that member as the witness; a
solution outside the family is a lost value (narrows). Anything else is left undecided.

>>> from sympy import Contains, Eq, S, Symbol, pi, sin
>>> x, k = Symbol("x", real=True), Symbol("k", real=True)
>>> family = Contains(k, S.Integers) & (Eq(x, pi / 6 + 2 * k * pi) | Eq(x, 5 * pi / 6 + 2 * k * pi))
>>> relate_family(Eq(sin(x), S.Half), family, x)[0]
'equivalent'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sympy import (
    And,
    Basic,
    Contains,
    Eq,
    Expr,
    FiniteSet,
    ImageSet,
    Or,
    S,
    Symbol,
    Union,
    ceiling,
    floor,
    igcd,
    ilcm,
    nan,
    simplify,
    zoo,
)
from sympy.core.relational import Relational

from veristep.core.tiers import Relation, Tier
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.solving import holds, real_solution_set
from veristep.grounding.witness import show

_MAX_MEMBERS = 200  # a bounded family with more members than this is not enumerated


@dataclass(frozen=True)
class Family:
    index: Symbol  # k, as written (real); members use an integer twin
    branches: tuple[Expr, ...]  # x = branch(k)
    bounds: frozenset[Basic]  # relations in x alone


def family_of(state: Basic, x: Symbol) -> Family | None:
    """The family a state writes, or None when it is not one."""
    if not isinstance(state, And):
        return None
    ints = [a for a in state.args if isinstance(a, Contains) and a.args[1] == S.Integers]
    if len(ints) != 1 or not isinstance(ints[0].args[0], Symbol):
        return None
    k = ints[0].args[0]
    branches: list[Expr] = []
    bounds: set[Basic] = set()
    for arg in state.args:
        if arg is ints[0]:
            continue
        if _is_bound(arg, x):
            bounds.add(arg)
            continue
        for case in Or.make_args(arg):
            if not (isinstance(case, Eq) and case.lhs == x and case.rhs.has(k)):
                return None
            if not _linear_in(case.rhs, k):
                return None
            branches.append(case.rhs)
    return Family(k, tuple(branches), frozenset(bounds)) if branches else None


def equation_part(state: Basic, x: Symbol) -> tuple[Basic, frozenset[Basic]] | None:
    """(the equation, its bounds) of a state in x alone that is not a family."""
    parts = list(And.make_args(state))
    bounds = frozenset(p for p in parts if _is_bound(p, x))
    core = [p for p in parts if p not in bounds]
    if len(core) != 1 or core[0].free_symbols != {x} or isinstance(core[0], Contains):
        return None
    return core[0], bounds


def _is_bound(arg: Basic, x: Symbol) -> bool:
    return isinstance(arg, Relational) and not isinstance(arg, Eq) and arg.free_symbols == {x}


def _linear_in(e: Expr, k: Symbol) -> bool:
    slope = e.diff(k)
    return slope.is_number and slope != 0 and not slope.has(k)


def periodic_family(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    from veristep.grounding.statements import symbols_of

    syms = [s for s in symbols_of(prev, nxt) if s.name == "x"] or list(symbols_of(prev, nxt))
    for x in syms:
        if family_of(prev, x) is None and family_of(nxt, x) is None:
            continue
        out = cas.run(relate_family, prev, nxt, x, ctx=ctx)
        if out.ok and out.value is not None:
            return _decision(out.value, x)
    return None


def _decision(result: tuple[str, Any], x: Symbol) -> Decision | None:
    tag, value = result
    if tag == "equivalent":
        return Decision.grounded(Relation.EQUIVALENT, value)
    if tag == "new":
        reason = f"{x} = {show([value])} is admitted but does not solve the previous step"
        return Decision.refuted(reason, [value])
    if tag == "widens":
        reason = f"admits {x} = {show([value])}, which does not solve the previous step"
        return Decision(Relation.WIDENS, Tier.GROUNDED, reason, [value])
    if tag == "lost":
        return Decision.grounded(
            Relation.NARROWS, f"loses {x} = {show([value])}, which solves the previous step"
        )
    return None


def relate_family(prev: Basic, nxt: Basic, x: Symbol) -> tuple[str, Any] | None:
    """CAS task: ('equivalent', reason) | ('new' | 'widens' | 'lost', value), or None."""
    fp, fn = family_of(prev, x), family_of(nxt, x)
    if fp is not None and fn is not None:
        if fp.bounds or fn.bounds:
            return None
        return same_families(fp, fn)
    if fn is not None:
        eq = equation_part(prev, x)
        if eq is None or eq[1] != fn.bounds:
            return None
        return _general_solution(eq[0], fn, x)
    if fp is not None:
        return _members_in_bounds(fp, nxt, x)
    return None


def _integer(value: Expr) -> bool:
    v = simplify(value)
    return bool(v.is_Integer)


def _member_of(value: Expr, fam: Family) -> bool | None:
    """Is ``value`` f(k) for some branch f and integer k? None when undecidable here."""
    for f in fam.branches:
        f0, f1 = f.subs(fam.index, 0), f.diff(fam.index)
        q = simplify((value - f0) / f1)
        if q.is_Integer:
            return True
        if not q.is_number:
            return None
    return False


def _piece_contained(piece: Basic, fam: Family) -> bool | None:
    if isinstance(piece, FiniteSet):
        found = [_member_of(v, fam) for v in piece]
        return None if None in found else all(found)
    if isinstance(piece, ImageSet) and piece.base_sets == (S.Integers,):
        (n,) = piece.lamda.variables
        g = piece.lamda.expr
        if not _linear_in(g, n):
            return None
        g0, g1 = g.subs(n, 0), g.diff(n)
        for f in fam.branches:
            f0, f1 = f.subs(fam.index, 0), f.diff(fam.index)
            if _integer((g0 - f0) / f1) and _integer(g1 / f1):
                return True
        return False
    return None


def _pieces(solutions: Basic) -> list[Basic]:
    return list(solutions.args) if isinstance(solutions, Union) else [solutions]


def _integer_twin(fam: Family) -> Symbol:
    return Symbol(fam.index.name, integer=True)


def _classify(added: Expr | None, lost: Expr | None, same: str) -> tuple[str, Any]:
    """Both a value added and one lost: refuted; one of them: widens or narrows; neither: equal."""
    if added is not None and lost is not None:
        return ("new", added)
    if added is not None:
        return ("widens", added)
    if lost is not None:
        return ("lost", lost)
    return ("equivalent", same)


def _general_solution(eq: Basic, fam: Family, x: Symbol) -> tuple[str, Any] | None:
    if any(v.has(zoo, nan) for v in fam.branches):
        return None
    added = _failing_member(eq, fam, x)
    if added is False:
        return None  # a member that may fail, and none found that does: undecided
    lost = None
    for piece in _pieces(real_solution_set(eq, x)):
        inside = _piece_contained(piece, fam)
        if inside is None:
            return None
        if not inside:
            lost = _first_outside(piece, fam, eq, x)
            if lost is None:
                return None
            break
    same = "every member solves the equation and every solution is a member"
    return _classify(added, lost, same)


def _failing_member(eq: Basic, fam: Family, x: Symbol) -> Expr | bool | None:
    """None when every member provably solves ``eq`` (substituted with k an integer symbol); a
    member inside the bounds that does not solve it; False when neither could be shown."""
    n = _integer_twin(fam)
    for f in fam.branches:
        if simplify(eq.subs(x, f.subs(fam.index, n))) is S.true:
            continue
        for j in (0, 1, -1, 2, -2):
            v = f.subs(fam.index, j)
            if all(holds(b, x, v) is True for b in fam.bounds) and holds(eq, x, v) is False:
                return v
        return False
    return None


def _first_outside(piece: Basic, fam: Family, eq: Basic, x: Symbol) -> Expr | None:
    from veristep.grounding.solving import members

    for v in members(piece):
        outside = _member_of(v, fam) is False and holds(eq, x, v) is True
        if outside and all(holds(b, x, v) is True for b in fam.bounds):
            return v
    return None


def same_families(a: Family, b: Family) -> tuple[str, Any] | None:
    """Both written with a common period L (a multiple of every slope): the families are equal
    exactly when their members in one period [0, L) are."""
    slopes = [f.diff(fam.index) for fam in (a, b) for f in fam.branches]
    ratios = [simplify(s / slopes[0]) for s in slopes]
    if not all(r.is_Rational for r in ratios):
        return None
    period = abs(slopes[0] * ilcm(*(r.p for r in ratios)) / igcd(*(r.q for r in ratios)))
    one, other = _residues(a, period), _residues(b, period)
    if one is None or other is None:
        return None
    lost = [v for v in one if not any(simplify(v - w) == 0 for w in other)]
    new = [w for w in other if not any(simplify(w - v) == 0 for v in one)]
    same = f"the two families have the same members in each period {period}"
    return _classify(new[0] if new else None, lost[0] if lost else None, same)


def _residues(fam: Family, period: Expr) -> list[Expr] | None:
    out: list[Expr] = []
    for f in fam.branches:
        f0, f1 = f.subs(fam.index, 0), f.diff(fam.index)
        count = simplify(period / abs(f1))
        if not count.is_Integer or count > _MAX_MEMBERS:
            return None
        for j in range(int(count)):
            t = simplify((f0 + f1 * j) / period)
            if not t.is_number:
                return None
            out.append(simplify((t - floor(t)) * period))
    return out


def _members_in_bounds(fam: Family, nxt: Basic, x: Symbol) -> tuple[str, Any] | None:
    inside = members_within(fam, x)
    if inside is None:
        return None
    written = real_solution_set(nxt, x)
    if not isinstance(written, FiniteSet):
        return None
    extra = [w for w in written if not any(simplify(w - v) == 0 for v in inside)]
    missing = [v for v in inside if not any(simplify(w - v) == 0 for w in written)]
    added = None
    if extra:
        w = extra[0]
        if not (_member_of(w, fam) is False or not all(holds(b, x, w) is True for b in fam.bounds)):
            return None  # not shown to lie outside the family: undecided
        added = w
    same = "exactly the members of the family within the bounds"
    return _classify(added, missing[0] if missing else None, same)


def members_within(fam: Family, x: Symbol) -> list[Expr] | None:
    """The members inside the bounds, or None when the bounds leave infinitely many (or more
    than a few hundred)."""
    out: list[Expr] = []
    for f in fam.branches:
        f0, f1 = f.subs(fam.index, 0), f.diff(fam.index)
        lo, hi = _k_range(fam.bounds, f0, f1, x)
        if lo is None or hi is None or hi - lo > _MAX_MEMBERS:
            return None
        for j in range(lo, hi + 1):
            v = simplify(f0 + f1 * j)
            if all(holds(b, x, v) is True for b in fam.bounds):
                out.append(v)
    return out


def _k_range(bounds: frozenset[Basic], f0: Expr, f1: Expr, x: Symbol) -> tuple[Any, Any]:
    """A range of integer k that covers every k with f0 + f1·k inside the bounds (a superset:
    each member is re-checked against the bounds)."""
    from sympy import solve_univariate_inequality

    k = Symbol("k_", real=True)
    interval = S.Reals
    for b in bounds:
        interval = interval & solve_univariate_inequality(b.subs(x, f0 + f1 * k), k, False)
    if interval.is_empty:
        return 0, -1
    lo, hi = interval.inf, interval.sup
    if not (lo.is_finite and hi.is_finite):
        return None, None
    return int(floor(lo)), int(ceiling(hi))
