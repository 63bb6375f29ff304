"""Systems in several variables: ∧ of equations, and ∨ of such systems (``x = 2 ∧ y = x``).

Each state is put in disjunctive normal form and every conjunct solved for all its variables. A
solution of the next state that fails the previous one refutes, with the point as the witness —
this works even when a solution family is infinite (free variables are set to 0). When both
states have finitely many real solutions the two sets are compared; polynomial systems are solved
completely (Gröbner bases), so their relation is grounded, any other system's only verified.

>>> from sympy import And, Eq, symbols
>>> x, y = symbols("x y", real=True)
>>> relate_systems(And(Eq(2*x + 3*y, 6), Eq(-2*x, -3)), And(Eq(3*y, 3), Eq(x, 3)), (x, y))[0]
'new'
>>> relate_systems(And(Eq(x**2 + y**2, 8), Eq(x, y)), And(Eq(2*x**2, 8), Eq(y, x)), (x, y))[0]
'equal'
"""

from __future__ import annotations

from typing import Any

from sympy import And, Basic, Expr, Or, S, Symbol, cos, cot, csc, pi, sec, sin, solve, tan
from sympy import degree as degree_in
from sympy.logic.boolalg import BooleanFalse, BooleanTrue, to_dnf

from veristep.core.tiers import Relation, Tier
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.rewrite import zero_test
from veristep.grounding.statements import OPAQUE, atoms_of, kind, symbols_of, truth_value

_MAX_SOLUTIONS = 12
_FILL = (S.Zero, S.One, S(2))
_UNDERDETERMINED_SHARE = 0.25  # of the CAS limit, for a search that can only tell states apart


def system(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    syms = tuple(symbols_of(prev, nxt))
    if len(syms) < 2 or len(syms) > 4 or not (_equations(prev) and _equations(nxt)):
        return None
    if prev.has(*OPAQUE) or nxt.has(*OPAQUE):
        return None  # a derivative or an unknown function is no unknown a solver can solve for
    family = _underdetermined(prev, nxt, syms)
    share = _UNDERDETERMINED_SHARE if family else 1.0
    out = cas.run(relate_systems, prev, nxt, syms, family, ctx=ctx, share=share)
    if not out.ok:
        return None
    tag, detail, polynomial = out.value
    tier = Tier.GROUNDED if polynomial else Tier.VERIFIED
    if tag == "new":
        point = ", ".join(f"{k} = {v}" for k, v in detail.items())
        return Decision.refuted(f"{point} solves the next step but not the previous one", detail)
    if tag == "empty":
        point = ", ".join(f"{k} = {v}" for k, v in detail.items())
        reason = f"the next step has no real solution, but {point} solves the previous one"
        return Decision.refuted(reason, detail)
    if tag == "equal":
        return Decision(Relation.EQUIVALENT, tier, "the same real solutions of the system")
    if tag == "narrows":
        return Decision(Relation.NARROWS, tier, f"loses the solution(s) {detail}")
    if tag == "widens":
        return Decision(Relation.WIDENS, tier, f"adds the solution(s) {detail}")
    return None


def _equations(s: Basic) -> bool:
    return all(kind(a) in ("eq", "bool") for a in atoms_of(s)) and kind(s) in ("eq", "and", "or")


def _underdetermined(prev: Basic, nxt: Basic, syms: tuple[Symbol, ...]) -> bool:
    """Fewer equations in each state than letters, so in every conjunct too: each solution set
    is a family, never two finite sets to compare, and only a point that tells the states apart
    can decide. Solving such a family in all its letters is where the time goes (a quadratic
    formula in a, b, c and x), so the search gets a short budget of its own.

    >>> from sympy import Eq, symbols
    >>> a, x, y = symbols("a x y", real=True)
    >>> _underdetermined(Eq(a*x, 1), Eq(x, 1/a), (a, x))
    True
    >>> _underdetermined(And(Eq(x, 1), Eq(y, 2)), Eq(y, 2*x), (x, y))
    False
    """

    def count(s: Basic) -> int:
        return sum(1 for a in atoms_of(s) if kind(a) == "eq")

    return count(prev) < len(syms) and count(nxt) < len(syms)


def relate_systems(
    prev: Basic, nxt: Basic, syms: tuple[Symbol, ...], family: bool = False
) -> tuple[str, Any, bool]:
    """CAS task: ('new'|'empty'|'equal'|'narrows'|'widens'|'undecided', detail, polynomial).

    ``family``: each state has fewer equations than letters (see :func:`_underdetermined`), so
    only a point telling the states apart can decide; each conjunct is then solved for as many
    letters as it has equations, the easiest ones (see :func:`_easiest_letters`), which is enough
    to draw points from it and much cheaper than solving a quadratic formula for a.
    """
    eqs = [a.lhs - a.rhs for a in atoms_of(prev) + atoms_of(nxt) if kind(a) == "eq"]
    polynomial = all(e.is_polynomial(*syms) for e in eqs)
    sols_p, sols_n = _solutions(prev, syms, family), _solutions(nxt, syms, family)
    if sols_n is None or sols_p is None:
        return ("undecided", None, polynomial)
    # solve() lists one period of a trigonometric family (tan x = 0 gives only x = 0): the
    # family's other members, each substituted back, are solutions too.
    sols_p = sols_p + periodic_members(prev, sols_p, syms)
    sols_n = sols_n + periodic_members(nxt, sols_n, syms)
    gained = _escaping(sols_n, nxt, prev, syms)
    if gained is not None:
        # A point of the next that fails the previous refutes only if the previous also has a
        # point that fails the next; otherwise the step may just widen (x = 1 ∧ y = 2 ⇒ x = 1).
        if _escaping(sols_p, prev, nxt, syms) is not None:
            return ("new", {k.name: str(v) for k, v in gained.items()}, polynomial)
        if family:  # points drawn from a partial solution prove nothing beyond themselves
            return ("undecided", None, polynomial)
        if _finite(sols_p, syms) and all(_holds(nxt, p) is True for p in sols_p):
            return ("widens", ", ".join(f"{k} = {v}" for k, v in gained.items()), polynomial)
        return ("undecided", None, polynomial)
    if family or not (_finite(sols_p, syms) and _finite(sols_n, syms)):
        return ("undecided", None, polynomial)
    if polynomial and not sols_n:
        # No real point solves the next (x² − 2x + 3 = 0): a false claim of "no solution"
        # when the previous has one, as in one variable — refuted, with that solution.
        real = [p for p in sols_p if _holds(prev, p) is True]
        if real:
            return ("empty", {k.name: str(v) for k, v in real[0].items()}, polynomial)
    extra = [s for s in sols_n if not any(_same(s, t, syms) for t in sols_p)]
    lost = [t for t in sols_p if not any(_same(t, s, syms) for s in sols_n)]
    if not extra and not lost:
        return ("equal", None, polynomial)
    if not extra:
        return ("narrows", _show(lost, syms), polynomial)
    if not lost:
        return ("widens", _show(extra, syms), polynomial)
    return ("undecided", None, polynomial)


_PERIODIC = (sin, cos, tan, cot, sec, csc)


def periodic_members(s: Basic, sols: list[dict], syms: tuple[Symbol, ...]) -> list[dict]:
    """Points of ``s`` beyond ``sols``: each variable found inside a trigonometric function
    shifted by kπ (k = ±1, ±2), the other variables solved again, kept when ``s`` holds there.

    >>> from sympy import Eq, symbols
    >>> x, y = symbols("x y", real=True)
    >>> periodic_members(And(Eq(tan(x), 0), Eq(y, x)), [{x: S.Zero, y: S.Zero}], (x, y))[0]
    {x: -pi, y: -pi}
    """
    inside = {v for f in s.atoms(*_PERIODIC) for v in f.free_symbols if v in syms}
    if not inside:
        return []
    eqs = [a.lhs - a.rhs for a in atoms_of(s) if kind(a) == "eq"]
    out: list[dict] = []
    for sol in sols:
        if not _finite([sol], syms):
            continue
        for v in sorted(inside, key=str):
            for k in (-1, 1, -2, 2):
                out += _shifted(s, eqs, v, sol[v] + k * pi, syms, sols + out)
    return out[:_MAX_SOLUTIONS]


def _shifted(s: Basic, eqs: list[Expr], v: Symbol, value: Expr, syms: tuple[Symbol, ...],
             known: list[dict]) -> list[dict]:  # fmt: skip
    others = [w for w in syms if w != v]
    fixed = [e.subs(v, value) for e in eqs]
    found = solve([e for e in fixed if e != 0], others, dict=True) if others else [{}]
    out = []
    for d in found if isinstance(found, list) else []:
        point = {v: value, **d}
        if set(point) != set(syms) or any(p.free_symbols for p in point.values()):
            continue
        if _holds(s, point) is True and not any(_same(point, q, syms) for q in known + out):
            out.append(point)
    return out


def _escaping(sols: list[dict], own: Basic, other: Basic, syms: tuple[Symbol, ...]) -> dict | None:
    """A concrete point solving ``own`` (from ``sols``) at which ``other`` is false, or None."""
    for sol in sols:
        point = _complete(sol, syms, own)
        if point is not None and _holds(other, point) is False:
            return point
    return None


def _solutions(
    s: Basic, syms: tuple[Symbol, ...], family: bool = False
) -> list[dict[Symbol, Expr]] | None:
    out: list[dict[Symbol, Expr]] = []
    dnf = to_dnf(s) if isinstance(s, (And, Or)) else s
    for conj in Or.make_args(dnf):
        if isinstance(conj, BooleanFalse):
            continue
        if isinstance(conj, BooleanTrue):
            return None  # every point solves it: no finite description
        eqs = [a.lhs - a.rhs for a in And.make_args(conj)]
        unknowns = _easiest_letters(eqs, syms) if family else list(syms)
        found = solve(eqs, unknowns, dict=True)
        if not isinstance(found, list):
            return None
        out += [d for d in found if all(v.is_real is not False for v in d.values())]
        if len(out) > _MAX_SOLUTIONS:
            return None
    return out


def _easiest_letters(eqs: list[Expr], syms: tuple[Symbol, ...]) -> list[Symbol]:
    """As many letters as there are equations, those the equations are simplest in: polynomial
    before not (a letter under a root or in a denominator), then the lowest degree. The others
    stay free, and :func:`_complete` gives them values.

    >>> from sympy import symbols, sqrt
    >>> a, b, c, x = symbols("a b c x", real=True)
    >>> _easiest_letters([x - (-b + sqrt(b**2 - 4*a*c)) / (2*a)], (a, b, c, x))
    [x]
    """

    def difficulty(v: Symbol) -> tuple[bool, int, str]:
        present = [e for e in eqs if e.has(v)]
        polynomial = all(e.is_polynomial(v) for e in present)
        degree = max((degree_in(e, v) for e in present), default=0) if polynomial else 0
        return (not polynomial, degree, v.name)

    present = [v for v in syms if any(e.has(v) for e in eqs)]
    return sorted(present, key=difficulty)[: len(eqs)]


def _complete(sol: dict[Symbol, Expr], syms: tuple[Symbol, ...], s: Basic) -> dict | None:
    """A concrete point of a (possibly infinite) solution family that really solves ``s``."""
    for fill in _FILL:
        free = {v: fill for v in syms if v not in sol}
        point = {v: S(sol.get(v, fill)).subs(free) for v in syms}
        if all(p.is_real and not p.free_symbols for p in point.values()) and _holds(s, point):
            return point
    return None


def _holds(s: Basic, point: dict[Symbol, Expr]) -> bool | None:
    return truth_value(s.subs(point))


def _finite(sols: list[dict[Symbol, Expr]], syms: tuple[Symbol, ...]) -> bool:
    return all(set(d) == set(syms) and not any(v.free_symbols for v in d.values()) for d in sols)


def _same(a: dict[Symbol, Expr], b: dict[Symbol, Expr], syms: tuple[Symbol, ...]) -> bool:
    return all(zero_test(a[v] - b[v])[0] == "zero" for v in syms)


def _show(sols: list[dict[Symbol, Expr]], syms: tuple[Symbol, ...]) -> str:
    return "; ".join(", ".join(f"{v} = {d[v]}" for v in syms) for d in sols[:4])
