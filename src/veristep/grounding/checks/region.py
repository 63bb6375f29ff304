"""Inequalities in several variables, judged on exact sample points of the plane (or space).

No solver describes the region ``x + y > 0`` as a finite set, but a person refutes ``x + y > 0 →
x > 0`` with one point: at x = 0, y = 1 the previous holds and the next does not. This check
walks a small grid of exact rational points; a point where the previous holds and the next fails
*and* one where the next holds and the previous fails refute the step (neither direction
follows), with the second as the witness. One-sided findings decide nothing — a sample can show
a value lost, never prove an inclusion — so they are left to the plausible default.

>>> from sympy import Gt, symbols
>>> x, y = symbols("x y", real=True)
>>> tag, points = sample_region(Gt(x + y, 0), Gt(x, 0), (x, y))
>>> tag, points["next_only"], points["previous_only"]
('neither', {'x': '1', 'y': '-1'}, {'x': '0', 'y': '1'})
"""

from __future__ import annotations

from itertools import product
from typing import Any

from sympy import Basic, Rational, Symbol

from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.statements import atoms_of, kind, symbols_of, truth_value

_GRID = (0, 1, -1, 2, -2, Rational(1, 2), 3, -3, Rational(-1, 2), 5)


def region(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    syms = tuple(symbols_of(prev, nxt))
    if not 2 <= len(syms) <= 3 or not (_inequalities(prev) or _inequalities(nxt)):
        return None
    if not (_relations_only(prev) and _relations_only(nxt)):
        return None
    out = cas.run(sample_region, prev, nxt, syms, ctx=ctx)
    if not out.ok or out.value[0] != "neither":
        return None
    gained, lost = out.value[1]["next_only"], out.value[1]["previous_only"]
    reason = (
        f"at {_point(gained)} the next holds and the previous does not, and at {_point(lost)} "
        "the previous holds and the next does not: neither follows from the other"
    )
    return Decision.refuted(reason, gained)


def _point(named: dict[str, str]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in named.items())


def _inequalities(s: Basic) -> bool:
    return any(kind(a) == "ineq" for a in atoms_of(s))


def _relations_only(s: Basic) -> bool:
    return kind(s) in ("eq", "ne", "ineq", "and", "or") and all(
        kind(a) in ("eq", "ne", "ineq") for a in atoms_of(s)
    )


def sample_region(prev: Basic, nxt: Basic, syms: tuple[Symbol, ...]) -> tuple[str, Any]:
    """CAS task: ('neither', {"next_only": point, "previous_only": point}) | ('undecided', None).

    ``next_only`` satisfies the next state and not the previous (the witness, as for systems);
    ``previous_only`` the reverse."""
    lost: dict[str, str] | None = None
    gained: dict[str, str] | None = None
    for values in product(_GRID, repeat=len(syms)):
        point = dict(zip(syms, values, strict=True))
        before, after = _truth(prev, point), _truth(nxt, point)
        if before is None or after is None:
            continue
        named = {v.name: str(val) for v, val in point.items()}
        if before and not after and lost is None:
            lost = named
        if after and not before and gained is None:
            gained = named
        if lost is not None and gained is not None:
            return ("neither", {"next_only": gained, "previous_only": lost})
    return ("undecided", None)


def _truth(s: Basic, point: dict[Symbol, Any]) -> bool | None:
    """Exact truth at the point; None where a side is undefined over the reals there."""
    for atom in atoms_of(s):
        for side in (atom.lhs, atom.rhs):
            v = side.subs(point)
            if not v.is_number or v.is_real is not True or v.is_finite is not True:
                return None
    return truth_value(s.subs(point))
