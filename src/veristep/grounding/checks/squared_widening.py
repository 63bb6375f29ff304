"""Squaring both sides where the natural domains differ: ``\\sqrt{l/g} = \\frac{T}{2\\pi}`` →
``\\frac{l}{g} = \\frac{T^2}{4\\pi^2}`` widens.

The residual checks (``branch_pair`` among them) stand aside when the two states' natural domains
differ, because a residual built by SymPy forgets where its terms were defined. This check claims
only the inclusion, which survives that: at a point where the previous holds, both sides are
defined and equal, so their squares are, and the next is defined there too (every condition of
its domain is one of the previous one's).

>>> from sympy import Eq, sqrt, symbols
>>> l, T = symbols("l T", real=True)
>>> squared_widening(Eq(sqrt(l), T), Eq(l, T**2), Context()).relation.value
'widens'
"""

from __future__ import annotations

from sympy import Basic

from veristep.core.tiers import Relation
from veristep.grounding import cas
from veristep.grounding.checks.branch_pair import squared_pair
from veristep.grounding.decision import Context, Decision
from veristep.grounding.statements import OPAQUE, kind, residual


def squared_widening(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    """Widens when the next is the previous squared and is defined wherever the previous is;
    where the two domains are the same, ``branch_pair`` decides instead."""
    from veristep.grounding.domain import conditions

    if not kind(prev) == kind(nxt) == "eq" or prev.has(*OPAQUE) or nxt.has(*OPAQUE):
        return None
    before, after = conditions(prev), conditions(nxt)
    if before == after or not after <= before:
        return None
    if cas.run(squared_pair, prev.lhs, prev.rhs, residual(nxt), ctx=ctx).value is True:
        return Decision.grounded(
            Relation.WIDENS,
            "squares both sides: every solution survives (the next is defined wherever the "
            "previous is), extraneous ones may appear",
        )
    return None
