"""Points on both sides of every sign condition a power, root or logarithm law depends on.

``(u^m)^n = u^{mn}``, ``\\sqrt{u^2} = u``, ``(ab)^n = a^n b^n``, ``\\ln u^n = n \\ln u`` hold only
where the bases are positive (or the exponent is an integer). Fixed probe points miss a base such
as ``x + 7``; a rewrite that is valid under a condition must instead be tested where the condition
fails. This module reads the condition off the expressions — the arguments of ``|·|`` and
``sign``, the bases of powers with a non-integer or symbolic exponent, logarithm arguments — finds
where each one changes sign, and substitutes points just either side of that boundary. A point
where both sides are finite reals and differ is a witness a person can check; finding none says
nothing (the caller keeps its weaker verdict).

>>> from sympy import Abs, Pow, Rational, symbols
>>> x = symbols("x", real=True)
>>> differing_point(Abs(x + 7) ** 3, (x + 7) ** 3, (x,))
{'x': '-8', 'previous': '1', 'next': '-1'}
>>> differing_point(Abs(x + 7), Abs(x + 7), (x,)) is None
True
"""

from __future__ import annotations

from itertools import product
from typing import Any

from sympy import Abs, Basic, Expr, FiniteSet, Pow, Rational, S, Symbol, floor, log, sign, solveset

from veristep.grounding.rewrite import is_nonzero_constant
from veristep.grounding.witness import real_value

_OFFSETS = (-1, 1, Rational(-1, 2), Rational(1, 2), -2, 2)
_MAX_ROOTS = 4
_MAX_POINTS = 400  # combinations over several variables, never more


def differing_point(a: Expr, b: Expr, syms: tuple[Symbol, ...]) -> dict[str, str] | None:
    """CAS task: a point either side of a sign condition where ``a`` and ``b`` are finite reals
    and provably differ, as ``{var: value, ..., "previous": a, "next": b}``; None if none."""
    values = {v: boundary_values(a, b, v) for v in syms}
    if not any(values.values()):
        return None
    # A variable without a sign condition (an exponent k) takes simple values, the fractions
    # among them those at which u^{mk} is real for a negative u.
    simple = (S.One, S(-1), Rational(1, 2), S(2), S.Zero, Rational(1, 4), Rational(1, 3),
              Rational(1, 6), Rational(3, 2))  # fmt: skip
    lists = [values[v] or list(simple) for v in syms]
    for combo in _limited(product(*lists)):
        subs = dict(zip(syms, combo, strict=True))
        va, vb = real_value(a, subs), real_value(b, subs)
        if va is not None and vb is not None and is_nonzero_constant(va - vb):
            return {**{v.name: str(x) for v, x in subs.items()}, "previous": str(va),
                    "next": str(vb)}  # fmt: skip
    return None


def boundary_values(a: Expr, b: Expr, var: Symbol) -> list[Any]:
    """Simple values of ``var`` either side of where a sign-conditioned subterm of ``a`` or ``b``
    that depends on ``var`` alone changes sign; [] when there is none."""
    out: list[Any] = []
    for term in sorted(conditioned(a) | conditioned(b), key=str):
        if term.free_symbols != {var}:
            continue
        try:
            roots = solveset(term, var, S.Reals)
        except Exception:  # an unsolvable condition gives no boundary, not a failure
            continue
        if not isinstance(roots, FiniteSet) or len(roots) > _MAX_ROOTS:
            continue
        for r in roots:
            if not (r.is_real and r.is_number):
                continue
            base = r if r.is_rational else floor(r)
            out += [base + d for d in _OFFSETS]
    return list(dict.fromkeys(out))


def conditioned(e: Basic) -> set[Expr]:
    """Subterms whose sign a power, root or logarithm law depends on."""
    found: set[Expr] = set()
    for node in e.atoms(Abs, sign, log, Pow):
        if isinstance(node, (Abs, sign, log)):
            found.add(node.args[0])
        elif not node.exp.is_integer and node.base.free_symbols:
            found.add(node.base)
    return found


def _limited(combos: Any) -> Any:
    for i, combo in enumerate(combos):
        if i >= _MAX_POINTS:
            return
        yield combo
