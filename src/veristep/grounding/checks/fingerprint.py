"""A characteristic fingerprint of a one-variable expression from its landmarks — real roots,
singularities, limits at ±∞, one-sided limits at poles — plus its values at simple points between
those landmarks. Not random sampling: every point has a reason and a person can recompute it.

A landmark where the two expressions provably disagree refutes, with that landmark as the witness;
agreement everywhere is strong evidence but no proof, so it gives at most verified.

>>> from sympy import Abs, S, cos, exp, pi, sin, sqrt, symbols
>>> x = symbols("x", real=True)
>>> compare_fingerprints(x**2 + 1, x**2 + 1 + exp(-x**2) / 1000, x)[0]
'differ'
>>> tag, w = compare_fingerprints(1 / x, -1 / x, x)
>>> tag, w["landmark"]
('differ', 'value between landmarks')
>>> compare_fingerprints(sin(2 * pi * x), S.Zero, x)[0]
'differ'
>>> compare_fingerprints(sin(x) ** 2, (1 - cos(2 * x)) / 2, x)[0]
'undecided'
>>> compare_fingerprints(sqrt(x**2 + 2*x + 1), Abs(x + 1), x)[0]
'agree'

"""

from __future__ import annotations

from itertools import pairwise, product
from typing import Any

from sympy import AccumBounds, Basic, Expr, FiniteSet, Limit, Rational, S, Symbol, limit, solveset
from sympy import fraction as as_fraction
from sympy import together as combine

from veristep.core.tiers import Relation
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.rewrite import is_nonzero_constant
from veristep.grounding.statements import CALCULUS, kind, symbols_of
from veristep.grounding.witness import real_value, value_at

# Simple points, with thirds and sevenths so that periodic expressions do not vanish on all of them.
_BASE_POINTS = (0, 1, -1, 2, -2, Rational(1, 2), Rational(1, 3), Rational(-2, 7), 3, -3, 10)
_MAX_LANDMARKS = 12


def fingerprint(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    if not (kind(prev) == kind(nxt) == "expr") or prev.has(*CALCULUS) or nxt.has(*CALCULUS):
        return None  # unevaluated calculus is compared by the calculus check, after evaluation
    syms = symbols_of(prev, nxt)
    if 2 <= len(syms) <= 4:
        # Several variables have no landmarks of this kind; simple points can still refute.
        out = cas.run(probe_points, prev, nxt, tuple(syms), ctx=ctx)
        if out.ok and out.value is not None:
            at = ", ".join(f"{k} = {v}" for k, v in out.value.items() if k not in _SIDES)
            reason = (
                f"at {at} the previous is {out.value['previous']} and the next is "
                + (out.value["next"])
            )
            return Decision.refuted(reason, out.value)
        return None
    if len(syms) != 1:
        return None
    out = cas.run(compare_fingerprints, prev, nxt, syms[0], ctx=ctx)
    return decide(out.value, syms[0]) if out.ok else None


_SIDES = ("previous", "next")
_PROBES = (0, 1, 2, -1, 3, Rational(1, 2), -2, 5)


def probe_points(a: Expr, b: Expr, syms: tuple[Symbol, ...]) -> dict[str, str] | None:
    """CAS task: the first simple point (distinct small values per variable) where both sides are
    finite reals and provably differ."""
    n = len(syms)
    for shift in range(len(_PROBES)):
        values = [_PROBES[(shift + i) % len(_PROBES)] for i in range(n)]
        subs = dict(zip(syms, values, strict=True))
        va, vb = real_value(a, subs), real_value(b, subs)
        if va is not None and vb is not None and is_nonzero_constant(va - vb):
            witness = {v.name: str(x) for v, x in subs.items()}
            return {**witness, "previous": str(va), "next": str(vb)}
    return None


_GRID = (-1, 2, Rational(1, 2), -2, 3)


def probe_grid(a: Expr, b: Expr, syms: tuple[Symbol, ...]) -> dict[str, str] | None:
    """CAS task: :func:`probe_points`, then every combination of a few simple values (up to
    three variables): ``x^{ab}`` and ``(x^a)^b`` differ only at points such as x = −1, a = 2,
    b = 1/2, which no single shift of the probe list reaches."""
    from veristep.grounding.sign_conditions import differing_point

    found = probe_points(a, b, syms)
    if found is not None:
        return found
    found = differing_point(a, b, syms)  # either side of each sign condition the law needs
    if found is not None or len(syms) > 3:
        return found
    for values in product(_GRID, repeat=len(syms)):
        subs = dict(zip(syms, values, strict=True))
        va, vb = real_value(a, subs), real_value(b, subs)
        if va is not None and vb is not None and is_nonzero_constant(va - vb):
            witness = {v.name: str(x) for v, x in subs.items()}
            return {**witness, "previous": str(va), "next": str(vb)}
    return None


def decide(result: tuple[str, Any], var: Symbol) -> Decision | None:
    tag, detail = result
    if tag == "agree":
        return Decision.verified(Relation.EQUIVALENT, f"landmark fingerprint agrees ({detail})")
    if tag == "differ":
        where = detail["at"]
        reason = (
            f"{detail['landmark']}: at {var.name} {where} the previous is {detail['previous']} "
            f"and the next is {detail['next']}"
        )
        return Decision.refuted(reason, detail)
    return None


def compare_fingerprints(a: Expr, b: Expr, var: Symbol) -> tuple[str, Any]:
    """CAS task: ('agree', summary) | ('differ', witness) | ('undecided', None)."""
    found = [_finite(solveset(a, var, S.Reals)), _finite(solveset(b, var, S.Reals))]
    found += [_poles(a, var), _poles(b, var)]
    complete = all(f is not None for f in found)
    roots = (found[0] or set()) | (found[1] or set())
    poles = (found[2] or set()) | (found[3] or set())
    for label, point in _points(roots, poles):
        va, vb = value_at(a, var, point), value_at(b, var, point)
        if va is not None and vb is not None and is_nonzero_constant(va - vb):
            # The point under the variable's name too: the written-domain safeguard and a
            # person both substitute it.
            return ("differ", {var.name: str(point), **_witness(label, f"= {point}", va, vb)})
    for label, point, direction in _limit_points(poles):
        if not _defined_near(a, b, var, point, direction):
            complete = False  # a limit through points outside the real domain is no landmark
            continue
        la, lb = _limit(a, var, point, direction), _limit(b, var, point, direction)
        if la is not None and lb is not None and _limits_differ(la, lb):
            arrow = f"→ {point}" + ("" if point in (S.Infinity, S.NegativeInfinity) else direction)
            return ("differ", _witness(label, arrow, la, lb))
        complete = complete and la is not None and lb is not None
    if not complete:
        # Periodic or unsolved roots, or an undetermined limit: no characteristic to agree on.
        return ("undecided", None)
    summary = f"{len(roots)} root(s), {len(poles)} pole(s), limits at ±∞"
    return ("agree", summary)


def _witness(label: str, at: str, va: Any, vb: Any) -> dict[str, str]:
    return {"landmark": label, "at": at, "previous": str(va), "next": str(vb)}


def _finite(s: Any) -> set[Expr] | None:
    """The points of a small finite set of reals; None when the set is anything else."""
    if s is S.EmptySet:
        return set()
    if isinstance(s, FiniteSet) and len(s) <= _MAX_LANDMARKS:
        return {v for v in s if v.is_real}
    return None


def _poles(e: Expr, var: Symbol) -> set[Expr] | None:
    _, den = as_fraction(combine(e))
    return _finite(solveset(den, var, S.Reals)) if den.has(var) else set()


def _points(roots: set[Expr], poles: set[Expr]) -> list[tuple[str, Any]]:
    marks = sorted(roots | poles, key=lambda v: float(v.evalf()))
    points: list[tuple[str, Any]] = [("root", r) for r in sorted(roots, key=str)]
    for lo, hi in pairwise(marks):
        points.append(("value between landmarks", (lo + hi) / 2))
    if marks:
        points.append(("value between landmarks", marks[0] - 1))
        points.append(("value between landmarks", marks[-1] + 1))
    points += [("value between landmarks", S(p)) for p in _BASE_POINTS]
    return points


def _limit_points(poles: set[Expr]) -> list[tuple[str, Any, str]]:
    out = [("limit", S.Infinity, "-"), ("limit", S.NegativeInfinity, "+")]
    for p in sorted(poles, key=str):
        out += [("one-sided limit at a pole", p, "+"), ("one-sided limit at a pole", p, "-")]
    return out


def _defined_near(a: Expr, b: Expr, var: Symbol, point: Any, direction: str) -> bool:
    """Both sides are real at a point on the approach side: SymPy computes the limit of
    ``sqrt(x - 2)·sqrt(x - 3)`` at −∞ through complex values, which is no real landmark."""
    if point is S.Infinity:
        near = S(10) ** 6
    elif point is S.NegativeInfinity:
        near = -(S(10) ** 6)
    else:
        near = point + (Rational(1, 10**6) if direction == "+" else -Rational(1, 10**6))
    return value_at(a, var, near) is not None and value_at(b, var, near) is not None


def _limit(e: Expr, var: Symbol, point: Any, direction: str) -> Expr | None:
    value = limit(e, var, point, direction)
    if value.has(AccumBounds, S.NaN, S.ComplexInfinity) or value.free_symbols:
        return None
    if value.has(Limit) or not value.is_extended_real:
        return None
    return value


def _limits_differ(la: Expr, lb: Expr) -> bool:
    if la.is_infinite or lb.is_infinite:
        return la != lb
    return is_nonzero_constant(la - lb)
