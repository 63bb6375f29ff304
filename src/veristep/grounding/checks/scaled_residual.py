"""Multiplying or dividing both sides: the residuals differ by a factor k = r_prev / r_next.

- k a nonzero number: equivalent, grounded (usually already settled by symbolic equivalence);
- k free of the unknown (a parameter such as ``a``): equivalent wherever k ≠ 0, and the case k = 0
  is lost by dividing (narrows) or added by multiplying (widens), naming k;
- r_next = r_prev · q with q depending on the unknown: multiplying by q can only add roots (widens);
- r_prev = r_next · q: dividing by q can only lose roots (narrows).

>>> from sympy import symbols
>>> x, a = symbols("x a", real=True)
>>> scale_factor(a*x**2 + a, x**2 + 1, x)
('param', a)
>>> scale_factor(x**2 - x, x - 1, x)
('divides', x)
"""

from __future__ import annotations

from typing import Any

from sympy import Basic, Expr, S, Symbol, cancel, factor_list, fraction, solveset, together

from veristep.core.tiers import Relation, Tier
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.rewrite import is_nonzero_constant
from veristep.grounding.statements import (
    domain_factors,
    kind,
    primitive_factors,
    residual,
    unknown,
)


def scaled_residual(
    prev: Basic, nxt: Basic, ctx: Context, var: Symbol | None = None
) -> Decision | None:
    """``var``: the unknown when the caller knows it better than the two equations show (a
    condition ``v > 0`` written beside them names it)."""
    if not (kind(prev) == kind(nxt) == "eq"):
        return None
    var = var or unknown(prev, nxt)
    if var is None:
        return None
    out = cas.run(scale_factor, residual(prev), residual(nxt), var, ctx=ctx)
    if not out.ok:
        return None
    tag, k = out.value
    dom_p, dom_n = domain_factors(prev), domain_factors(nxt)
    if {f for f in dom_p if f.has(var)} != {f for f in dom_n if f.has(var)}:
        return _inclusion(tag, k, dom_p, dom_n)
    if tag == "const" and dom_p == dom_n:
        if k == 1:  # a term moved across (add 2 to both sides): nothing was scaled
            return Decision.grounded(Relation.EQUIVALENT, "the same equation rearranged")
        return Decision.grounded(Relation.EQUIVALENT, f"both sides scaled by the number {k}")
    if tag == "param":
        return _parameter(k)
    if tag in ("divides", "multiplies") and primitive_factors(k, signed=False) <= dom_p & dom_n:
        # The roots of the factor lie outside the domain both states already have.
        verb = "divided" if tag == "divides" else "multiplied"
        return Decision.grounded(
            Relation.EQUIVALENT, f"both sides {verb} by {k}, which is nonzero on the domain"
        )
    return _inclusion(tag, k, dom_p, dom_n)


def _parameter(k: Expr) -> Decision | None:
    # r_prev = k·r_next with k free of the unknown. Where k ≠ 0 the states are equivalent; at a
    # zero of k's numerator the previous holds for every value (dividing loses that case), at a
    # zero of its denominator the previous is undefined (multiplying adds that case).
    num, den = fraction(k)
    if not den.free_symbols:
        return Decision(
            Relation.NARROWS,
            Tier.GROUNDED,
            f"both sides divided by {num}: equivalent wherever {num} ≠ 0; "
            f"the case {num} = 0 is lost",
            assumption=f"assumes {num} ≠ 0",
        )
    if not num.free_symbols:
        return Decision.grounded(
            Relation.WIDENS,
            f"both sides multiplied by {den}: equivalent wherever {den} ≠ 0; "
            f"the case {den} = 0 is added",
        )
    return None


def _inclusion(
    tag: str, k: Expr, dom_p: frozenset[Expr], dom_n: frozenset[Expr]
) -> Decision | None:
    # A factor with the unknown in it makes only an inclusion certain, and only when the side
    # that must contain the other does not lose any of its domain.
    if tag == "multiplies" and dom_n <= dom_p:
        return Decision.grounded(
            Relation.WIDENS, f"both sides multiplied by {k}: its roots may be extraneous"
        )
    if tag == "divides" and dom_p <= dom_n:
        return Decision.grounded(
            Relation.NARROWS, f"both sides divided by {k}: solutions where {k} = 0 are lost"
        )
    return None


def scale_factor(r_prev: Expr, r_next: Expr, var: Symbol) -> tuple[str, Any]:
    """CAS task: ('const'|'param'|'multiplies'|'divides'|'none', factor)."""
    if r_next == 0 or r_prev == 0:
        return ("none", None)
    k = cancel(together(r_prev / r_next))
    if k.is_number:
        return ("const", k) if is_nonzero_constant(k) else ("none", None)
    if not k.has(var):
        return ("param", k)
    num, den = fraction(k)
    if den.is_number and not num.is_number:
        return ("divides", k)
    if num.is_number and not den.is_number:
        return ("multiplies", cancel(1 / k))
    return ("none", None)


def zeros_excluded(r_prev: Expr, r_next: Expr, var: Symbol, kept: tuple[Basic, ...]) -> bool:
    """CAS task: ``r_prev = k · r_next`` where every zero and pole of k, and of either residual's
    denominator, is a value of ``var`` alone that a kept condition (a relation in ``var`` alone,
    written unchanged on both sides) makes false, while k's part free of ``var`` is a nonzero
    number. Then the two equations agree wherever the conditions hold: multiplying
    ``\\frac{kqQ}{r^2} = F`` by ``r^2`` beside ``r > 0`` loses and adds nothing."""
    guards = [c for c in kept if c.free_symbols == {var}]
    if not guards or r_next == 0 or r_prev == 0:
        return False
    k = cancel(together(r_prev / r_next))
    num, den = fraction(k)
    suspects: list[Expr] = []
    for part in (num, den):
        coeff, factors = factor_list(part)
        if not (coeff.is_number and coeff != 0):
            return False
        for f, _ in factors:
            if f.free_symbols != {var}:
                return False  # a parameter in the factor: its zeros move with the parameter
            suspects.append(f)
    for r in (r_prev, r_next):
        suspects += [f for f, _ in factor_list(fraction(together(r))[1])[1] if f.has(var)]
    for f in suspects:
        if f.free_symbols != {var}:
            return False
        zeros = solveset(f, var, S.Reals)
        if not zeros.is_FiniteSet:
            return False
        for z in zeros:
            if not any(g.subs(var, z) is S.false for g in guards):
                return False
    return True
