"""Evaluate a universal claim on its first cases, exactly, inside a killable worker.

The claim is one of ``A rel B`` (=, ≠, <, ≤, >, ≥), ``A \\mid B`` / ``A \\nmid B``, or
``A \\equiv B \\pmod{M}``. Each side goes LaTeX → graph → SymPy once; each case substitutes
values and compares exactly (integers for divisibility and congruences; for an inequality both
sides must be real). A case where a side is undefined (division by zero, a non-real value where an
order is claimed) is skipped, never counted either way.

>>> from veristep.review.context import Domain
>>> from fractions import Fraction
>>> r = search_cases("3 \\\\mid n^3 - n", ("n",), (Domain("integer", Fraction(1)),))
>>> r.status, r.cases
('agrees', 300)
>>> r = search_cases("2^n > n + 1", ("n",), (Domain("integer", Fraction(1)),))
>>> r.status, r.witness
('counterexample', 'n = 1: 2^n > n + 1 fails, the left side is 2, the right side is 2')
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor
from typing import Any

from veristep.review.context import Domain

CASES = 300
_IS_PRIME = " \\text{ is prime}"  # how the prose reader writes "$A$ is prime"
_GRID = {1: CASES, 2: 17, 3: 6}  # values per letter: about 300 cases whatever the arity
_MOD = re.compile(
    r"\\pmod\s*\{(.+)\}\s*$|\\pmod\s*(\w+)\s*$|\(\s*\\(?:bmod|mod)\s*\{?(.+?)\}?\s*\)\s*$"
)


@dataclass(frozen=True)
class CaseResult:
    status: str  # "counterexample" | "agrees" | "undecided"
    cases: int = 0  # cases evaluated (defined) before stopping
    witness: str | None = None
    assignment: tuple[tuple[str, str], ...] = ()  # the counterexample's values, for re-checking
    reason: str = ""


def search_cases(
    claim: str, letters: tuple[str, ...], domains: tuple[Domain, ...], limit: int = CASES
) -> CaseResult:
    """Try ``claim`` on the first values of its letters; the first failure is the witness."""
    if len(letters) not in _GRID:
        return CaseResult("undecided", reason="more than three quantified letters")
    parsed = _parse(claim)
    if parsed is None:
        return CaseResult("undecided", reason="claim not read as a relation of two expressions")
    kind, sides = parsed
    symbols = {s.name for side in sides for s in side.free_symbols}
    if not symbols <= set(letters) or _has_unknown_function(sides):
        return CaseResult("undecided", reason="the claim uses letters the quantifier does not bind")
    per_letter = min(_GRID[len(letters)], limit)
    pools = [_values(d, per_letter) for d in domains]
    if any(not p for p in pools):
        return CaseResult("undecided", reason="no value to try in the domain as read")
    cases = 0
    for combo in _ordered_product(pools)[:limit]:
        values = dict(zip(letters, combo, strict=True))
        verdict = _case(kind, sides, values)
        if verdict is None:
            continue
        cases += 1
        if verdict is not True:
            shown = ", ".join(f"{k} = {_show(v)}" for k, v in values.items())
            return CaseResult(
                "counterexample",
                cases,
                f"{shown}: {shown_claim(claim)} fails, {verdict}",
                tuple((k, _show(v)) for k, v in values.items()),
            )
    if cases < 5:
        return CaseResult("undecided", cases, reason=f"only {cases} case(s) defined")
    return CaseResult("agrees", cases, reason=f"holds on {cases} cases (evidence, not a proof)")


def shown_claim(claim: str) -> str:
    """The claim as a reader writes it ("… is prime" in words, not LaTeX)."""
    return claim.replace(_IS_PRIME, " is prime")


def _parse(claim: str) -> tuple[str, list[Any]] | None:
    from veristep.review.claims import RELATIONS, _split_relations

    modulus = None
    text = claim
    m = _MOD.search(text)
    if m:
        modulus = next(g for g in m.groups() if g)
        text = text[: m.start()]
    if text.endswith(_IS_PRIME):
        return _sides("prime", [text[: -len(_IS_PRIME)]])
    for token, kind in (("\\nmid", "nmid"), ("\\mid", "mid"), ("\\not\\equiv", "nequiv")):
        if token in text:
            left, _, right = text.partition(token)
            return _sides(kind, [left, right])
    if "\\equiv" in text:
        if modulus is None:
            return None
        left, _, right = text.partition("\\equiv")
        return _sides("equiv", [left, right, modulus])
    pieces = _split_relations(text)
    if len(pieces) != 2 or modulus is not None:
        return None
    rel = pieces[1][2]
    if rel not in RELATIONS.values():
        return None
    return _sides(rel, [pieces[0][1], pieces[1][1]])


def _sides(kind: str, texts: list[str]) -> tuple[str, list[Any]] | None:
    from veristep.mathgraph import parse_latex, to_sympy

    sides = []
    for text in texts:
        try:
            sides.append(to_sympy(parse_latex(text.strip())))
        except Exception:  # an unreadable side: nothing to evaluate
            return None
        if not hasattr(sides[-1], "free_symbols") or sides[-1].is_Boolean:
            return None
    return kind, sides


def _has_unknown_function(sides: list[Any]) -> bool:
    from sympy.core.function import AppliedUndef

    return any(side.atoms(AppliedUndef) for side in sides)


def _values(domain: Domain, count: int) -> list[Any]:
    """The first ``count`` values of a domain, smallest magnitude first."""
    import sympy

    if domain.kind == "prime":
        out, p = [], 1
        while len(out) < count:
            p = int(sympy.nextprime(p))
            if domain.admits(Fraction(p)):
                out.append(sympy.Integer(p))
            elif domain.upper is not None and p > domain.upper:
                break
        return out
    step = Fraction(1, 2) if domain.kind in ("rational", "real", "complex") else Fraction(1)
    if domain.kind in ("unknown", "natural") and domain.lower is None:
        # "for all n" with no kind may mean the naturals: start at 1, where every reading agrees.
        domain = Domain(domain.kind, Fraction(1), False, domain.upper, domain.strict_upper)
    values = [sympy.Rational(v.numerator, v.denominator) for v in _grid(domain, step, count)]
    if domain.kind == "complex":
        values = [sympy.I, -sympy.I, 1 + sympy.I, *values]
    return values[:count]


def _grid(domain: Domain, step: Fraction, count: int) -> list[Fraction]:
    lo = None if domain.lower is None else ceil(domain.lower / step)
    hi = None if domain.upper is None else floor(domain.upper / step)
    if lo is not None:
        raw = range(lo, lo + 3 * count)
    elif hi is not None:
        raw = range(hi, hi - 3 * count, -1)
    else:
        raw = sorted(range(-2 * count, 2 * count), key=lambda k: (abs(k), k < 0))
    out = [k * step for k in raw]
    # Smallest first, so the counterexample shown is the simplest one found.
    out = [v for v in out if domain.admits(v)]
    return sorted(out[: 2 * count], key=lambda v: (abs(v), v.denominator, v < 0))[:count]


def _ordered_product(pools: list[list[Any]]) -> list[tuple[Any, ...]]:
    """Every combination, small indices first (all letters small before any letter large)."""
    index = itertools.product(*(range(len(p)) for p in pools))
    return [
        tuple(p[i] for p, i in zip(pools, idx, strict=True))
        for idx in sorted(index, key=lambda idx: (sum(idx), idx))
    ]


def _case(kind: str, sides: list[Any], values: dict[str, Any]) -> bool | str | None:
    """True (holds), a description of the failure, or None (undefined here)."""
    import sympy

    subs = {s: values[s.name] for side in sides for s in side.free_symbols}
    try:
        vals = [side.xreplace(subs) for side in sides]
    except Exception:
        return None
    if any(v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo) or not v.is_number for v in vals):
        return None
    if kind == "prime":
        if not vals[0].is_integer:
            return None
        return True if sympy.isprime(int(vals[0])) else f"{int(vals[0])} is not prime"
    if kind in ("mid", "nmid", "equiv", "nequiv"):
        if not all(v.is_integer for v in vals):
            return None
        ints = [int(v) for v in vals]
        return _divisibility(kind, ints)
    left, right = vals
    return _order(kind, left, right)


def _divisibility(kind: str, ints: list[int]) -> bool | str | None:
    if kind in ("mid", "nmid"):
        a, b = ints
        divides = b == 0 if a == 0 else b % a == 0
        if divides == (kind == "mid"):
            return True
        return f"{a} {'does not divide' if kind == 'mid' else 'divides'} {b}"
    a, b, m = ints
    if m == 0:
        return None
    congruent = (a - b) % m == 0
    if congruent == (kind == "equiv"):
        return True
    return f"{a} − {b} = {a - b} is {'not ' if kind == 'equiv' else ''}divisible by {m}"


def _order(rel: str, left: Any, right: Any) -> bool | str | None:
    import sympy

    detail = f"the left side is {_show(left)}, the right side is {_show(right)}"
    if rel in ("=", "!="):
        diff = sympy.N(left - right, 50)
        if not diff.is_number:
            return None
        if diff == 0 or (left.is_rational and right.is_rational and left == right):
            equal = True
        elif abs(complex(diff)) > 1e-20 * max(1.0, abs(complex(sympy.N(left, 30)))):
            equal = False
        else:
            return None  # too close to call numerically
        return True if equal == (rel == "=") else detail
    if not (left.is_real and right.is_real):
        return None
    diff = sympy.N(left - right, 50)
    if abs(diff) < 1e-30 and not (left.is_rational and right.is_rational):
        return None
    sign = (
        0 if (left.is_rational and right.is_rational and left == right) else (1 if diff > 0 else -1)
    )
    holds = {
        "<": sign < 0,
        "<=": sign <= 0,
        ">": sign > 0,
        ">=": sign >= 0,
        "~": None,
    }[rel]
    if holds is None:
        return None
    return True if holds else detail


def _show(value: Any) -> str:
    text = str(value).replace("**", "^").replace("*", "·")
    return text.replace("I", "i")
