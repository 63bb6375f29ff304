"""Residue classes: every integer letter written as ``m·q + r`` and ``r`` split into its cases.

``x^5 <> y^2 + 4`` has no integer solution because it has none modulo 11: fifth powers are
0, 1 or 10 there and ``y^2 + 4`` never is. ``lia`` cannot see it (the powers are nonlinear),
and no case split on ``x`` itself ends. Once ``x = 11·q + r`` with ``r`` one of 0…10, each case
expands (``ring_simplify``) to a multiple of 11 in ``q`` plus a constant, which ``lia`` refutes
by integrality, treating the nonlinear monomials of ``q`` as atoms. (That one needs 11² cases,
over the cap below; ``4x^3 - 7y^3 <> 2003`` needs the 7 residues of x only.)

The modulus is the statement's own (``a^2 mod 4 = …``) or, for an equation ``p <> q``, the first
m ≤ 13 modulo which ``p - q`` never vanishes, found by evaluating the polynomial at every
residue tuple (exact integers; at most ``_MAX_CASES`` tuples). Coq does the proof.

A class of both miniF2F splits, the "bounded integer case splits driven by ``n mod 4``" (test:
numbertheory_4x3m7y3neq2003 proved, mathd_numbertheory_233 already proved otherwise,
numbertheory_x5neqy2p4 whose 11² cases are over the cap; valid: numbertheory_sqmod3in01d and
numbertheory_sqmod4in01d proved, mathd_numbertheory_668 whose 7² cases are over the cap).

>>> residue_modulus("Theorem t : forall x y : Z, 4 * x^3 - 7 * y^3 <> 2003.", ["x", "y"])
7
>>> residue_modulus("Theorem t (a : Z) : (a^2 mod 3 = 0) \\\\/ (a^2 mod 3 = 1).", ["a"])
3
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

from veristep.formal.coq_text import declared_variables
from veristep.formal.squares import NotPolynomial, Poly, parse_polynomial

_MAX_MODULUS = 13
_MAX_STATEMENT = 2000  # characters: the statement is searched with regular expressions
_MAX_DEGREE = 8  # x^5 <> y^2 + 4 is read; residues make any degree cheap to evaluate
_MAX_CASES = 16  # cases Coq expands (about 0.15 s each): the script fits a 3 s tactic timeout
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
    inequation = _INEQUATION.search(statement)
    if inequation is None:
        return None
    try:
        names = frozenset(variables)
        left = parse_polynomial(inequation.group(1), names, _MAX_DEGREE)
        right = parse_polynomial(inequation.group(2), names, _MAX_DEGREE)
    except NotPolynomial:
        return None
    difference = {m: left.get(m, Fraction(0)) - right.get(m, Fraction(0)) for m in left | right}
    if any(c.denominator != 1 for c in difference.values()):
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


def residue_modulus(statement: str, variables: list[str]) -> int | None:
    """The modulus :func:`residue_split` chooses, or None."""
    found = residue_split(statement, variables)
    return found[0] if found else None


def _never_zero(poly: Poly, variables: list[str], modulus: int) -> bool:
    for residues in itertools.product(range(modulus), repeat=len(variables)):
        value = dict(zip(variables, residues, strict=True))
        total = 0
        for monomial, c in poly.items():
            term = int(c)
            for name in monomial:
                term *= value[name]
            total += term
        if total % modulus == 0:
            return False
    return True


def residue_script(statement: str) -> str | None:
    """The whole proof for this statement by residues, or None when it has no such shape."""
    found = residue_split(statement, integer_variables(statement))
    if found is None:
        return None
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


def _nested(patterns: list[str]) -> str:
    """``[p1|[p2|[p3| p4]]]``: the intro pattern of a right-nested disjunction."""
    if len(patterns) == 1:
        return patterns[0]
    return f"[{patterns[0]}| {_nested(patterns[1:])}]"  # "|-" would be one token
