"""Structural identity: the two states are the same SymPy object, possibly with sides swapped.

SymPy's constructors already canonicalise ``2x`` and ``x·2``, ``a < b`` and ``b > a``, and the
order of ∨ branches, so this check costs a comparison and settles repeated or reordered states.

>>> from sympy import Eq, Gt, Lt, symbols
>>> x = symbols("x", real=True)
>>> structural(Eq(x, 2), Eq(2, x), None).reason
'identical up to swapping the two sides'
>>> structural(Lt(x, 2), Gt(2, x), None).relation.value
'equivalent'
>>> structural(Eq(x, 2), Eq(x, 3), None) is None
True
"""

from __future__ import annotations

from sympy import Basic, Eq, Ne

from veristep.core.tiers import Relation
from veristep.grounding.decision import Context, Decision


def structural(prev: Basic, nxt: Basic, ctx: Context | None) -> Decision | None:
    if prev == nxt:
        # Equal as SymPy objects does not mean written alike (± against its two roots, 2·x
        # against x·2): say what was proved, not that nothing changed.
        return Decision.grounded(
            Relation.EQUIVALENT,
            "the same as the previous state once both are normalised "
            "(order of terms, ± written out, arithmetic done)",
        )
    swapped = isinstance(prev, (Eq, Ne)) and type(prev) is type(nxt)
    if swapped and prev.lhs == nxt.rhs and prev.rhs == nxt.lhs:
        return Decision.grounded(Relation.EQUIVALENT, "identical up to swapping the two sides")
    canonical = getattr(prev, "canonical", None)
    if canonical is not None and canonical == getattr(nxt, "canonical", None):
        return Decision.grounded(Relation.EQUIVALENT, "identical up to swapping the two sides")
    return None
