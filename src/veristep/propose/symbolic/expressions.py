"""Expression work: the rewrites a teacher names (expand, factor, combine or split fractions,
and the trigonometric, logarithm and exponent identities), each one move.

>>> x = sp.Symbol("x")
>>> [m.name for m in rewrite_moves((x + 1) ** 2, None)]
['expand']
"""

from __future__ import annotations

import time
from collections.abc import Callable

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem

# (name, operation, justification, function). Order matters: the search tries cheap, common first.
_REWRITES: list[tuple[str, str, str, Callable[[sp.Basic], sp.Basic]]] = [
    ("expand", "expand the brackets", "distributive law", sp.expand),
    (
        "expand-trig",
        "expand with the angle-sum and double-angle formulas",
        "$\\sin(a+b)$, $\\cos(a+b)$ and double-angle identities",
        sp.expand_trig,
    ),
    ("factor", "factor", "factorisation over the rationals", sp.factor),
    (
        "cancel",
        "cancel common factors",
        "a common factor of numerator and denominator divides out",
        sp.cancel,
    ),
    (
        "together",
        "combine the fractions over a common denominator",
        "adding fractions",
        sp.together,
    ),
    (
        "apart",
        "split into partial fractions",
        "partial-fraction decomposition",
        lambda e: sp.apart(e) if len(e.free_symbols) == 1 else e,
    ),
    (
        "trigsimp",
        "simplify the trigonometric expression",
        "several trigonometric identities at once (computer algebra simplification)",
        sp.trigsimp,
    ),
    (
        "expand-log",
        "split the logarithm",
        "$\\ln(ab) = \\ln a + \\ln b$, $\\ln a^k = k \\ln a$",
        lambda e: sp.expand_log(e, force=True),
    ),
    (
        "combine-log",
        "combine the logarithms",
        "$\\ln a + \\ln b = \\ln(ab)$, $k \\ln a = \\ln a^k$",
        lambda e: sp.logcombine(e, force=True),
    ),
    ("powsimp", "combine the powers", "$a^m a^n = a^{m+n}$", lambda e: sp.powsimp(e, force=True)),
    (
        "expand-power",
        "split the powers",
        "$a^{m+n} = a^m a^n$",
        lambda e: sp.expand_power_exp(sp.expand_power_base(e, force=True)),
    ),
    ("radsimp", "rationalise the denominator", "multiply by the conjugate", sp.radsimp),
    (
        "collect",
        "collect the powers of x",
        "distributive law",
        lambda e: (
            sp.collect(sp.expand(e), sorted(e.free_symbols, key=str)[0]) if e.free_symbols else e
        ),
    ),
    ("simplify", "simplify", "algebraic simplification", sp.simplify),
]


def rewrite_moves(
    state: sp.Basic, p: Problem | None, skip: frozenset[str] = frozenset()
) -> list[Move]:
    """Every named rewrite that changes the state, in the order above (the search ranks them);
    the names in ``skip`` are not even computed (``simplify`` can take seconds)."""
    if isinstance(state, sp.Eq | sp.Or | sp.And) or not isinstance(state, sp.Expr):
        return []
    moves: list[Move] = []
    seen = {sp.srepr(state)}
    for name, operation, why, fn in _REWRITES:
        if name in skip:
            continue
        if p is not None and p.deadline is not None and time.monotonic() > p.deadline:
            break
        try:
            new = fn(state)
        except (sp.PolynomialError, NotImplementedError, ValueError, TypeError):
            continue
        key = sp.srepr(new)
        if key in seen:
            continue
        seen.add(key)
        moves.append(Move(name, operation, why, "rewrite", new))
    return moves


def arithmetic_move(state: sp.Basic) -> list[Move]:
    """Carry out the arithmetic left unevaluated by a previous move (2 \\cdot \\frac{1}{2} → 1)."""
    if not isinstance(state, sp.Expr):
        return []
    done = sp.simplify(state.doit())
    if sp.srepr(done) == sp.srepr(state):
        return []
    return [Move("arithmetic", "simplify", "arithmetic", "rewrite", done)]
