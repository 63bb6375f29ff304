"""Squared pairs and branch pairs: the two moves of solving by roots.

- squaring both sides, ``A = B`` → ``A² = B²``: widens (every solution survives; extraneous roots
  may appear); the converse ``A² = B²`` → ``A = B`` narrows (the branch ``A = −B`` is lost);
- taking ± roots or splitting a product, ``R = 0`` → ``r₁ = 0 ∨ r₂ = 0 ∨ …``: equivalent when
  ``R = c·r₁·r₂·…`` identically. When the branches bring in square roots of parameters the step is
  verified (it holds wherever those roots are real), else grounded.

>>> from sympy import Eq, Or, sqrt, symbols
>>> x, a, c = symbols("x a c", real=True)
>>> product_of_branches(x**2 - c, (x - sqrt(c), x + sqrt(c)))
True
>>> squared_pair(x, a, x**2 - a**2)
True
"""

from __future__ import annotations

from sympy import Abs, Basic, Eq, Expr, Mul, N, Pow, Rational, S, expand, sign

from veristep.core.tiers import Relation
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.rewrite import relation_ratio
from veristep.grounding.statements import OPAQUE, disjuncts, domain_factors, kind, residual


def branch_pair(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    if kind(prev) == "eq" and kind(nxt) == "or" and all(isinstance(d, Eq) for d in nxt.args):
        return _branches(prev, nxt, ctx)
    if kind(nxt) == "eq" and kind(prev) == "or" and all(isinstance(d, Eq) for d in prev.args):
        return _branches(nxt, prev, ctx)  # joining branches into one product is the same fact
    if kind(prev) == kind(nxt) == "eq" and not (prev.has(*OPAQUE) or nxt.has(*OPAQUE)):
        return _squares(prev, nxt, ctx) or _odd_powers(prev, nxt, ctx)
    return None


def _branches(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    branches = tuple(residual(d) for d in disjuncts(nxt))
    out = cas.run(product_of_branches, _unsigned_residual(prev), branches, ctx=ctx)
    if not (out.ok and out.value):
        return None
    new_domain = domain_factors(nxt) - domain_factors(prev)
    if not new_domain:
        return Decision.grounded(
            Relation.EQUIVALENT, "the previous residual is the product of the branches"
        )
    where = ", ".join(f"{f} ≥ 0" for f in sorted(new_domain, key=str))
    return Decision.verified(
        Relation.EQUIVALENT,
        f"branch pair: the branches multiply to the previous residual; holds where {where}",
    )


def _squares(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    if cas.run(squared_pair, prev.lhs, prev.rhs, residual(nxt), ctx=ctx).value is True:
        if _nonnegative(prev.lhs, prev.rhs):
            return Decision.grounded(Relation.EQUIVALENT, _NONNEG)
        return Decision.grounded(
            Relation.WIDENS,
            "squares both sides: every solution survives, extraneous roots may appear",
        )
    if cas.run(squared_pair, nxt.lhs, nxt.rhs, residual(prev), ctx=ctx).value is True:
        if _nonnegative(nxt.lhs, nxt.rhs):
            return Decision.grounded(Relation.EQUIVALENT, _NONNEG)
        return Decision.grounded(
            Relation.NARROWS, "takes one square root: the branch with the opposite sign is lost"
        )
    return None


def _odd_powers(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    """``A = B`` ⇔ ``A^n = B^n`` for odd n: t ↦ t^n is one-to-one on the reals. Taking the real
    cube root of both sides (r³ = 3V/4π → r = ∛(3V/4π)) is therefore no narrowing at all."""
    for n in odd_exponents(prev) | odd_exponents(nxt):
        if cas.run(odd_power_pair, nxt.lhs, nxt.rhs, residual(prev), n, ctx=ctx).value is True:
            return Decision.grounded(Relation.EQUIVALENT, _odd_root_words(n, "takes"))
        if cas.run(odd_power_pair, prev.lhs, prev.rhs, residual(nxt), n, ctx=ctx).value is True:
            return Decision.grounded(Relation.EQUIVALENT, _odd_root_words(n, "raises"))
    return None


def _odd_root_words(n: int, move: str) -> str:
    what = f"the real root of index {n} of" if move == "takes" else f"the odd power {n} of"
    return f"{move} {what} both sides: t ↦ t^{n} is one-to-one on the reals, no root is lost"


_MAX_ODD_POWER = 64


def odd_exponents(statement: Basic) -> frozenset[int]:
    """The odd n > 1 of the powers t^n and roots t^(p/n) written in a statement (at most three:
    each is one more comparison; none above 64, whose n-th power only runs out the clock)."""
    found = set()
    for p in statement.atoms(Pow):
        if isinstance(p.exp, Rational):
            for n in (p.exp.q, abs(p.exp.p) if p.exp.q == 1 else 1):
                if 1 < n <= _MAX_ODD_POWER and n % 2 == 1:
                    found.add(int(n))
    return frozenset(sorted(found)[:3])


def odd_power_pair(a: Expr, b: Expr, r: Expr, n: int) -> bool:
    """CAS task: ``r`` is, up to a nonzero constant, ``a^n − b^n`` (n odd), with the real root
    sign(u)·|u|^(1/n) raised back to u."""
    difference = expand(_real_powers_undone(expand(a**n - b**n)))
    return _maybe_proportional(r, difference) and relation_ratio(r, difference)[0] == "const"


def _real_powers_undone(e: Expr) -> Expr:
    """sign(u)^k → sign(u) for odd k, then sign(u)·|u| → u: what a real root to an odd power
    leaves after expansion (SymPy's simplify does the same, at many times the cost)."""
    e = e.replace(
        lambda p: p.is_Pow and isinstance(p.base, sign) and p.exp.is_odd and p.exp > 0,
        lambda p: p.base,
    )
    return e.replace(
        lambda m: m.is_Mul and any(_signed_magnitude(f, m) for f in m.args),
        _join_sign_and_magnitude,
    )


def _signed_magnitude(f: Basic, product: Basic) -> bool:
    return isinstance(f, sign) and Abs(f.args[0]) in product.args


def _join_sign_and_magnitude(product: Basic) -> Basic:
    for f in product.args:
        if _signed_magnitude(f, product):
            u = f.args[0]
            rest = [g for g in product.args if g not in (f, Abs(u))]
            return Mul(u, *rest)
    return product


def _unsigned_residual(eq: Basic) -> Expr:
    """|A| = |B| has the residual A² − B² (the same real solutions, and no absolute values)."""
    if isinstance(eq.lhs, Abs) and isinstance(eq.rhs, Abs):
        return eq.lhs.args[0] ** 2 - eq.rhs.args[0] ** 2
    return residual(eq)


_NONNEG = "squares both sides, which are never negative: no root is gained or lost"


def _nonnegative(a: Expr, b: Expr) -> bool:
    # u² = v² ⇔ u = v holds exactly when neither side can be negative (|a|, √b, positive symbols).
    return _never_negative(a) and _never_negative(b)


def _never_negative(e: Expr) -> bool:
    """Nonnegative wherever defined over the reals: a square root is never negative (where it is
    not real, neither side of the squared equation has a real solution)."""
    if e.is_nonnegative:
        return True
    if isinstance(e, Pow) and e.exp == S.Half:
        return True
    if e.is_Mul or e.is_Add:
        return all(_never_negative(f) for f in e.args)
    return False


def product_of_branches(r: Expr, branches: tuple[Expr, ...]) -> bool:
    """CAS task: ``r = c · Π branches`` for a nonzero constant c."""
    product = expand(Mul(*branches))
    return _maybe_proportional(r, product) and relation_ratio(r, product)[0] == "const"


def squared_pair(a: Expr, b: Expr, r_sq: Expr) -> bool:
    """CAS task: ``r_sq`` is, up to a nonzero constant, ``a² − b²``."""
    difference = expand(a**2 - b**2)
    return _maybe_proportional(r_sq, difference) and relation_ratio(r_sq, difference)[0] == "const"


# Points where two residuals are compared before any simplification: irregular rationals, so
# that a factor vanishing at a "nice" point (0, 1, π) does not hide the difference.
_SAMPLES = ((Rational(37, 100), Rational(-113, 70)), (Rational(151, 90), Rational(29, 41)))


def _maybe_proportional(r1: Expr, r2: Expr) -> bool:
    """False when ``r1 / r2`` takes two clearly different values at the sample points, so no
    constant ratio exists and the (slow, simplify-based) ratio test can be skipped; True when
    they agree or when the numbers say nothing (a non-real or zero value, an unevaluated part).
    Used only to give up early: a False never decides a step, it only leaves it to later checks."""
    names = sorted(r1.free_symbols | r2.free_symbols, key=str)
    ratios = []
    for first, second in _SAMPLES:
        try:
            point = {s: _sample(s, first if i % 2 == 0 else second, i)
                     for i, s in enumerate(names)}  # fmt: skip
            top, bottom = (N(e.subs(point), 30) for e in (r1, r2))
        except Exception:  # a value SymPy cannot compute: the ratio test decides
            return True
        if not (top.is_Float or top.is_zero) or not bottom.is_Float or abs(bottom) < 1e-12:
            return True
        ratios.append(top / bottom)
    scale = max(1.0, *(abs(q) for q in ratios))
    return bool(abs(ratios[0] - ratios[1]) <= 1e-9 * scale)


def _sample(symbol: Basic, value: Rational, index: int) -> Rational:
    """A value the symbol's assumptions allow (an identity may hold only for them)."""
    if symbol.is_integer:
        return Rational(index + 2 + int(bool(value > 1)))
    value = value + index
    if symbol.is_nonnegative or symbol.is_positive:
        return abs(value) + Rational(1, 3)
    return value
