"""Clearing denominators: multiplying both sides by a factor that the previous state already
requires to be nonzero.

``y = (x+1)/(x-1) → xy − y = x + 1`` drops the restriction x ≠ 1. Where the previous state is
defined the two are equivalent (the factor is nonzero there); the only values the next state can
add are the dropped zeros, so each is substituted into the next state:

- it fails there (x = 1 gives 0 = 2): nothing is added, the step is **equivalent**;
- it fails there whenever the parameters keep the values the previous state allows
  (``1/f = 1/u + 1/v → uv = fu + fv`` at f = 0 reads uv = 0, impossible for u, v ≠ 0): the step
  adds only points where the previous state is undefined in its parameters too. Over all the
  symbols that is a widening (🥈 at best), and the reason names those points.

Unlike the residual checks this one decides *because* the domains differ, so it only trusts
restrictions it can see: every dropped condition must be a denominator (``g ≠ 0``), and the next
state may not add one of its own.

>>> from sympy import symbols
>>> x, y = symbols("x y", real=True)
>>> clearing(y - (x + 1) / (x - 1), x*y - y - x - 1, [x - 1], frozenset({x - 1}))
('equivalent', x - 1, [])
"""

from __future__ import annotations

from typing import Any

from sympy import Basic, Expr, Ne, Poly, cancel, fraction, together

from veristep.core.tiers import Relation, Tier
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.domain import conditions
from veristep.grounding.statements import kind, primitive_factors, residual


def cleared_denominator(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    if not (kind(prev) == kind(nxt) == "eq"):
        return None
    before, after = conditions(prev), conditions(nxt)
    if not after < before:  # the next state must drop restrictions and add none
        return None
    dropped = before - after
    if not all(isinstance(c, Ne) and c.rhs == 0 for c in dropped):
        return None  # a dropped sign condition (√, log) is not a denominator: not this check
    nonzero = frozenset(c.lhs for c in before if isinstance(c, Ne) and c.rhs == 0)
    lost = sorted((c.lhs for c in dropped), key=str)
    out = cas.run(clearing, residual(prev), residual(nxt), lost, nonzero, ctx=ctx)
    if not out.ok or out.value is None:
        return None
    tag, factor, degenerate = out.value
    if tag == "equivalent":
        zeros = ", ".join(f"{g} = 0" for g in lost)
        return Decision.grounded(
            Relation.EQUIVALENT,
            f"both sides multiplied by {factor}, nonzero wherever the previous step is defined; "
            f"at {zeros} the next step does not hold, so nothing is added",
        )
    where = "; ".join(f"{g} = 0 with {r} = 0" for g, r in degenerate)
    return Decision(
        Relation.WIDENS,
        Tier.VERIFIED,
        f"both sides multiplied by {factor}: adds only the points {where}, where the previous "
        f"step is undefined",
        assumption="assumes the parameters keep the values the previous step allows",
    )


def clearing(
    r_prev: Expr, r_next: Expr, lost: list[Expr], nonzero: frozenset[Expr]
) -> tuple[str, Any, list[tuple[Expr, Expr]]] | None:
    """CAS task: ('equivalent' | 'degenerate', factor, [(lost factor, what the next step
    reduces to there)]), or None when the step is not a clearing of these denominators."""
    if r_prev == 0 or r_next == 0:
        return None
    q = cancel(together(r_next / r_prev))
    if q.is_number or cancel(together(q * r_prev - r_next)) != 0:
        return None
    num, den = fraction(q)
    if not (primitive_factors(num, signed=False) | primitive_factors(den, signed=False)) <= nonzero:
        return None  # the factor may vanish where the previous step is defined
    degenerate: list[tuple[Expr, Expr]] = []
    for g in lost:
        rest = _at_zero(r_next, g)
        if rest is None:
            return None
        if rest.is_number and rest != 0:
            continue
        if rest.is_number or not _factors_of(rest) <= nonzero:
            return None  # the next step may hold at a zero of g: a genuine added value
        degenerate.append((g, -rest if rest.could_extract_minus_sign() else rest))
    return ("degenerate" if degenerate else "equivalent", q, degenerate)


def _at_zero(expr: Expr, g: Expr) -> Expr | None:
    """``expr`` on the zero set of ``g``, for a g linear in one of its symbols with a numeric
    coefficient (so its zero set is that symbol expressed through the others)."""
    for s in sorted(g.free_symbols, key=str):
        poly = Poly(g, s)
        if poly.degree() != 1 or not poly.LC().is_number or poly.LC() == 0:
            continue
        root = -poly.nth(0) / poly.LC()
        return cancel(together(expr.subs(s, root)))
    return None


def _factors_of(e: Expr) -> set[Expr]:
    num, den = fraction(e)
    return primitive_factors(num, signed=False) | primitive_factors(den, signed=False)
