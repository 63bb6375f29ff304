"""Whole-proof scripts read off the statement: the hints a person adds before a decision procedure.

``nra`` multiplies hypotheses in pairs and squares atoms, but it does not invent the square
that proves ``x^2 - 14 * x + 3 >= 7^2 - 14 * 7 + 3`` (that is ``(x - 7)^2 >= 0``), and ``lra``
cannot see through ``Rabs``. These scripts supply what the statement itself suggests: squares
of each real variable shifted by the statement's own constants, squares of differences and sums
of two variables, every ``Rabs`` split into its two cases, fractions cleared before ``nra``, and
a closed computation in nat done in Z.
They are candidates like any other: Coq decides, and the strict path accepts.

>>> from veristep.formal.backends.base import Theorem
>>> t = Theorem("t", "Require Import Reals.\\nOpen Scope R_scope.",
...             "Theorem t (x : R) : x^2 - 14 * x + 3 >= 7^2 - 14 * 7 + 3.")
>>> real_variables(t.statement), small_constants(t.statement)
(['x'], ['2', '14', '3', '7'])
>>> goal_scripts(t)[0]
'intros; pose proof (pow2_ge_0 (x - 2)); pose proof (pow2_ge_0 (x - 14)); \
pose proof (pow2_ge_0 (x - 3)); pose proof (pow2_ge_0 (x - 7)); nra.'
"""

from __future__ import annotations

import itertools
import re

from veristep.formal.agents.retrieval import theorem_domain
from veristep.formal.backends.base import Theorem

# The first scripts of a statement are checked even when the portfolio has spent the budget:
# at most this many, each under the tactic timeout, so the overrun is bounded.
ALWAYS_CHECKED_GOAL_SCRIPTS = 3
_MAX_HINTS = 8
_MAX_VARIABLES = 4
# Binders "(x y : R)", "forall a b : R," — not "(f : R -> R)" nor "(u : nat -> R)".
_REAL_BINDER = re.compile(r"((?:[A-Za-z_][\w']*\s+)+):\s*R\b(?!\s*->)")
_KEYWORDS = frozenset({"forall", "exists", "fun", "Theorem", "Lemma", "let", "in"})
_CONSTANT = re.compile(r"(?<![\w.'])(\d+)(?![\w.'])")

# |a| split into a ≥ 0 and a < 0, in the goal and in every hypothesis.
ABS_SPLIT = (
    "intros; unfold Rabs in *; "
    "repeat match goal with |- context [Rcase_abs ?a] => destruct (Rcase_abs a) end; "
    "repeat match goal with H : context [Rcase_abs ?a] |- _ => destruct (Rcase_abs a) end; "
)


def real_variables(statement: str) -> list[str]:
    """The statement's real variables, in order of declaration."""
    names: list[str] = []
    for match in _REAL_BINDER.finditer(statement):
        names += [n for n in match.group(1).split() if n not in _KEYWORDS]
    return list(dict.fromkeys(names))


def small_constants(statement: str, limit: int = 6) -> list[str]:
    """The integer literals of the statement below 1000 (exponents included: they are cheap
    hints), in order of appearance; 0 and 1 add nothing to a square."""
    found = [c for c in _CONSTANT.findall(statement) if 1 < int(c) < 1000]
    return list(dict.fromkeys(found))[:limit]


# A closed nat computation (5 ^ 30 mod 7 = 1) moved to Z, where numbers are binary: in nat,
# 5 ^ 30 is a unary term no machine can build. Names are qualified (Znat is loaded by Zify's
# prelude but not imported). Subtraction and comparisons have side conditions: not offered.
_NAT2Z = "Coq.ZArith.Znat.Nat2Z"
NAT_TO_Z = (
    f"apply {_NAT2Z}.inj; "
    + "rewrite "
    + ", ".join(f"?{_NAT2Z}.inj_{op}" for op in ("mod", "div", "pow", "mul", "add"))
    + "; vm_compute; reflexivity."
)
_CLOSED_NAT = re.compile(r":\s*\(?[\d\s()+*^/]*(?:mod[\d\s()+*^/]*)*\)?\s*=\s*\d+\s*\.\s*$")


# Remainders in nat with letters in them ((3 * n) mod 11 = 2 -> n mod 11 = 8): each a mod m
# becomes a fresh r with a = m * q + r and r < m, so lia sees a linear problem over integers.
# (zify; Z.div_mod_to_equations leaves lia without a witness on these.) Witnesses of "exists k,
# n = 3 * k" are taken apart first. (Unnamed fresh names: the strict path admits no string literal.)
_ONE_REMAINDER = (
    "pose proof (Nat.div_mod a m ltac:(lia)); pose proof (Nat.mod_upper_bound a m ltac:(lia)); "
    # Each fresh name is taken only once the names before it exist, so no two coincide.
    "let r := fresh in set (r := a mod m) in *; let q := fresh in set (q := a / m) in *; "
    "clearbody r q"
)
NAT_REMAINDERS = (
    "intros; repeat match goal with H : exists _, _ |- _ => destruct H end; "
    "repeat match goal with "
    f"| H : context [?a mod ?m] |- _ => {_ONE_REMAINDER} "
    f"| |- context [?a mod ?m] => {_ONE_REMAINDER} "
    "end; "
)
_NAT_MOD = re.compile(r"\bmod\b")


def goal_scripts(theorem: Theorem) -> list[str]:
    """Scripts for this statement, most specific first."""
    domain = theorem_domain(theorem)
    if domain == "nat":
        if _CLOSED_NAT.search(theorem.statement):
            return [NAT_TO_Z]
        if _NAT_MOD.search(theorem.statement):
            return [NAT_REMAINDERS + "lia.", NAT_REMAINDERS + "nia."]
        return []
    if domain != "R":
        return []
    statement = theorem.statement
    out: list[str] = []
    if "Rabs" in statement:
        out += [ABS_SPLIT + "lra.", ABS_SPLIT + "nra."]
    variables = real_variables(statement)[:_MAX_VARIABLES]
    shifted = [
        f"pose proof (pow2_ge_0 ({v} - {c}))" for v in variables for c in small_constants(statement)
    ]
    if shifted:
        out.append(_with_hints(shifted))
    pairs = [
        f"pose proof (pow2_ge_0 ({a} {op} {b}))"
        for a, b in itertools.combinations(variables, 2)
        for op in ("-", "+")
    ]
    if pairs:
        out.append(_with_hints([f"pose proof (pow2_ge_0 {v})" for v in variables] + pairs))
    out += [
        "intros; subst; field_simplify; nra.",
        "intros; field_simplify in *; nra.",
        "intros; repeat split; field_simplify; lra.",
    ]
    return out


def _with_hints(hints: list[str]) -> str:
    return "intros; " + "; ".join(hints[:_MAX_HINTS]) + "; nra."
