"""Residue classes: every integer letter written as ``m·q + r`` and ``r`` split into its cases.

``x^5 <> y^2 + 4`` has no integer solution because it has none modulo 11: fifth powers are
0, 1 or 10 there and ``y^2 + 4`` never is. ``lia`` cannot see it (the powers are nonlinear),
and no case split on ``x`` itself ends. Once ``x = 11·q + r`` with ``r`` one of 0…10, each case
expands (``ring_simplify``) to a multiple of 11 in ``q`` plus a constant, which ``lia`` refutes
by integrality, treating the nonlinear monomials of ``q`` as atoms. (That one needs 11² cases,
over the cap below, and is split letter by letter instead; ``4x^3 - 7y^3 <> 2003`` needs the 7
residues of x only.)

The modulus is the statement's own (``a^2 mod 4 = …``) or, for an equation ``p <> q``, the first
m ≤ 13 modulo which ``p - q`` never vanishes, found by evaluating the polynomial at every
residue tuple (exact integers; at most ``_MAX_CASES`` tuples). Coq does the proof.

When the tuples are too many but no monomial of ``p - q`` mixes two letters (``x^5 - y^2 - 4``),
the letters are taken one at a time instead: each letter's part ``P(v)`` takes a few values modulo
m (fifth powers: 0, 1, 10 mod 11), read off the m residues of v, and no choice of one value per
letter sums to 0. Coq proves each letter's values in m cases, ``P(m·q + r) = P(r) + K·m`` by
``ring`` with K computed here, and ``lia`` combines them: 11 + 11 cases instead of 11².

A class of both miniF2F splits, the "bounded integer case splits driven by ``n mod 4``" (test:
numbertheory_4x3m7y3neq2003 proved, mathd_numbertheory_233 already proved otherwise,
numbertheory_x5neqy2p4 proved letter by letter; valid: numbertheory_sqmod3in01d and
numbertheory_sqmod4in01d proved, mathd_numbertheory_668 whose 7² cases are over the cap).

>>> residue_modulus("Theorem t : forall x y : Z, 4 * x^3 - 7 * y^3 <> 2003.", ["x", "y"])
7
>>> residue_modulus("Theorem t (a : Z) : (a^2 mod 3 = 0) \\\\/ (a^2 mod 3 = 1).", ["a"])
3
>>> split = separable_split("Theorem t : forall x y : Z, x^5 <> y^2 + 4.", ["x", "y"])
>>> split.modulus, split.values
(11, {'x': [0, 1, 10], 'y': [0, 2, 6, 7, 8, 10]})
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from fractions import Fraction

from veristep.formal.coq_text import declared_variables
from veristep.formal.factors import coq_polynomial
from veristep.formal.squares import NotPolynomial, Poly, add, parse_polynomial, substitute

_MAX_MODULUS = 13
_MAX_STATEMENT = 2000  # characters: the statement is searched with regular expressions
_MAX_DEGREE = 8  # x^5 <> y^2 + 4 is read; residues make any degree cheap to evaluate
_MAX_CASES = 16  # cases Coq expands (about 0.15 s each): the script fits a 3 s tactic timeout
_MAX_SEPARATE_CASES = 24  # one-letter cases, a closed computation each (about 0.1 s)
_MOD = re.compile(r"\bmod\s+\(?\s*(\d+)\s*\)?")
_INEQUATION = re.compile(r"(?:,|->|:)\s*([^,:>]+?)\s*<>\s*([^,:<>]+?)\s*\.\s*$")

# Each case: the remainders' powers expanded under every mod, in the goal and the hypotheses;
# an inequation becomes a hypothesis and is expanded; then lia with the quotients as atoms.
_CLOSE = (
    "repeat match goal with |- context [?e mod ?m] => progress ring_simplify e end; "
    "repeat match goal with H : context [?e mod ?m] |- _ => progress ring_simplify e in H end; "
    "try (intro; match goal with H : _ = _ |- False => ring_simplify in H end); "
    "Z.div_mod_to_equations; lia"
)


def integer_variables(statement: str) -> list[str]:
    """The statement's Z letters, in order of declaration (not functions ``Z -> Z``)."""
    return declared_variables(statement, "Z")


def residue_split(statement: str, variables: list[str]) -> tuple[int, list[str]] | None:
    """(modulus, letters to split): the statement's ``mod m`` with every letter, or for
    ``p <> q`` a modulus that rules it out with the letters whose terms it does not divide."""
    if not variables or len(statement) > _MAX_STATEMENT:
        return None
    moduli = {int(m) for m in _MOD.findall(statement)}
    if len(moduli) == 1:
        (modulus,) = moduli
        fits = 1 < modulus <= _MAX_MODULUS and modulus ** len(variables) <= _MAX_CASES
        return (modulus, variables) if fits else None
    if moduli:
        return None
    difference = _inequation_difference(statement, variables)
    if difference is None:
        return None
    for modulus in range(2, _MAX_MODULUS + 1):
        # A letter whose every term has a coefficient divisible by m is left whole: lia reads
        # its monomials as atoms with coefficients it can divide.
        split = [v for v in variables if any(v in m and c % modulus for m, c in difference.items())]
        if modulus ** len(split) > _MAX_CASES:
            continue
        if _never_zero(difference, variables, modulus):
            return modulus, split
    return None


def _inequation_difference(statement: str, variables: list[str]) -> Poly | None:
    """``p - q`` of a statement ending ``p <> q``, a polynomial with integer coefficients."""
    inequation = _INEQUATION.search(statement)
    if inequation is None:
        return None
    try:
        names = frozenset(variables)
        left = parse_polynomial(inequation.group(1), names, _MAX_DEGREE)
        right = parse_polynomial(inequation.group(2), names, _MAX_DEGREE)
    except NotPolynomial:
        return None
    difference = add(left, right, sign=-1)
    if any(c.denominator != 1 for c in difference.values()):
        return None
    return difference


@dataclass(frozen=True)
class SeparableSplit:
    """``p - q`` as a sum of one-letter parts plus a constant, and a modulus that rules it out:
    ``values[v]`` are the residues ``parts[v]`` takes, and no choice of one per letter, added to
    the constant, is 0 modulo ``modulus``."""

    modulus: int
    parts: dict[str, Poly]
    values: dict[str, list[int]]


def separable_split(statement: str, variables: list[str]) -> SeparableSplit | None:
    """The split for ``p <> q`` whose ``p - q`` has no monomial in two letters, or None."""
    if not variables or len(statement) > _MAX_STATEMENT or _MOD.search(statement):
        return None
    difference = _inequation_difference(statement, variables)
    if difference is None or any(len(set(m)) > 1 for m in difference):
        return None
    constant = int(difference.get((), Fraction(0)))
    for modulus in range(2, _MAX_MODULUS + 1):
        # A part every coefficient of which m divides is 0 modulo m: lia reads it whole.
        parts = {
            v: {m: c for m, c in difference.items() if m and m[0] == v}
            for v in variables
            if any(m and m[0] == v and c % modulus for m, c in difference.items())
        }
        if not parts or modulus * len(parts) > _MAX_SEPARATE_CASES:
            continue
        values = {v: _part_values(part, modulus) for v, part in parts.items()}
        sums = {constant % modulus}
        for residues in values.values():
            sums = {(s + r) % modulus for s in sums for r in residues}
        if 0 not in sums:
            return SeparableSplit(modulus, parts, values)
    return None


def _part_values(part: Poly, modulus: int) -> list[int]:
    """The residues modulo ``modulus`` that the one-letter polynomial ``part`` takes."""
    (letter,) = {name for monomial in part for name in monomial}
    return sorted({_evaluate(part, {letter: r}) % modulus for r in range(modulus)})


def residue_modulus(statement: str, variables: list[str]) -> int | None:
    """The modulus :func:`residue_split` chooses, or None."""
    found = residue_split(statement, variables)
    return found[0] if found else None


def _never_zero(poly: Poly, variables: list[str], modulus: int) -> bool:
    for residues in itertools.product(range(modulus), repeat=len(variables)):
        if _evaluate(poly, dict(zip(variables, residues, strict=True))) % modulus == 0:
            return False
    return True


def _evaluate(poly: Poly, value: dict[str, int]) -> int:
    """``poly`` (integer coefficients) at integer values of its letters, exactly."""
    total = 0
    for monomial, c in poly.items():
        term = int(c)
        for name in monomial:
            term *= value[name]
        total += term
    return total


def residue_script(statement: str) -> str | None:
    """The whole proof for this statement by residues, or None when it has no such shape."""
    letters = integer_variables(statement)
    found = residue_split(statement, letters)
    if found is None:
        separable = separable_split(statement, letters)
        return separable_script(separable) if separable else None
    modulus, variables = found
    out = "intros; "
    for v in variables:
        q, r = f"q_{v}", f"r_{v}"
        out += (
            f"pose proof (Z.div_mod {v} {modulus} ltac:(lia)); "
            f"pose proof (Z.mod_pos_bound {v} {modulus} ltac:(lia)); "
            f"set ({q} := {v} / {modulus}) in *; set ({r} := {v} mod {modulus}) in *; "
            f"clearbody {q} {r}; subst {v}; "
        )
    pattern = _nested(["->"] * modulus)
    for v in variables:
        values = " \\/ ".join(f"r_{v} = {k}" for k in range(modulus))
        out += f"assert ({values}) as C_{v} by lia; destruct C_{v} as {pattern}; "
    return out + _CLOSE + "."


def separable_script(split: SeparableSplit) -> str:
    """Each letter's values modulo m proved in m closed cases, then ``lia`` combines them with
    the negated goal (each ``part mod m`` becomes ``part = m·k + r`` with ``part`` an atom)."""
    m = split.modulus
    out = "intros; intro; "
    for v, part in split.parts.items():
        q, r = f"q_{v}", f"r_{v}"  # as in the product split: x = 11·q_x + r_x
        text = coq_polynomial(part)
        values = " \\/ ".join(f"({text}) mod {m} = {k}" for k in split.values[v])
        expanded = substitute(part, v, {(q,): Fraction(m), (r,): Fraction(1)}, 2 * _MAX_DEGREE)
        at_r = {tuple(r for _ in monomial): c for monomial, c in part.items()}
        multiple = {monomial: c / m for monomial, c in add(expanded, at_r, sign=-1).items()}
        cases = " \\/ ".join(f"{r} = {k}" for k in range(m))
        split_at_r = f"{coq_polynomial(at_r)} + ({coq_polynomial(multiple)}) * {m}"
        out += (
            f"assert ({values}) by ("
            f"pose proof (Z.div_mod {v} {m} ltac:(lia)) as D_{v}; "
            f"pose proof (Z.mod_pos_bound {v} {m} ltac:(lia)); "
            f"set ({q} := {v} / {m}) in *; set ({r} := {v} mod {m}) in *; clearbody {q} {r}; "
            f"assert (E_{v} : {text} = {split_at_r}) by (rewrite D_{v}; ring); "
            f"rewrite E_{v}, Z.mod_add by lia; clear E_{v} D_{v}; "
            f"assert ({cases}) as C_{v} by lia; destruct C_{v} as {_nested(['->'] * m)}; "
            "vm_compute; lia); "
        )
    return out + "Z.div_mod_to_equations; lia."


def _nested(patterns: list[str]) -> str:
    """``[p1|[p2|[p3| p4]]]``: the intro pattern of a right-nested disjunction."""
    if len(patterns) == 1:
        return patterns[0]
    return f"[{patterns[0]}| {_nested(patterns[1:])}]"  # "|-" would be one token
