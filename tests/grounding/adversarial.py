"""Adversarial steps: classic *false* rewrites with the truth decided outside the cascade.

Each family applies one rewrite that is valid only under a condition it does not state — a power,
root or logarithm law without its sign or integrality condition, a sign slip, a periodic family cut
to one member — to random bases, alone or inside a system or a conjunction. A :class:`Step` carries
the LaTeX the engine reads and the generator's own SymPy forms of both states; :func:`truth`
decides what the step really does from those forms only, by substitution: exact (SymPy, rational
points and the members the construction knows, such as the lost root or 2π) and numeric (mpmath at
60 digits on a grid), every subterm required to be a finite real. :func:`classify` then says
whether a verdict is honest.

Builders take ``pick(sequence) -> item``: Hypothesis' ``draw(sampled_from(...))`` in the test
suite, ``random.Random.choice`` in ``bench/grounding_adversarial.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from veristep.core.tiers import Relation, Tier

X, Y, K = sp.symbols("x y k", real=True)
Pick = Callable[[Sequence[Any]], Any]
_EPS = mpmath.mpf(10) ** -40
_GAP = mpmath.mpf(10) ** -30  # two expressions differ at a point by more than this
# Rational grid points: where a sign condition fails (u < 0) the rewrite shows itself.
GRID = [sp.Rational(n, 2) for n in range(-16, 17)] + [sp.Rational(n, 3) for n in (-7, -1, 1, 5)]
K_VALUES = [sp.Rational(p, q) for p, q in ((1, 2), (1, 4), (1, 6), (1, 3), (3, 4), (3, 2))] + [1, 2]


@dataclass(frozen=True)
class Step:
    family: str
    prev: str  # the LaTeX the engine reads
    nxt: str
    prev_form: Any = field(compare=False)  # the generator's own forms: the oracle reads these
    next_form: Any = field(compare=False)
    statement: bool = True
    hints: tuple[Any, ...] = ()  # points the construction knows matter (each a dict)
    where: str = "single"  # single | system | conjunction


# ------------------------------------------------------------------ bases


def _linear(pick: Pick) -> tuple[sp.Expr, str]:
    """u = p·x + q, with its LaTeX."""
    p, q = pick([1, 1, 2, -1]), pick([0, -1, 1, -2, 2, 3])
    u = p * X + q
    return u, sp.latex(u)


def _x_at(u: sp.Expr, value: Any) -> sp.Expr:
    return sp.solve(sp.Eq(u, value), X)[0]


def _pt(*xs: Any) -> tuple[dict[sp.Symbol, Any], ...]:
    return tuple({X: sp.nsimplify(v)} for v in xs)


# ------------------------------------------------------------------ families
# Equations mostly; an inequality now and then (√(u²) < 2 → u < 2 adds every u < −2).
_RELATIONS = [("=", sp.Eq), ("=", sp.Eq), ("<", sp.Lt), ("\\geq", sp.Ge)]
# Each builder returns (prev LaTeX, next LaTeX, prev form, next form, statement?, hints).


def pow_of_pow(pick: Pick) -> tuple[Any, ...]:
    """(u^m)^n → u^{mn}: needs u ≥ 0 (or n an integer)."""
    u, tu = _linear(pick)
    m, n = pick([(2, Fraction(1, 2)), (6, Fraction(1, 2)), (2, Fraction(3, 2)), (4, Fraction(1, 4)),
                 (4, Fraction(3, 4)), (6, Fraction(1, 6))])  # fmt: skip
    mn = int(m * n)
    ns = sp.Rational(n.numerator, n.denominator)
    lhs_t = rf"\left(\left({tu}\right)^{{{m}}}\right)^{{\frac{{{n.numerator}}}{{{n.denominator}}}}}"
    rhs_t = rf"\left({tu}\right)^{{{mn}}}" if mn != 1 else rf"\left({tu}\right)"
    lhs = sp.Pow(sp.Pow(u, m, evaluate=False), ns, evaluate=False)
    rhs = sp.Pow(u, mn, evaluate=False)
    if pick(["expr", "stmt"]) == "expr":
        return lhs_t, rhs_t, lhs, rhs, False, ()
    r = pick([1, 2])
    c = r**mn
    op, rel = pick(_RELATIONS)
    return (f"{lhs_t} {op} {c}", f"{rhs_t} {op} {c}", rel(lhs, c, evaluate=False),
            rel(rhs, c, evaluate=False), True, _pt(_x_at(u, r), _x_at(u, -r)))  # fmt: skip


def pow_symbolic(pick: Pick) -> tuple[Any, ...]:
    """(x^m)^k → x^{mk} with a letter k: fails at x = −1, k = 1/2 (the issue's example)."""
    m = pick([2, 4, 6])
    base = pick([X, X - 1, 2 - X])
    tb = sp.latex(base)
    lhs_t = rf"\left(\left({tb}\right)^{{{m}}}\right)^{{k}}"
    rhs_t = rf"\left({tb}\right)^{{{m} k}}"
    lhs = sp.Pow(sp.Pow(base, m, evaluate=False), K, evaluate=False)
    rhs = sp.Pow(base, m * K, evaluate=False)
    return lhs_t, rhs_t, lhs, rhs, False, ()


def pow_of_product(pick: Pick) -> tuple[Any, ...]:
    """√(uv) → √u·√v: needs u, v ≥ 0; inside an equation it loses the roots with u, v < 0."""
    a, b, root = _log_roots(pick)
    u, v = X - a, X - b
    c = (root - a) * (root - b)
    lhs_t = rf"\sqrt{{\left({sp.latex(u)}\right) \left({sp.latex(v)}\right)}} = \sqrt{{{c}}}"
    rhs_t = rf"\sqrt{{{sp.latex(u)}}} \sqrt{{{sp.latex(v)}}} = \sqrt{{{c}}}"
    lhs = sp.Eq(sp.sqrt(sp.Mul(u, v, evaluate=False), evaluate=False), sp.sqrt(c), evaluate=False)
    rhs = sp.Eq(sp.Mul(sp.sqrt(u), sp.sqrt(v), evaluate=False), sp.sqrt(c), evaluate=False)
    return lhs_t, rhs_t, lhs, rhs, True, _pt(root, a + b - root)


def root_of_power(pick: Pick) -> tuple[Any, ...]:
    """√(u²) → u, ⁴√(u⁴) → u: needs u ≥ 0."""
    u, tu = _linear(pick)
    n = pick([2, 4])
    lhs_t = (
        rf"\sqrt{{\left({tu}\right)^{{2}}}}" if n == 2 else rf"\sqrt[4]{{\left({tu}\right)^{{4}}}}"
    )
    lhs = sp.Pow(sp.Pow(u, n, evaluate=False), sp.Rational(1, n), evaluate=False)
    rhs_t = tu
    if pick(["expr", "stmt"]) == "expr":
        return lhs_t, rhs_t, lhs, u, False, ()
    r = pick([1, 2, 3])
    op, rel = pick(_RELATIONS)
    return (f"{lhs_t} {op} {r}", f"{rhs_t} {op} {r}", rel(lhs, r, evaluate=False),
            rel(u, r, evaluate=False), True, _pt(_x_at(u, r), _x_at(u, -r)))  # fmt: skip


def even_denominator(pick: Pick) -> tuple[Any, ...]:
    """(u^m)^{1/n} → u^{m/n} with m, n even: the left side is defined for every u, the right
    only for u ≥ 0."""
    u, tu = _linear(pick)
    m, n = pick([(2, 4), (6, 4), (2, 8), (6, 8)])
    frac = sp.Rational(m, n)
    lhs_t = rf"\left(\left({tu}\right)^{{{m}}}\right)^{{\frac{{1}}{{{n}}}}}"
    rhs_t = rf"\left({tu}\right)^{{\frac{{{frac.p}}}{{{frac.q}}}}}"
    lhs = sp.Pow(sp.Pow(u, m, evaluate=False), sp.Rational(1, n), evaluate=False)
    rhs = sp.Pow(u, frac, evaluate=False)
    r = pick([1, 4]) if frac.q == 2 else 1
    c = sp.Pow(r, frac)
    return (f"{lhs_t} = {sp.latex(c)}", f"{rhs_t} = {sp.latex(c)}", sp.Eq(lhs, c, evaluate=False),
            sp.Eq(rhs, c, evaluate=False), True, _pt(_x_at(u, r), _x_at(u, -r)))  # fmt: skip


def _log_roots(pick: Pick) -> tuple[int, int, int]:
    """a < b and a root > b of (x − a)(x − b) = c; the other root a + b − root is < a."""
    a = pick([-2, -1, 0, 1])
    b = a + pick([1, 2, 3])
    return a, b, b + pick([1, 2, 3])


def log_product(pick: Pick) -> tuple[Any, ...]:
    """ln(uv) → ln u + ln v: needs u, v > 0; loses the root where both are negative."""
    a, b, root = _log_roots(pick)
    u, v = X - a, X - b
    c = (root - a) * (root - b)
    lhs_t = rf"\ln\left(\left({sp.latex(u)}\right) \left({sp.latex(v)}\right)\right) = \ln {c}"
    rhs_t = rf"\ln\left({sp.latex(u)}\right) + \ln\left({sp.latex(v)}\right) = \ln {c}"
    lhs = sp.Eq(sp.log(sp.Mul(u, v, evaluate=False)), sp.log(c), evaluate=False)
    rhs = sp.Eq(sp.Add(sp.log(u), sp.log(v), evaluate=False), sp.log(c), evaluate=False)
    return lhs_t, rhs_t, lhs, rhs, True, _pt(root, a + b - root)


def log_power(pick: Pick) -> tuple[Any, ...]:
    """ln(u^n) → n ln u with n even: needs u > 0."""
    u, tu = _linear(pick)
    n, r = pick([2, 4]), pick([2, 3])
    c = r**n
    lhs_t = rf"\ln\left(\left({tu}\right)^{{{n}}}\right) = \ln {c}"
    rhs_t = rf"{n} \ln\left({tu}\right) = \ln {c}"
    lhs = sp.Eq(sp.log(sp.Pow(u, n, evaluate=False)), sp.log(c), evaluate=False)
    rhs = sp.Eq(sp.Mul(n, sp.log(u), evaluate=False), sp.log(c), evaluate=False)
    return lhs_t, rhs_t, lhs, rhs, True, _pt(_x_at(u, r), _x_at(u, -r))


def exp_log(pick: Pick) -> tuple[Any, ...]:
    """e^{ln u} → u: needs u > 0; an equation gains the roots with u ≤ 0."""
    u, tu = _linear(pick)
    c = pick([-1, -2, 0])
    lhs_t = rf"e^{{\ln\left({tu}\right)}} = {c}"
    rhs_t = rf"{tu} = {c}"
    with sp.evaluate(False):
        lhs = sp.Eq(sp.exp(sp.log(u)), c)
    return lhs_t, rhs_t, lhs, sp.Eq(u, c, evaluate=False), True, _pt(_x_at(u, c))


def sign_slip(pick: Pick) -> tuple[Any, ...]:
    """−(u − v) → −u − v, or a term moved across without changing its sign."""
    u, tu = _linear(pick)
    q = pick([1, 2, 3, 5])
    if pick(["distribute", "move"]) == "distribute":
        a, b, power = pick([1, 2, 3]), pick([1, 2, 5]), pick([1, 2, 3])
        term = X**power
        lhs_t = rf"{q} - \left({sp.latex(a * term)} - {b}\right)"  # the minus not carried to b
        rhs_t = rf"{q} - {sp.latex(a * term)} - {b}"
        return lhs_t, rhs_t, q - (a * term - b), q - a * term - b, False, ()
    c = pick([0, 4, 7])
    lhs_t, rhs_t = f"{tu} + {q} = {c}", f"{tu} = {c} + {q}"
    roots = _pt(_x_at(u, c - q), _x_at(u, c + q))
    return lhs_t, rhs_t, sp.Eq(u + q, c), sp.Eq(u, c + q), True, roots


def periodic_cut(pick: Pick) -> tuple[Any, ...]:
    """sin u = 0 → u = 0, cos u = 1 → u = 0: a periodic family cut to one member."""
    fn = pick(["sin", "cos", "tan"])
    p = pick([1, 2])
    u = p * X
    tu = sp.latex(u)
    value = 1 if fn == "cos" else 0
    f = {"sin": sp.sin, "cos": sp.cos, "tan": sp.tan}[fn]
    lhs_t, rhs_t = rf"\{fn}\left({tu}\right) = {value}", "x = 0"
    period = 2 * sp.pi if fn == "cos" else sp.pi
    members = tuple({X: k * period / p} for k in (-2, -1, 0, 1, 2))
    return lhs_t, rhs_t, sp.Eq(f(u), value), sp.Eq(X, 0), True, members


def odd_root(pick: Pick) -> tuple[Any, ...]:
    """∛(u³) → |u| (an odd root keeps the sign: false below zero), or u³ = −c → u = ∛c (the
    sign of the root slipped). The oracle's root is the real one, sgn(w)·|w|^(1/n)."""
    u, tu = _linear(pick)
    n, r = pick([3, 5]), pick([1, 2, 3])
    if pick(["abs", "sign"]) == "abs":
        lhs_t = rf"\sqrt[{n}]{{\left({tu}\right)^{{{n}}}}}"
        power = sp.Pow(u, n, evaluate=False)
        lhs = sp.Mul(sp.sign(power), sp.Pow(sp.Abs(power), sp.Rational(1, n)), evaluate=False)
        rhs_t = rf"\left|{tu}\right|"
        if pick(["expr", "stmt"]) == "expr":
            return lhs_t, rhs_t, lhs, sp.Abs(u), False, ()
        op, rel = pick(_RELATIONS)
        prev, nxt = rel(lhs, r, evaluate=False), rel(sp.Abs(u), r, evaluate=False)
        hints = _pt(_x_at(u, r), _x_at(u, -r))
        return f"{lhs_t} {op} {r}", f"{rhs_t} {op} {r}", prev, nxt, True, hints
    c = r**n
    lhs_t, rhs_t = rf"\left({tu}\right)^{{{n}}} = -{c}", rf"{tu} = \sqrt[{n}]{{{c}}}"
    return (lhs_t, rhs_t, sp.Eq(sp.Pow(u, n, evaluate=False), -c, evaluate=False),
            sp.Eq(u, r, evaluate=False), True, _pt(_x_at(u, r), _x_at(u, -r)))  # fmt: skip


FAMILIES: dict[str, Callable[[Pick], tuple[Any, ...]]] = {
    "pow_of_pow": pow_of_pow,
    "pow_symbolic": pow_symbolic,
    "pow_of_product": pow_of_product,
    "root_of_power": root_of_power,
    "odd_root": odd_root,
    "even_denominator": even_denominator,
    "log_product": log_product,
    "log_power": log_power,
    "exp_log": exp_log,
    "sign_slip": sign_slip,
    "periodic_cut": periodic_cut,
}


def make_step(family: str, pick: Pick) -> Step:
    """One false step of ``family``; a statement is placed alone, in a system with y, or in a
    conjunction with a bound that keeps every value that matters."""
    prev_t, next_t, prev_f, next_f, statement, hints = FAMILIES[family](pick)
    where = pick(["single", "system", "conjunction"]) if statement else "single"
    if where == "system":
        a = pick([1, 2, -1])
        g = a * X + pick([0, 1])
        tg = sp.latex(g)
        prev_t, next_t = rf"{prev_t} \land y = {tg}", rf"{next_t} \land y = {tg}"
        prev_f, next_f = sp.And(prev_f, sp.Eq(Y, g)), sp.And(next_f, sp.Eq(Y, g))
        if family == "periodic_cut":  # the classic: the answer states y too
            next_t = rf"x = 0 \land y = {sp.latex(g.subs(X, 0))}"
            next_f = sp.And(sp.Eq(X, 0), sp.Eq(Y, g.subs(X, 0)))
        grid = tuple({X: v} for v in GRID) if family != "periodic_cut" else ()
        hints = tuple({**h, Y: g.subs(X, h[X])} for h in hints + grid)
    elif where == "conjunction":
        bound = pick([-20, -30])
        prev_t, next_t = rf"{prev_t} \land x > {bound}", rf"{next_t} \land x > {bound}"
        prev_f = sp.And(prev_f, sp.Gt(X, bound))
        next_f = sp.And(next_f, sp.Gt(X, bound))
    return Step(family, prev_t, next_t, prev_f, next_f, statement, hints, where)


# ------------------------------------------------------------------ the oracle


def value(e: sp.Expr, point: dict[sp.Symbol, Any]) -> Any:
    """``e`` at ``point`` as a finite real (exact SymPy substitution, then 60 digits), or None
    where some subterm is undefined or not real."""
    for node in sp.postorder_traversal(e):
        if not isinstance(node, sp.Expr) or not node.free_symbols:
            continue
        v = _real(node.xreplace(point))
        if v is None:
            return None
    return _real(e.xreplace(point))


def _real(v: sp.Basic) -> Any:
    try:
        n = sp.N(v, 60)
    except Exception:
        return None
    if n.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or not n.is_number:
        return None
    re, im = n.as_real_imag()
    if abs(im) > 1e-45:
        return None
    try:
        return mpmath.mpf(str(re))
    except (TypeError, ValueError):
        return None


def holds(s: Any, point: dict[sp.Symbol, Any]) -> bool:
    if isinstance(s, sp.Or):
        return any(holds(a, point) for a in s.args)
    if isinstance(s, sp.And):
        return all(holds(a, point) for a in s.args)
    if isinstance(s, (bool, sp.logic.boolalg.BooleanAtom)):
        return bool(s)
    lhs, rhs = value(s.lhs, point), value(s.rhs, point)
    if lhs is None or rhs is None:
        return False
    d = lhs - rhs
    zero = abs(d) < _EPS * (1 + abs(lhs))
    if isinstance(s, sp.Eq):
        return zero
    if isinstance(s, sp.Ne):
        return not zero
    if isinstance(s, (sp.Gt, sp.Lt)):
        return not zero and ((d > 0) == isinstance(s, sp.Gt))
    return zero or ((d > 0) == isinstance(s, sp.Ge))


@dataclass(frozen=True)
class Truth:
    lost: dict[sp.Symbol, Any] | None = None  # solves the previous state, not the next
    added: dict[sp.Symbol, Any] | None = None  # solves the next, not the previous
    differs: dict[sp.Symbol, Any] | None = None  # expressions: both defined, different values

    @property
    def false(self) -> bool:
        return any(v is not None for v in (self.lost, self.added, self.differs))


def truth(step: Step) -> Truth:
    """What the step really does, from the generator's forms only."""
    if not step.statement:
        return Truth(differs=_differing_point(step.prev_form, step.next_form))
    lost = added = None
    syms = step.prev_form.free_symbols | step.next_form.free_symbols
    points = list(step.hints) + [{X: g} for g in GRID if syms == {X}]
    for p in points:
        a, b = holds(step.prev_form, p), holds(step.next_form, p)
        if a and not b and lost is None:
            lost = p
        if b and not a and added is None:
            added = p
    return Truth(lost=lost, added=added)


def _differing_point(a: sp.Expr, b: sp.Expr) -> dict[sp.Symbol, Any] | None:
    syms = sorted(a.free_symbols | b.free_symbols, key=str)
    grids = [K_VALUES if s == K else GRID for s in syms]
    for combo in _product(grids):
        p = dict(zip(syms, combo, strict=True))
        va, vb = value(a, p), value(b, p)
        if (
            va is not None
            and vb is not None
            and abs(va - vb) > mpmath.mpf(10) ** -30 * (1 + abs(va))
        ):
            return p
    return None


def _product(grids: list[list[Any]]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = [()]
    for g in grids:
        out = [(*o, v) for o in out for v in g]
    return out


# ------------------------------------------------------------------ judging a verdict


def classify(step: Step, verdict: Any, known: Truth) -> str:
    """refuted (its witness re-checked) | refuted-bad-witness | narrowed (an honest narrows or
    widens) | unsound | undecided."""
    rel, tier = verdict.relation, verdict.tier
    if rel is Relation.REFUTED:
        return "refuted" if witness_ok(step, verdict.witness) else "refuted-bad-witness"
    strong = tier in (Tier.GROUNDED, Tier.VERIFIED)
    if rel is Relation.EQUIVALENT and strong and known.false:
        return "unsound"
    if rel is Relation.NARROWS and strong and known.added is not None:
        return "unsound"
    if rel is Relation.WIDENS and strong and known.lost is not None:
        return "unsound"
    if rel in (Relation.NARROWS, Relation.WIDENS):
        return "narrowed"
    return "undecided"


def witness_ok(step: Step, w: Any) -> bool:
    """A refutation's witness re-checked by substitution into the generator's forms."""
    a, b = step.prev_form, step.next_form
    syms = {s.name: s for s in a.free_symbols | b.free_symbols}
    if not step.statement:
        if not isinstance(w, dict):
            return False
        point = _point_of(w, syms, "at")
        if point is None:
            return False
        va, vb = value(a, point), value(b, point)
        return va is not None and vb is not None and abs(va - vb) > _EPS * (1 + abs(va))
    if isinstance(w, list) and len(syms) == 1:
        (s,) = syms.values()
        try:
            pts = [{s: sp.sympify(v)} for v in w]
        except (sp.SympifyError, TypeError):
            return False
        # Values that solve the next and not the previous, or (no solution claimed) the previous.
        return all(holds(b, p) != holds(a, p) for p in pts)
    if isinstance(w, dict):
        point = _point_of(w, syms, None)
        return point is not None and holds(a, point) != holds(b, point)
    return False


def _point_of(w: dict[str, Any], syms: dict[str, sp.Symbol], landmark: str | None) -> Any:
    try:
        if landmark and landmark in w and len(syms) == 1 and str(w[landmark]).startswith("= "):
            (s,) = syms.values()
            return {s: sp.sympify(str(w[landmark])[2:])}
        if not set(syms) <= set(w):
            return None
        return {s: sp.sympify(w[name]) for name, s in syms.items()}
    except (sp.SympifyError, TypeError):
        return None
