"""Taking the square root under a sign condition: ``r² = c ∧ r > 0 → r = √c``.

With ``r ≥ 0`` the two are equivalent (r² = c and r ≥ 0 say exactly r = √c, and c ≥ 0 follows).
With ``r > 0`` the next state also admits r = 0 where c = 0: a widening at one degenerate value of
the parameters only (🥈, "assumes c ≠ 0"); when c is a nonzero number nothing is added at all.

>>> from sympy import Eq, Gt, Symbol, pi, sqrt
>>> r, A = Symbol("r", real=True), Symbol("A", real=True)
>>> signed_root_relation(r**2 - A / pi, Gt(r, 0), Eq(r, sqrt(A / pi)), r)
('degenerate', A/pi)
"""

from __future__ import annotations

from typing import Any

from sympy import And, Basic, Eq, Expr, Ge, Gt, Le, Lt, Poly, Symbol, cancel, sqrt

from veristep.core.tiers import Relation, Tier
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.statements import residual


def signed_root(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    # Conditions on the parameters alone (c ≥ 0, which the written √c carries) may stand beside
    # either state: those of the previous must all be kept, the new ones must follow from r² = c.
    if not isinstance(prev, And):
        return None
    roots = [a for a in And.make_args(nxt) if isinstance(a, Eq)]
    if len(roots) != 1:
        return None
    r = _isolated(roots[0])
    if r is None:
        return None
    eqs = [a for a in prev.args if isinstance(a, Eq)]
    signs = [a for a in prev.args if _sign_of(a, r) is not None]
    kept = {a for a in prev.args if a not in eqs and a not in signs}
    added = {a for a in And.make_args(nxt) if a is not roots[0]}
    if len(eqs) != 1 or len(signs) != 1 or not kept <= added:
        return None
    if any(a.has(r) for a in kept | added):
        return None
    out = cas.run(
        signed_root_relation, residual(eqs[0]), signs[0], roots[0], r, frozenset(added - kept),
        ctx=ctx,
    )  # fmt: skip
    if not out.ok or out.value is None:
        return None
    tag, c = out.value
    if tag == "equivalent":
        return Decision.grounded(
            Relation.EQUIVALENT,
            f"{r} = √({c}) says exactly {r}² = {c} with {r} ≥ 0: the root that the condition keeps",
        )
    return Decision(
        Relation.WIDENS,
        Tier.VERIFIED,
        f"the root that {signs[0]} keeps; it also admits {r} = 0 where {c} = 0, which "
        f"{signs[0]} excludes",
        assumption=f"assumes {c} ≠ 0",
    )


def _isolated(nxt: Eq) -> Symbol | None:
    for side, other in ((nxt.lhs, nxt.rhs), (nxt.rhs, nxt.lhs)):
        if isinstance(side, Symbol) and not other.has(side):
            return side
    return None


def _sign_of(cond: Basic, r: Symbol) -> str | None:
    """'>' for r > 0 (or 0 < r), '>=' for r ≥ 0, None for anything else."""
    if isinstance(cond, (Gt, Lt)) and cond.gts == r and cond.lts == 0:
        return ">"
    if isinstance(cond, (Ge, Le)) and cond.gts == r and cond.lts == 0:
        return ">="
    return None


def signed_root_relation(
    r_eq: Expr, cond: Basic, nxt: Eq, r: Symbol, implied: frozenset[Basic] = frozenset()
) -> tuple[str, Any] | None:
    """CAS task: ('equivalent' | 'degenerate', c) when the previous equation is r² = c (c free
    of r), the condition is r > 0 or r ≥ 0 and the next state is r = √c (beside conditions
    ``implied`` that must each read g ≥ 0 with g a positive multiple of c); None otherwise."""
    value = nxt.rhs if nxt.lhs == r else nxt.lhs
    poly = Poly(r_eq, r) if r_eq.is_polynomial(r) else None
    if poly is None or poly.degree() != 2 or poly.nth(1) != 0:
        return None
    lead = poly.LC()
    c = cancel(-poly.nth(0) / lead)
    if not (lead.is_number and lead != 0) or c.has(r):
        return None
    for extra in implied:  # c ≥ 0 follows from r² = c for a real r
        if not (isinstance(extra, Ge) and extra.rhs == 0):
            return None
        ratio = cancel(extra.lhs / c) if c != 0 else None
        if ratio is None or not (ratio.is_number and ratio.is_positive):
            return None
    if cancel(value - sqrt(c)) != 0 and cancel(value**2 - c) != 0:
        return None
    if cancel(value - sqrt(c)) != 0 and not value.is_nonnegative:
        return None  # not visibly the nonnegative root
    strict = _sign_of(cond, r) == ">"
    if not strict or c.is_positive or (c.is_number and c != 0):
        return ("equivalent", c)
    return ("degenerate", c)
