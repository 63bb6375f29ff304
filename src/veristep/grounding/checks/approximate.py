"""Numeric tolerance, only for steps declared ``approximate`` or written with ≈: the next
state's numbers must match the previous state's exact values within a relative tolerance — the
larger of the configured
``approx_rel_tol`` and half a unit in the last decimal the step wrote (``1.414`` claims 4 digits).

Within tolerance the step is verified (never grounded: rounding is not equivalence); outside it is
refuted with the exact value and the written one side by side.

>>> from sympy import Eq, Float, sqrt, symbols
>>> x = symbols("x", real=True)
>>> compare_numbers(Eq(x**2, 2), Eq(x, Float("1.414")), x, 1e-6)[0]
'within-narrows'
>>> compare_numbers(sqrt(2), Float("1.5"), None, 1e-6)[:2]
('outside', {'exact': '1.41421356237310', 'written': '1.50000000000000'})
"""

from __future__ import annotations

from typing import Any

from sympy import Basic, Expr, FiniteSet, Float, Rational, S, Symbol, solveset

from veristep.core.tiers import ChangeType, Relation, Tier
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.statements import kind, symbols_of


def approximate(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    declared = ctx.change_type is ChangeType.APPROXIMATE
    if not (declared or kind(nxt) == "approx"):
        return None
    syms = symbols_of(prev, nxt)
    if len(syms) > 1:
        return None
    if declared and syms and kind(prev) == kind(nxt) == "expr" and nxt.is_polynomial(syms[0]):
        return _taylor(prev, nxt, syms[0], ctx)
    var = syms[0] if syms else None
    out = cas.run(compare_numbers, prev, nxt, var, ctx.settings.approx_rel_tol, ctx=ctx)
    if not out.ok:
        return None
    tag, detail, tol = out.value
    if tag == "within":
        return Decision.verified(
            Relation.EQUIVALENT, f"approximately equal within relative tolerance {tol:.1e}"
        )
    if tag == "within-narrows":
        return Decision.verified(
            Relation.NARROWS,
            f"approximates some of the previous values within relative tolerance {tol:.1e}",
        )
    if tag == "outside":
        reason = (
            f"the exact value is {detail['exact']} but the step wrote {detail['written']}"
            f" (outside relative tolerance {tol:.1e})"
        )
        return Decision.refuted(reason, detail)
    return None


def compare_numbers(
    prev: Basic, nxt: Basic, var: Symbol | None, rel_tol: float
) -> tuple[str, Any, float]:
    """CAS task: ('within'|'within-narrows'|'outside'|'undecided', detail, tolerance)."""
    tol = max(rel_tol, _written_tolerance(nxt))
    exact, written = _values(prev, var), _values(nxt, var)
    if not exact or not written:
        return ("undecided", None, tol)
    matched = set()
    for w in written:
        close = [i for i, e in enumerate(exact) if abs(e - w) <= tol * max(abs(e), 1e-300)]
        if not close:
            nearest = min(exact, key=lambda e: abs(e - w))
            detail = {"exact": str(S(nearest).evalf(15)), "written": str(S(w).evalf(15))}
            return ("outside", detail, tol)
        matched |= set(close)
    return ("within" if len(matched) == len(exact) else "within-narrows", None, tol)


def _values(s: Basic, var: Symbol | None) -> list[float] | None:
    if kind(s) == "expr" and not s.free_symbols:
        return [float(s.evalf(30))]
    if kind(s) == "or" and var is not None:
        parts = [_values(branch, var) for branch in s.args]
        return None if any(p is None for p in parts) else [v for p in parts for v in p]
    if kind(s) in ("eq", "approx") and var is not None:
        lhs, rhs = s.args
        roots = solveset(lhs - rhs, var, S.Reals)
        if isinstance(roots, FiniteSet) and all(r.is_real for r in roots):
            return [float(r.evalf(30)) for r in roots]
    return None


def _written_tolerance(s: Basic) -> float:
    """Half a unit in the last decimal of the least precise number written in ``s``."""
    tol = 0.0
    for n in s.atoms(Float, Rational):
        decimals = _decimals(n)
        if decimals is not None and n != 0:
            tol = max(tol, 0.5 * 10.0**-decimals / abs(float(n)))
    return tol


def _decimals(n: Expr) -> int | None:
    if isinstance(n, Float):
        text = format(float(n), ".15g")
        return len(text.split(".")[1]) if "." in text and "e" not in text else 0
    q = int(n.q)
    if q == 1:
        return None  # integers are exact, not approximations
    twos = fives = 0
    while q % 2 == 0:
        q, twos = q // 2, twos + 1
    while q % 5 == 0:
        q, fives = q // 5, fives + 1
    return max(twos, fives) if q == 1 else None


def _taylor(prev: Expr, nxt: Expr, var: Symbol, ctx: Context) -> Decision:
    """A polynomial declared as an approximation of a function: a Taylor polynomial is judged at
    its own point, never refuted for being far from it (``sin x ≈ x − x³/6`` at x = 0)."""
    out = cas.run(taylor_point, prev, nxt, var, ctx=ctx)
    if out.ok and out.value is not None:
        point, degree = out.value
        return Decision.verified(
            Relation.EQUIVALENT,
            f"the Taylor polynomial of degree {degree} at {var.name} = {point}: "
            f"an approximation near {point}",
        )
    # Not a Taylor polynomial at a simple point: an approximation whose point and accuracy are
    # unknown is not judged by its values far away.
    return Decision(
        Relation.UNKNOWN,
        Tier.PLAUSIBLE,
        f"a declared approximation that is no Taylor polynomial at {var.name} = 0 or 1: "
        "its accuracy is not checked",
    )


def taylor_point(prev: Expr, nxt: Expr, var: Symbol) -> tuple[int, int] | None:
    """CAS task: (point, degree) when ``nxt`` is the Taylor polynomial of ``prev`` there.

    >>> from sympy import sin, symbols
    >>> x = symbols("x", real=True)
    >>> taylor_point(sin(x), x - x**3 / 6, x)
    (0, 3)
    """
    from sympy import Poly, expand, series

    degree = Poly(nxt, var).degree()
    for point in (0, 1):
        try:
            poly = series(prev, var, point, degree + 1).removeO()
        except Exception:  # no expansion there (a pole, a branch point)
            continue
        if expand(poly - nxt) == 0:
            return point, degree
    return None
