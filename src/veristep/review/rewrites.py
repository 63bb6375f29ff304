"""Factorizations and expansions in a chain of identities: ``… = a^3+2a^2-3a+1 = (a^2-a+1)(a+1)``.

A formula with letters is usually a condition, not an identity, so the machine does not refute
one on its own (``review.machine``). One place where the writer's intent is unambiguous is a chain
``u = b = d`` that has just rewritten a quantity by an identity (``u = b`` holds for every value of
the letters): the next link is a rewrite of the same quantity. When it turns an expanded polynomial
into a product of at least two non-constant factors, or a product into an expanded polynomial —
a factorization or an expansion — in the same letters and of the same degree, it is an identity
claim, and a false one is a flaw with a witness: integer values of the letters where the two sides
differ, and the true expansion.

Everything else is left alone: a first link that is not an identity (a substitution such as
``(x-y)^2 + 4xy = 1 + 4xy`` under a hypothesis), a link that changes the letters or the degree, a
sum rewritten as another sum, and any formula that is not a polynomial of modest size.

>>> [(r.previous.latex, r.link.latex) for r in rewrite_chains("$u = (x+1)^2 = x^2+2x+1$")]
[('u = (x+1)^2', '(x+1)^2 = x^2+2x+1')]
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from veristep.review.claims import Link, find_links

MAX_DEGREE = 12
MAX_LETTERS = 4
MAX_SIDE_CHARS = 300
_SEARCH = (0, 1, 2, 3, -1, -2)  # integer values tried for a witness, per letter


@dataclass(frozen=True)
class Rewrite:
    """A link of an equality chain and the link just before it in the same chain."""

    previous: Link
    link: Link


@dataclass(frozen=True)
class RewriteDecision:
    """``holds`` / ``fails`` (with ``witness``) / ``unknown`` (not a factorization or expansion
    after an identity, or not decidable here)."""

    status: str
    witness: str = ""


def rewrite_chains(text: str) -> list[Rewrite]:
    """Consecutive ``=`` links of one chain (the first's right side is the second's left side)."""
    out = []
    for previous, link in itertools.pairwise(find_links(text)):
        if previous.rel != "=" or link.rel != "=" or previous.rhs != link.lhs:
            continue
        if link.closed or link.real or max(len(link.lhs), len(link.rhs)) > MAX_SIDE_CHARS:
            continue
        if _high_power(f"{previous.lhs} {link.lhs} {link.rhs}"):
            continue  # expanding it could take the worker's whole deadline for nothing
        out.append(Rewrite(previous, link))
    return out


def _high_power(latex: str) -> bool:
    return any(int(e) > MAX_DEGREE for e in re.findall(r"\^\s*\{?\s*(\d+)", latex))


def decide_rewrite(first: str, middle: str, last: str) -> RewriteDecision:
    """Decide ``middle = last`` after ``first = middle`` (runs SymPy: call it in a worker)."""
    import sympy as sp

    sides = [_polynomial(sp, side) for side in (first, middle, last)]
    if any(side is None for side in sides):
        return RewriteDecision("unknown")
    u, b, d = sides
    if u == b or sp.expand(u - b) != 0:
        return RewriteDecision("unknown")  # the chain did not just rewrite by an identity
    letters = sorted(b.free_symbols, key=str)
    if d.free_symbols != b.free_symbols or len(letters) > MAX_LETTERS:
        return RewriteDecision("unknown")
    degrees = [sp.Poly(side, *letters).total_degree() for side in (b, d)]
    if degrees[0] != degrees[1] or degrees[0] > MAX_DEGREE or not _factorization(sp, b, d):
        return RewriteDecision("unknown")
    difference = sp.expand(b - d)
    if difference == 0:
        return RewriteDecision("holds")
    for values in itertools.product(_SEARCH, repeat=len(letters)):
        point = dict(zip(letters, values, strict=True))
        if difference.subs(point) != 0:
            at = ", ".join(f"{x} = {v}" for x, v in point.items())
            return RewriteDecision(
                "fails",
                f"at {at}: the left side is {b.subs(point)}, the right side is {d.subs(point)} "
                f"(the product expands to {sp.latex(sp.expand(_product_side(sp, b, d)))})",
            )
    return RewriteDecision("unknown")


def _polynomial(sp: Any, latex: str) -> Any:
    from veristep.mathgraph import parse_latex, to_sympy

    try:
        value = to_sympy(parse_latex(latex))
    except Exception:  # a side the parser cannot read is simply not judged
        return None
    if not isinstance(value, sp.Expr) or not value.free_symbols or not value.is_polynomial():
        return None
    return value


def _factorization(sp: Any, b: Any, d: Any) -> bool:
    """An expanded polynomial on one side, a product of two or more non-constant factors on the
    other."""
    forward = _expanded(sp, b) and _factors(sp, d) >= 2
    return forward or (_expanded(sp, d) and _factors(sp, b) >= 2)


def _product_side(sp: Any, b: Any, d: Any) -> Any:
    return d if _factors(sp, d) >= 2 else b


def _factors(sp: Any, value: Any) -> int:
    """How many non-constant factors a product has, powers counted with their exponent."""
    if isinstance(value, sp.Add):
        return 0
    count = 0
    for factor in sp.Mul.make_args(value):
        if not factor.free_symbols:
            continue
        exponent = factor.exp if isinstance(factor, sp.Pow) else 1
        count += int(exponent) if getattr(exponent, "is_Integer", False) or exponent == 1 else 1
    return count


def _expanded(sp: Any, value: Any) -> bool:
    """A sum of monomials: no term holds a sum as a factor or as the base of a power."""
    if not isinstance(value, sp.Add):
        return False
    for term in value.args:
        for factor in sp.Mul.make_args(term):
            base = factor.base if isinstance(factor, sp.Pow) else factor
            if isinstance(base, sp.Add):
                return False
    return True
