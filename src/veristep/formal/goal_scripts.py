"""Whole-proof scripts read off the statement: the hints a person adds before a decision procedure.

``nra`` multiplies hypotheses in pairs and squares atoms, but it does not invent the square
that proves ``x^2 - 14 * x + 3 >= 7^2 - 14 * 7 + 3`` (that is ``(x - 7)^2 >= 0``), and ``lra``
cannot see through ``Rabs``. These scripts supply what the statement itself suggests: squares
of each real variable shifted by the statement's own constants, squares of differences and sums
of two variables, every ``Rabs`` split into its two cases, fractions cleared before ``nra``, and
a closed computation in nat done in Z.

Other shapes are what a person clears before ``lia``: gcd and lcm written as multiples of the
gcd, nat literals of 5000 and more (opaque to ``lia``) given their binary value, literal powers
expanded, a closed ``b ^ e mod m`` computed, witnesses of ``exists`` and ``Nat.divide`` taken
apart, and a bounded nat variable split into its cases. Over the reals: a fraction multiplied
out, ``sqrt e = c`` squared, function definitions rewritten, a recurrence instantiated, and a
nat answer of a real equation moved to ``IZR``.
They are candidates like any other: Coq decides, and the strict path accepts.

>>> from veristep.formal.backends.base import Theorem
>>> t = Theorem("t", "Require Import Reals.\\nOpen Scope R_scope.",
...             "Theorem t (x : R) : x^2 - 14 * x + 3 >= 7^2 - 14 * 7 + 3.")
>>> real_variables(t.statement), small_constants(t.statement)
(['x'], ['2', '14', '3', '7'])
>>> goal_scripts(t)[0]  # the square completed exactly (see squares.py)
'intros; pose proof (pow2_ge_0 (x - 7)); nra.'
>>> goal_scripts(t)[1]  # the statement's constants as shifts, when no exact square exists
'intros; pose proof (pow2_ge_0 (x - 2)); pose proof (pow2_ge_0 (x - 14)); \
pose proof (pow2_ge_0 (x - 3)); pose proof (pow2_ge_0 (x - 7)); nra.'
"""

from __future__ import annotations

import itertools
import re

from veristep.formal.agents.retrieval import theorem_domain
from veristep.formal.backends.base import Theorem
from veristep.formal.coq_text import declared_variables
from veristep.formal.factors import factor_scripts
from veristep.formal.literal_powers import closed_powers_prefix
from veristep.formal.residues import residue_script
from veristep.formal.squares import premises_and_conclusion, quadratic_square_hints, split_top

# The first scripts of a statement are checked even when the portfolio has spent the budget:
# at most this many, each under the tactic timeout, so the overrun is bounded.
ALWAYS_CHECKED_GOAL_SCRIPTS = 5
_MAX_HINTS = 8
_MAX_VARIABLES = 4
_MAX_CASES = 30  # values of one bounded nat variable tried in turn
_MAX_CASES_NESTED = 12  # values of each of two nested ones
_MAX_INDEX = 12  # a recurrence is instantiated at 0 .. the largest index the statement names
_SMALL_NAT = 5000  # Coq writes nat literals from here on as Nat.of_num_uint terms
_MAX_EXPONENT = 10_000  # b ^ e in Z with e beyond this is too large to compute
_MAX_LOG_LITERAL = 10**6  # ln N of literals up to this are factored
# Binders "(x y : R)", "forall a b : R," — not "(f : R -> R)" nor "(u : nat -> R)".
_CONSTANT = re.compile(r"(?<![\w.'])(\d+)(?![\w']|\.\d)")  # "1." ends a statement

# |a| split into a ≥ 0 and a < 0, in the goal and in every hypothesis.
ABS_SPLIT = (
    "intros; unfold Rabs in *; "
    "repeat match goal with |- context [Rcase_abs ?a] => destruct (Rcase_abs a) end; "
    "repeat match goal with H : context [Rcase_abs ?a] |- _ => destruct (Rcase_abs a) end; "
)


def real_variables(statement: str) -> list[str]:
    """The statement's real variables, in order of declaration."""
    return declared_variables(statement, "R")


def small_constants(statement: str, limit: int = 6) -> list[str]:
    """The integer literals of the statement below 1000 (exponents included: they are cheap
    hints), in order of appearance, then 1 (a ≤ 1 wants (a - 1)^2); 0 adds nothing to a square."""
    literals = _CONSTANT.findall(statement)
    found = [c for c in literals if 1 < int(c) < 1000] + [c for c in literals if int(c) == 1]
    return list(dict.fromkeys(found))[:limit]


# A closed nat computation (5 ^ 30 mod 7 = 1) moved to Z, where numbers are binary: in nat,
# 5 ^ 30 is a unary term no machine can build. Names are qualified (Znat is loaded by Zify's
# prelude but not imported). Subtraction and comparisons have side conditions: not offered.
_NAT2Z = "Coq.ZArith.Znat.Nat2Z"
_Z = "Coq.ZArith.BinInt.Z"
_NAT = "Coq.Arith.PeanoNat.Nat"
NAT_TO_Z = (
    f"apply {_NAT2Z}.inj; "
    + "rewrite "
    + ", ".join(f"?{_NAT2Z}.inj_{op}" for op in ("mod", "div", "pow", "mul", "add"))
    + "; vm_compute; reflexivity."
)
# A closed power remainder inside a larger statement (5 ^ 100 mod 1000 = 100 * a + ...): its
# value is computed here, and the script replaces the term by it, proving the replacement in Z.
_POWER_REMAINDER = re.compile(r"\(?\s*(\d+)\s*\^\s*(\d+)\s*\)?\s*mod\s*(\d+)")
_CLOSED_NAT = re.compile(r":\s*\(?[\d\s()+*^/]*(?:mod[\d\s()+*^/]*)*\)?\s*=\s*\d+\s*\.\s*$")


# A closed computation cast to Z by syntactic rewrites. ``rewrite ?Nat2Z.inj_pow`` is no use on
# (19^19 + 99^99) mod 10: unifying ?a ^ ?b with the sum makes Coq reduce the sum, 10^24 in
# unary, and the script never ends. Each cast is pushed through exactly the operation written
# under it (``match`` compares without reducing), a subtraction through max 0 (no side
# condition), and every (a ^ m) mod n becomes Zpow_mod, which reduces at each squaring:
# 5^999999 mod 7 costs microseconds, 1999^2000 computed in full five seconds.
_CAST_THROUGH = ("mod", "div", "add", "mul", "pow", "sub_max")
_OPERATIONS = {"mod": "modulo", "sub_max": "sub"}
_MODULAR_POWERS = (
    f"repeat match goal with |- context [{_Z}.modulo ({_Z}.pow ?a ?m) ?n] => "
    "rewrite <- (Coq.ZArith.Zpow_facts.Zpow_mod_correct a m n) by lia end; "
)
# List functions whose unfolding leaves arithmetic the casts go through (not filter: its tests
# stay in the source type).
_LIST_ARITHMETIC = ("seq", "map", "fold_left", "fold_right", "list_sum")


def closed_in_z(source: str) -> str:
    """A script that moves a closed equation over ``source`` ("nat" or "N") to Z and computes.

    >>> closed_in_z("nat")[:40]
    'apply Coq.ZArith.Znat.Nat2Z.inj; repeat '
    """
    module, cast, ops = {
        "nat": ("Coq.ZArith.Znat.Nat2Z", f"{_Z}.of_nat", "Nat"),
        "N": ("Coq.ZArith.Znat.N2Z", f"{_Z}.of_N", "Coq.NArith.BinNat.N"),
    }[source]
    branches = " ".join(
        f"| |- context [{cast} ({ops}.{_OPERATIONS.get(op, op)} ?a ?b)] => "
        f"rewrite ({module}.inj_{op} a b)"
        for op in _CAST_THROUGH
    )
    return (
        f"apply {module}.inj; repeat match goal with {branches} end; "
        + _MODULAR_POWERS
        + "vm_compute; reflexivity."
    )


def _closed(statement: str) -> bool:
    """No binder, hypothesis or quantifier: the statement is a computation to be done."""
    head, _, body = statement.partition(":")
    if not re.fullmatch(r"\s*(?:Theorem|Lemma|Example)\s+[\w']+\s*", head):
        return False
    return not re.search(r"\b(?:forall|exists|let)\b|->|<->|\\/|/\\", body)


def closed_computation(theorem: Theorem) -> list[str]:
    """Scripts for a closed equation over nat, N or Z, computed in binary.

    A class of both miniF2F splits (test: mathd_numbertheory_328, amc12a_2021_p9,
    mathd_numbertheory_229; valid: mathd_numbertheory_236, _202, _24): a closed statement whose
    numbers are far too large for unary nat (19^19, 11^9), or whose power is too large to compute
    at all (5^999999), but whose value is a small remainder. The portfolio's ``lia`` and
    ``reflexivity`` run out of time on each, and the script after them never got its turn.
    """
    statement = theorem.statement
    if not _closed(statement) or not re.search(r"=", _body(statement)):
        return []
    text = theorem.header + statement
    if re.search(r"[RQC]_scope|%[RQC]\b|\b(?:Ci|INR|IZR)\b", text):
        return []  # reals, rationals, complex numbers: not a computation in Z
    if "Z_scope" in theorem.header:
        return [_MODULAR_POWERS + "vm_compute; reflexivity."]
    source = "N" if "N_scope" in theorem.header else "nat"
    body = _body(statement)
    unfold = [f for f in _LIST_ARITHMETIC if re.search(rf"\b{f}\b", body)]
    if "filter" in body:
        return []  # its tests are computed in unary: the other scripts compute those
    prefix = f"cbn [{' '.join(unfold)}]; " if unfold else ""
    return [prefix + closed_in_z(source)]


# Remainders in nat with letters in them ((3 * n) mod 11 = 2 -> n mod 11 = 8): each a mod m
# becomes a fresh r with a = m * q + r and r < m, so lia sees a linear problem over integers.
# (zify; Z.div_mod_to_equations leaves lia without a witness on these.) Witnesses of "exists k,
# n = 3 * k" are taken apart first. (Unnamed fresh names: the strict path admits no string literal.)
_ONE_REMAINDER = (
    f"pose proof ({_NAT}.div_mod a m ltac:(lia)); "
    f"pose proof ({_NAT}.mod_upper_bound a m ltac:(lia)); "
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

# Hypotheses taken apart: witnesses of "exists k, ..." and conjunctions.
DESTRUCT = (
    "repeat match goal with H : exists _, _ |- _ => destruct H end; "
    f"repeat match goal with H : {_NAT}.divide _ _ |- _ => destruct H end; "
    "repeat match goal with H : _ /\\ _ |- _ => destruct H end; "
)
# Coq reads a nat literal of 5000 or more as Nat.of_num_uint applied to its digits, which lia
# treats as an unknown atom (123422 = 123422 is then beyond it). Each becomes a fresh n with
# Z.of_nat n = its binary value, computed once; lia reads that.
_ONE_BIG = (
    "let n := fresh in set (n := Nat.of_num_uint u) in *; "
    f"let z := eval vm_compute in ({_Z}.of_nat n) in "
    f"assert ({_Z}.of_nat n = z) by (vm_compute; reflexivity); clearbody n"
)
BIG_LITERALS = (
    "repeat match goal with "
    f"| H : context [Nat.of_num_uint ?u] |- _ => {_ONE_BIG} "
    f"| |- context [Nat.of_num_uint ?u] => {_ONE_BIG} "
    "end; "
)
# lia does not expand x ^ 3 in nat; a literal exponent becomes a product it reads.
POWERS = f"rewrite ?{_NAT}.pow_succ_r', ?{_NAT}.pow_0_r in *; "
_BIG_LITERAL = re.compile(r"(?<![\w.'])\d{4,}(?![\w.'])")

# gcd a b = g and lcm a b = L: a = p * g and b = q * g, and lcm a b = a * (b / g) = a * q, so
# lia sees products of letters by constants. TAIL runs inside the match, where p and q exist.
_GCD_LCM = (
    "try unfold Nat.lcm in *; match goal with H : Nat.gcd ?a ?b = ?g |- _ => "
    "let Hp := fresh in let Hq := fresh in let p := fresh in let q := fresh in "
    f"pose proof ({_NAT}.gcd_divide_l a b) as [p Hp]; "
    f"pose proof ({_NAT}.gcd_divide_r a b) as [q Hq]; rewrite H in *; "
    f"try replace (b / g) with q in * by (rewrite Hq, {_NAT}.div_mul; lia); "
    f"try replace (a / g) with p in * by (rewrite Hp, {_NAT}.div_mul; lia); "
    "TAIL end."
)


def case_split(variable: str, inner: str = "solve [nia]", cases: int = _MAX_CASES) -> str:
    """``variable`` split into 0, 1, 2, ... while the rest is not yet closed by nia, each case
    closed by ``inner``: what a person does with a bounded natural number (a digit, a factor of
    21). Fails unless every case closes, and stops after ``cases`` cases.

    >>> case_split("a", cases=2)
    'do 2 (first [solve [nia] | destruct a as [|a]; [solve [nia] | ]])'
    """
    return f"do {cases} (first [solve [nia] | destruct {variable} as [|{variable}]; [{inner} | ]])"


def nat_variables(statement: str) -> list[str]:
    """The statement's nat variables (not functions), in order of declaration."""
    return declared_variables(statement, "nat")


# Coquelicot's complex numbers are pairs of reals, and its numerals are RtoC of real ones, which
# ``ring`` and ``field`` over C read as atoms (7 * 3 is no 21 to them). A person proves such a
# statement by its real and imaginary parts: every complex letter becomes a pair, every
# complex equation two real ones, and the goal is split into its two components.
COMPLEX_AS_PAIRS = (
    "intros; repeat match goal with v : C |- _ => destruct v end; "
    "repeat match goal with H : @eq C _ _ |- _ => let H1 := fresh in let H2 := fresh in "
    "pose proof (f_equal fst H) as H1; pose proof (f_equal snd H) as H2; clear H end; "
    "unfold Cplus, Cminus, Cmult, Copp, Cdiv, Cinv, RtoC, Ci in *; simpl in *; subst; "
    "repeat split; apply injective_projections; simpl; try lra; try nra; field_simplify; nra."
)
_COMPLEX_BINDER = re.compile(r":\s*C\b(?!\s*->)")


def complex_statement(theorem: Theorem) -> bool:
    """An equation (or a conjunction of them) about Coquelicot's complex numbers, without the
    modulus or a function of C (those are no componentwise identities)."""
    text = theorem.header + theorem.statement
    if "C_scope" not in text and not _COMPLEX_BINDER.search(theorem.statement):
        return False
    return not re.search(r"\b(?:Cmod|Cexp|fold_left|fold_right|list)\b|\bC\s*->", theorem.statement)


def goal_scripts(theorem: Theorem) -> list[str]:
    """Scripts for this statement, most specific first."""
    if complex_statement(theorem):
        # A class of both miniF2F splits (test: mathd_algebra_313,
        # algebra_2varlineareq_fp3zeq11_3tfm1m5zeqn68_feqn10_zeq7, and mathd_algebra_302, which
        # Coq 8.16 does not compile; valid: mathd_algebra_110, mathd_algebra_182,
        # algebra_2varlineareq_xpeeq7_2xpeeq3_eeq11_xeqn4): no script of the number domains
        # applies to them.
        return [COMPLEX_AS_PAIRS]
    domain = theorem_domain(theorem)
    computed = closed_computation(theorem)
    if domain == "nat":
        return computed + _nat_scripts(theorem.statement)
    if domain == "Z":
        residues = residue_script(theorem.statement)
        return computed + ([residues] if residues else []) + _integer_scripts(theorem.statement)
    if domain == "R":
        return _real_scripts(theorem.statement)
    return []


def _body(statement: str) -> str:
    """The statement without ``Theorem name``, whose digits are not the problem's."""
    return statement.split(":", 1)[-1]


def power_remainders(statement: str) -> str:
    """Sentences that rewrite each closed ``b ^ e mod m`` of the statement to its value.

    (``replace ... in *`` would try to match the term against the goal by computation in unary.)

    >>> power_remainders("Theorem t : 5^100 mod 1000 = 100 * a -> a = 6.")
    'let E := fresh in assert (E : 5 ^ 100 mod 1000 = 625) by (apply Coq.ZArith.Znat.Nat2Z.inj; \
rewrite ?Coq.ZArith.Znat.Nat2Z.inj_mod, ?Coq.ZArith.Znat.Nat2Z.inj_pow; vm_compute; reflexivity); \
rewrite E in *; clear E; '
    """
    out = ""
    for base, exponent, modulus in dict.fromkeys(_POWER_REMAINDER.findall(_body(statement))):
        if int(modulus) == 0 or int(modulus) >= _SMALL_NAT or int(exponent) > _MAX_EXPONENT:
            continue
        value = pow(int(base), int(exponent), int(modulus))
        out += (
            f"let E := fresh in assert (E : {base} ^ {exponent} mod {modulus} = {value}) by "
            f"(apply {_NAT2Z}.inj; rewrite ?{_NAT2Z}.inj_mod, ?{_NAT2Z}.inj_pow; "
            "vm_compute; reflexivity); rewrite E in *; clear E; "
        )
    return out


def _nat_scripts(statement: str) -> list[str]:
    if _CLOSED_NAT.search(statement):
        return [NAT_TO_Z]
    body = _body(statement)
    out: list[str] = []
    computed = power_remainders(statement)
    if computed:
        out += [f"intros; {computed}{DESTRUCT}{tactic}." for tactic in ("lia", "nia")]
    if "Nat.gcd" in body:
        out += [
            "intros; " + DESTRUCT + _GCD_LCM.replace("TAIL", "lia"),
            "intros; " + DESTRUCT + _GCD_LCM.replace("TAIL", "subst; " + case_split("p")),
        ]
    if _NAT_MOD.search(body):
        out += [NAT_REMAINDERS + "lia.", NAT_REMAINDERS + "nia."]
    prepare = "intros; " + DESTRUCT
    prepare += BIG_LITERALS if _BIG_LITERAL.search(body) else ""
    prepare += POWERS if "^" in body else ""
    if "exists" in body:
        # A goal "exists x, P x -> Q" holds when P 0 is false: the witness 0 makes it vacuous.
        out.append("intros; exists 0; intros; simpl in *; lia.")
    if prepare != "intros; " + DESTRUCT or "exists" in body:
        out += [prepare + "lia.", prepare + "nia."]
    variables = nat_variables(statement)
    if variables and re.search(r"\*|\^", body):
        out.append(prepare + case_split(variables[0]) + ".")
        if len(variables) > 1:
            inner = case_split(variables[1], cases=_MAX_CASES_NESTED)
            out.append(prepare + case_split(variables[0], inner, _MAX_CASES_NESTED) + ".")
    return out


def _integer_scripts(statement: str) -> list[str]:
    body = _body(statement)
    if "exists" not in body:
        return []
    return [
        "intros; " + DESTRUCT + "lia.",
        "intros; exists 0%Z; intros; lia.",
        "intros; " + DESTRUCT + "nia.",
    ]


# Real-number shapes a person clears before lra: a fraction in a hypothesis (multiplied by its
# denominator, which must be provably nonzero), a fraction as the goal, a variable stated nonzero
# (every equation multiplied by it), sqrt e = c (squared, with 0 <= e), a function given by a
# formula (every definition rewritten, side conditions by lra; with a side condition on the
# argument, from the inside out), a nat answer of a real equation (moved to IZR), and a
# recurrence over nat instantiated at the indices the statement names.
DIVIDED_HYPOTHESES = (
    "repeat match goal with H : ?a / ?b = ?c |- _ => let Hb := fresh in "
    "assert (Hb : b <> 0) by (try lra; nra); let E := fresh in "
    "pose proof (f_equal (fun t => t * b) H) as E; cbv beta in E; "
    "replace (a / b * b) with a in E by (field; exact Hb); clear H Hb end; "
)
# INR n > 0 from (0 < n)%nat, which lra cannot see through INR.
POSITIVE_INR = (
    "repeat match goal with H : (0 < ?v)%nat |- _ => pose proof (lt_0_INR v H); clear H end; "
)
DIVIDED_GOAL = (
    "match goal with |- ?a / ?b = ?c => apply (Rmult_eq_reg_r b); "
    "[field_simplify; try lra; nra | try lra; nra] end."
)
NONZERO_MULTIPLIED = (
    "intros; repeat match goal with Hn : ?v <> 0, H : _ = _ |- _ => "
    "apply (f_equal (fun t => t * v)) in H; field_simplify in H; revert H end; intros; lra."
)
SQUARED_ROOTS = (
    "intros; repeat match goal with H : sqrt ?e = ?c |- _ => let E := fresh in "
    "pose proof (sqrt_sqrt e ltac:(lra)) as E; rewrite H in E; clear H end; nra."
)
DEFINITIONS_REWRITTEN = (
    "intros; repeat match goal with H : forall _, _ |- _ => progress rewrite ?H by lra end; "
    "try lra; field."
)
# The definitions rewritten in the hypotheses too (f 2 = 9 with f x = c x^3 - 9x + 3 is an
# equation in c), then nra. A class of both splits (test: mathd_algebra_148, mathd_algebra_246;
# valid: mathd_algebra_132, mathd_algebra_159, mathd_algebra_214, amc12b_2003_p9).
_DEFINITIONS_IN_ALL = (
    "repeat match goal with D : forall _, ?f _ = _, H : context [?f ?a] |- _ => "
    "progress rewrite (D a) in H end; repeat match goal with D : forall _, ?f _ = _ "
    "|- context [?f ?a] => progress rewrite (D a) end; "
)
DEFINITIONS_EVERYWHERE = "intros; " + _DEFINITIONS_IN_ALL + "nra."
# Each square root √e of the hypotheses and the goal becomes an atom nra can reason about: its
# square is e (when 0 <= e follows by nra, or in the case 0 <= e of a split on e's sign, the
# other case giving √e = 0) and it is nonnegative. Then √(x² + y²) = 11 is x² + y² = 121 for
# a nonnegative root, √9 is the nonnegative s with s² = 9, and √(xy) = √19 gives xy = 19.
# A class of both miniF2F splits (test: mathd_algebra_332, and 263 proved before; 184 and 288,
# which need a chain of such steps, are not proved by it (184 is, by squaring); valid:
# mathd_algebra_116, 433, 510).
_ROOT_FACTS_OF = (
    "lazymatch goal with _ : sqrt e * sqrt e = e |- _ => fail | _ : sqrt e = 0 |- _ => fail "
    "| _ => idtac end; pose proof (sqrt_pos e); first [let P := fresh in assert (P : 0 <= e) "
    "by nra; pose proof (sqrt_sqrt e P) | destruct (Rle_or_lt 0 e); [pose proof (sqrt_sqrt e "
    "ltac:(lra)) | pose proof (sqrt_neg_0 e ltac:(lra))]]"
)
ROOT_FACTS = (
    f"repeat match goal with _ : context [sqrt ?e] |- _ => {_ROOT_FACTS_OF} "
    f"| |- context [sqrt ?e] => {_ROOT_FACTS_OF} end; "
)
INSIDE_OUT = (
    "intros; repeat match goal with H : forall _, _ -> ?f _ = _ |- context [?f ?a] => "
    "rewrite (H a) by lra end; field."
)
NAT_ANSWER = f"intros; apply {_NAT2Z}.inj; apply eq_IZR; simpl; lra."
# Each denominator shown nonzero from the hypotheses: itself (x <> 0), a shift of one
# (x - 1 <> 0 from x <> 1), or by a sign (0 < x).
_NONZERO = (
    "try solve [repeat split; first [assumption | intro; match goal with H : ?u <> ?v |- _ => "
    "apply H; lra end | intro; nra]]"
)
# Every equation with fractions, hypotheses and goal, multiplied out (field_simplify_eq) once
# its denominators are known nonzero, then nra. A class of both miniF2F splits (test:
# aime_1990_p4, mathd_algebra_129, mathd_algebra_441, mathd_algebra_80; valid: amc12_2000_p11,
# amc12a_2017_p2, amc12a_2013_p8, mathd_algebra_267, mathd_algebra_181).
_FRACTIONS_FINISH = f"(field_simplify_eq; {_NONZERO}); nra."
FRACTIONS_CLEARED = (
    "intros; repeat match goal with H : context [?a / ?b] |- _ => "
    f"progress (field_simplify_eq in H; {_NONZERO}) end; " + _FRACTIONS_FINISH
)
_LOGARITHM = re.compile(r"\bln\s*\(?\s*(\d+)\s*\)?(?![\w.])")
_DIVISION = re.compile(r"(?<![\\/])/(?![\\/])")  # not /\\ nor \\/
_NAT_GOAL = re.compile(r"->\s*\(?\s*[A-Za-z_][\w']*\s*=\s*\d+(?:%nat)?\s*\)?\s*\.\s*$")
_NAT_RECURRENCE = re.compile(r"forall\s+\(?\s*[A-Za-z_][\w']*\s*:\s*nat\s*\)?\s*,")
_CONDITIONAL_DEFINITION = re.compile(r"forall\s+\(?\s*[A-Za-z_][\w']*[^,]*,\s*[^,]*<>[^,]*->\s*\w+")


# ln v > 0 for each v > 1, ln of products split (arguments positive by nra), then the fractions
# cleared: ln w / ln x = 24 becomes ln w = 24 * ln x, linear in the logarithms.
LOGARITHMS_OF_VARIABLES = (
    "intros; repeat match goal with H : 1 < ?v |- _ => let P := fresh in "
    "assert (P : 0 < ln v) by (rewrite <- ln_1; apply ln_increasing; lra); revert H end; "
    "intros; rewrite ?ln_mult in * by nra; " + DIVIDED_HYPOTHESES + DIVIDED_GOAL
)


def _shape_scripts(statement: str) -> list[str]:
    """Scripts for the real-number shapes above that this statement has."""
    body = _body(statement)
    out: list[str] = []
    divisions = len(_DIVISION.findall(body))
    if divisions:
        positive = POSITIVE_INR if "INR" in body else ""
        out += [
            "intros; " + positive + DIVIDED_HYPOTHESES + "lra.",
            "intros; " + positive + DIVIDED_GOAL,
        ]
        if "=" in body.split("->")[-1] and divisions > 1:
            out.append("intros; " + positive + DIVIDED_HYPOTHESES + DIVIDED_GOAL)
        if "<>" in body:
            out.insert(0, FRACTIONS_CLEARED)
            out.append(NONZERO_MULTIPLIED)
    if "sqrt" in body:
        out += [SQUARED_ROOTS, "intros; " + ROOT_FACTS + "nra."]
        if "R -> R" in body:
            out.append("intros; " + _DEFINITIONS_IN_ALL + ROOT_FACTS + "nra.")
    if divisions and re.search(r"\bln\s*\(?\s*[A-Za-z]", body):
        out.append(LOGARITHMS_OF_VARIABLES)
    if "R -> R" in body:
        out += [DEFINITIONS_REWRITTEN, DEFINITIONS_EVERYWHERE]
    if _CONDITIONAL_DEFINITION.search(body):
        out.append(INSIDE_OUT)
    if "nat" in body and _NAT_GOAL.search(body):
        out.append(NAT_ANSWER)
    if _NAT_RECURRENCE.search(body):
        last = max((int(c) for c in _CONSTANT.findall(body) if int(c) <= _MAX_INDEX), default=0)
        instances = "; ".join(f"pose proof (H {i}%nat)" for i in range(last + 1))
        out.append(
            f"intros; match goal with H : forall _ : nat, _ |- _ => {instances} end; "
            "simpl in *; lra."
        )
    return out


def prime_factors(n: int) -> dict[int, int]:
    """``n``'s prime factorisation by trial division (the statement's literals are small).

    >>> prime_factors(80)
    {2: 4, 5: 1}
    """
    factors: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            factors[p] = factors.get(p, 0) + 1
            n //= p
        p += 1
    if n > 1:
        factors[n] = factors.get(n, 0) + 1
    return factors


def logarithms_of_primes(statement: str) -> str | None:
    """A script that writes each ``ln N`` of a literal as a sum of ``ln p`` over N's primes (each
    ``ln p > 0``), after which ``field`` sees a rational function of a few atoms.

    ``ln 27 / ln 3 = 3`` becomes ``(3 * L3) / L3 = 3``; without it ``field`` sees two atoms.
    """
    literals = {int(n) for n in _LOGARITHM.findall(_body(statement))}
    rewritten = _logarithms_over_primes(literals)
    if rewritten is None:
        return None
    return "intros; " + rewritten + "simpl INR in *; field; repeat split; lra."


def _logarithms_over_primes(literals: set[int]) -> str | None:
    """Sentences giving each prime's ``ln p > 0`` and rewriting each ``ln N`` over N's primes."""
    literals = {n for n in literals if n > 1}
    if not literals or max(literals) > _MAX_LOG_LITERAL:
        return None
    factored = {n: prime_factors(n) for n in sorted(literals)}
    primes = sorted({p for factors in factored.values() for p in factors})
    out = ""
    for p in primes:
        out += f"assert ((0 < ln {p})%R) by (rewrite <- ln_1; apply ln_increasing; lra); "
    for n, factors in factored.items():
        if factors == {n: 1}:
            continue  # ln p itself is an atom
        terms = " + ".join(f"INR {e} * ln {p}" for p, e in factors.items())
        out += (
            f"let E := fresh in assert (E : (ln {n} = {terms})%R) by "
            "(rewrite <- !ln_pow, <- ?ln_mult by (repeat (apply Rmult_lt_0_compat || "
            "apply pow_lt); lra); f_equal; simpl; lra); rewrite ?E in *; clear E; "
        )
    return out


_POWER_BASE = re.compile(r"\bRpower\s*\(?\s*(\d+)\b")
_EQUATED_LITERAL = re.compile(r"=\s*\(?\s*(?:IZR\s*)?\(?(\d+)\s*\)?\s*(?:->|\.\s*$)")


# A goal exp u = v taken to logarithms too (ln is injective on positives: ln_inv), before the
# literals' logarithms are rewritten, so that ln 243 in it becomes 5 * ln 3 like the others.
_POWER_GOAL_TO_LOGARITHMS = (
    "try match goal with |- exp _ = _ => apply ln_inv; [apply exp_pos | lra | rewrite ln_exp] end; "
)


def powers_as_logarithms(statement: str) -> str | None:
    """``Rpower b x = v`` taken to logarithms (``x * ln b = ln v``, always true: ``f_equal ln``),
    each literal's logarithm written over its primes, then each hypothesis ``v * l = r`` solved
    for its letter and substituted, and ``field``.

    A goal ``exp u = v`` is taken to logarithms as well, and a letter a premise fixes (``a = 5``
    from ``2^a = 32``) is substituted, after which ``a^b = 125`` is solved the same way (two
    passes). The scripts are written with ``%R`` so that a file whose scope is ``nat`` reads
    them as reals.

    A class of both splits, equations between powers of literal bases (test: mathd_algebra_598
    and mathd_algebra_756 proved, mathd_algebra_275 not reached; valid: mathd_algebra_547
    proved by the closed powers, mathd_algebra_59 and amc12a_2010_p11 not reached: a sum of
    powers, a power inside a logarithm).
    """
    if "Rpower" not in statement:
        return None
    body = _body(statement)
    literals = {int(n) for n in _POWER_BASE.findall(body) + _LOGARITHM.findall(body)}
    literals |= {int(n) for n in _EQUATED_LITERAL.findall(body)}
    literals |= set(_solved_exponents(body))
    rewritten = _logarithms_over_primes(literals)
    if rewritten is None:
        return None
    # Twice: a letter solved and substituted (a = 4 from 2^a = 16) brings its own logarithm
    # (ln 4 in b * ln a = ln 81), written over the primes on the second pass.
    solved = (
        rewritten + "simpl INR in *; "
        "repeat match goal with H : (?v * ?l)%R = ?r |- _ => is_var v; let E := fresh in "
        "assert (E : v = (r / l)%R) by (rewrite <- H; field; lra); clear H; field_simplify in E; "
        "try lra; subst v end; "
    )
    return (
        "intros; unfold Rpower in *; repeat match goal with H : exp ?u = ?v |- _ => "
        "apply (f_equal ln) in H; rewrite ln_exp in H end; "
        + _POWER_GOAL_TO_LOGARITHMS
        + solved
        + solved
        + "rewrite ?ln_exp in *; try (field; repeat split; lra); nra."
    )


_POWER_EQUATION = re.compile(
    r"\bRpower\s*(\w+)\s*\(?\s*([A-Za-z_][\w']*)\s*\)?\s*=\s*\(?\s*(?:IZR\s*)?\(?\s*(\d+)\b"
)


def _solved_exponents(body: str) -> list[int]:
    """The whole exponents the equations ``Rpower c x = N`` give their letters (N = c^k), c a
    literal or a letter solved before (a chain: 2^a = 8, then a^b = 81).

    >>> _solved_exponents("Rpower 2 a = IZR 8 -> Rpower a b = 81 -> Rpower 3 c = 10")
    [3, 4]
    """
    equations = _POWER_EQUATION.findall(body)
    values: dict[str, int] = {}
    for _ in equations:  # each pass may solve one more link of a chain
        for base, letter, value in equations:
            c = int(base) if base.isdigit() else values.get(base)
            if letter in values or c is None or c < 2 or int(value) > _MAX_LOG_LITERAL:
                continue
            k, power = 0, 1
            while power < int(value):
                power, k = power * c, k + 1
            if power == int(value) and k > 0:
                values[letter] = k
    return list(values.values())


# An identity in a real letter, assumed for all of them, used where it says something: at the
# points 0, ±1, ±2 (each instance an equation in the unknown coefficients; where the identity
# is conditional the instance keeps its condition), the definitions rewritten in every
# instance, then nra. A class of both splits (valid: mathd_algebra_140 and amc12b_2002_p6,
# coefficients of a factorisation; mathd_algebra_13, partial fractions; amc12a_2009_p9, a
# shifted argument f (x + 3); test: mathd_algebra_276, the same shape as 140 over integer
# coefficients, not reached (the answer needs b to be an integer), mathd_algebra_188 and
# amc12a_2021_p22, identities used at a point, proved otherwise and not reached).
_IDENTITY_POINTS = ("0", "1", "(-1)", "2", "(-2)")
IDENTITIES_AT_POINTS = (
    "intros; repeat match goal with H : forall _ : R, _ |- _ => "
    + "; ".join(f"try pose proof (H {p})" for p in _IDENTITY_POINTS)
    + "; revert H end; intros; "
    + _DEFINITIONS_IN_ALL
    + "nra."
)
_UNIVERSAL = re.compile(r"^forall\s*\(?\s*([A-Za-z_][\w']*)\s*(:\s*R\s*)?\)?\s*,(.*)$", re.S)


def universal_identity(statement: str) -> bool:
    """Whether a premise holds for every real and is more than a definition ``f x = ...``."""
    for premise in premises_and_conclusion(statement)[0]:
        match = _UNIVERSAL.match(premise.strip())
        if match is None:
            continue
        letter, typed, body = match.groups()
        if not typed and re.search(r"\b(?:nat|Z)\b", statement):
            continue  # an untyped letter is taken as real only where nothing else is declared
        last = split_top(body, "->")[-1].strip()
        if not re.match(rf"^[A-Za-z_][\w']*\s*\(?\s*{re.escape(letter)}\s*\)?\s*=", last):
            return True
    return False


# An equation whose sides hold square roots, proved by squaring: both sides nonnegative (each a
# product of roots, powers and nonnegative factors) and their squares equal once each
# (√e)^2 is rewritten to e (pow2_sqrt) — the fractions of the hypotheses cleared first. A class
# of both splits (test: mathd_algebra_293, a product of three roots; mathd_algebra_184,
# a = 3√2 from a² = 6b and a² = 54/b; valid: mathd_algebra_510, proved before by the root
# facts; amc12a_2008_p8 and amc12b_2003_p6, not reached: the letter must first be fixed
# from y³ = 1, or the root sits in a disjunction).
SQUARED_EQUATION = (
    "intros; repeat match goal with H : context [?a / ?b] |- _ => "
    f"progress (field_simplify_eq in H; {_NONZERO}) end; apply Rsqr_inj; "
    "[ | | unfold Rsqr; ring_simplify; rewrite ?pow2_sqrt by nra; nra]; "
    "repeat (apply Rmult_le_pos || apply pow_le || apply sqrt_pos); nra."
)


def powers_compared(statement: str) -> str | None:
    """For a goal equating products of powers (``Rpower p (2 * n) * Rpower q m = Rpower 12
    (m * n)``): the premises substituted, each power written as ``exp``, products of ``exp``
    joined (exp_plus), the exponents compared (f_equal), each literal's logarithm over its
    primes, then ``ring``. The same class as ``powers_as_logarithms``; of its members only
    test amc12a_2009_p6 has powers on both sides of the goal (valid has none).
    """
    conclusion = premises_and_conclusion(statement)[1]
    if not re.search(r"\bRpower\b.*=.*\bRpower\b", conclusion, re.S):
        return None
    body = _body(statement)
    literals = {int(n) for n in _POWER_BASE.findall(body) + _LOGARITHM.findall(body)}
    literals |= {int(n) for n in re.findall(r"\bRpower\s*\(?\s*(\d+)", conclusion)}
    rewritten = _logarithms_over_primes(literals) or ""
    return (
        "intros; subst; unfold Rpower in *; rewrite ?ln_exp in *; rewrite <- ?exp_plus; "
        "f_equal; " + rewritten + "simpl INR in *; first [ring | field; repeat split; lra | nra]."
    )


def _real_scripts(statement: str) -> list[str]:
    out = _shape_scripts(statement)
    conclusion = premises_and_conclusion(statement)[1]
    if "sqrt" in conclusion and "=" in conclusion and not re.search(r"\\/|[<>]", conclusion):
        out.insert(0, SQUARED_EQUATION)
    if universal_identity(statement):
        out.insert(0, IDENTITIES_AT_POINTS)
    logarithms = logarithms_of_primes(statement)
    if logarithms:
        out.insert(0, logarithms)
    powers = powers_as_logarithms(statement)
    if powers:
        out.insert(0, powers)
    compared = powers_compared(statement)
    if compared:
        out.insert(0, compared)
    computed = closed_powers_prefix(statement)
    if computed:
        out[:0] = [computed + "nra.", computed + ROOT_FACTS + "nra."]
    if "Rabs" in statement:
        out += [ABS_SPLIT + "lra.", ABS_SPLIT + "nra."]
    finishes = ["f_equal; nra."] if "sqrt" in conclusion else ["nra."]
    if _DIVISION.search(conclusion):
        finishes = [_FRACTIONS_FINISH]
    declared = real_variables(statement)
    out[:0] = factor_scripts(statement, declared, finishes)
    completed = quadratic_square_hints(statement, declared)
    if completed:
        out.insert(0, _with_hints([f"pose proof (pow2_ge_0 ({form}))" for form in completed]))
    variables = declared[:_MAX_VARIABLES]
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
