"""Scripts read off the statement (square hints, |·| split) close what the portfolio cannot —
checked by real Coq through the one strict acceptance path."""

from __future__ import annotations

import pytest

from veristep.formal.backends.base import Theorem
from veristep.formal.backends.coq import TACTIC_PRELUDE
from veristep.formal.goal_scripts import (
    COMPLEX_AS_PAIRS,
    NAT_TO_Z,
    closed_computation,
    complex_statement,
    goal_scripts,
    real_variables,
)
from veristep.formal.strict import confirm

HEADER = "Require Import Reals.\nOpen Scope R_scope."
SHIFTED_SQUARE = Theorem(
    "shifted_square", HEADER,
    "Theorem shifted_square (x : R) : x^2 - 14 * x + 3 >= 7^2 - 14 * 7 + 3.",
)  # fmt: skip
ABSOLUTE = Theorem(
    "three_abs", HEADER,
    "Theorem three_abs : forall x : R,\n"
    "  Rabs (x - 1) + Rabs x + Rabs (x + 1) = x + 2 -> 0 <= x /\\ x <= 1.",
)  # fmt: skip


def test_real_variables_skip_functions_and_keywords() -> None:
    st = "Theorem t (f : R -> R) (u : nat -> R) (a b : R) : forall c : R, exists d : R, a = d."
    assert real_variables(st) == ["a", "b", "c", "d"]


def test_no_script_for_a_statement_outside_the_reals() -> None:
    t = Theorem("n", "", "Theorem n : forall n : nat, n + 0 = n.")
    assert goal_scripts(t) == []


@pytest.mark.coq
@pytest.mark.parametrize("theorem", [SHIFTED_SQUARE, ABSOLUTE], ids=["square", "abs"])
def test_a_goal_script_proves_what_the_portfolio_cannot(theorem: Theorem) -> None:
    first = "intros; nra." if theorem is SHIFTED_SQUARE else "intros; lra."
    assert not confirm(theorem, first, timeout_s=30, prelude=TACTIC_PRELUDE).accepted
    verdicts = [
        confirm(theorem, s, timeout_s=30, prelude=TACTIC_PRELUDE) for s in goal_scripts(theorem)[:2]
    ]
    assert any(v.accepted for v in verdicts), [v.reason for v in verdicts]


@pytest.mark.coq
def test_a_closed_nat_computation_is_done_in_binary() -> None:
    """5 ^ 30 in nat is a unary term of 9·10^20 constructors; the script computes it in Z."""
    theorem = Theorem("pow_mod", "Require Import Arith.", "Theorem pow_mod : (5 ^ 30) mod 7 = 1.")
    scripts = goal_scripts(theorem)
    assert scripts == [*closed_computation(theorem), NAT_TO_Z]
    for script in scripts:
        verdict = confirm(theorem, script, timeout_s=30, prelude=TACTIC_PRELUDE)
        assert verdict.accepted, verdict.reason
    wrong = Theorem(
        "pow_mod_bad", "Require Import Arith.", "Theorem pow_mod_bad : (5 ^ 30) mod 7 = 2."
    )
    assert not any(
        confirm(wrong, script, timeout_s=30, prelude=TACTIC_PRELUDE).accepted for script in scripts
    )


_N = "Require Import NArith.\nOpen Scope N_scope."
_Z = "Require Import ZArith.\nOpen Scope Z_scope."
# (header, statement with {} for the value, right value, wrong value): numbers no unary nat holds
# (19^19 + 99^99), a power no one computes in full (5^999999), a list sum unfolded first.
CLOSED = {
    "nat_sum_of_powers": ("Require Import Arith.", "(19^19 + 99^99) mod 10 = {}", "8", "9"),
    "nat_difference": ("Require Import Arith.", "(3^40 - 2^40) mod 7 = {}", "2", "3"),
    "N_huge_power": (_N, "(5^999999 mod 7) = {}", "6", "5"),
    "Z_power": (_Z, "(5 ^ 2005) mod 100 = {}", "25", "75"),
    "nat_list_sum": (
        "Require Import Arith List.\nImport ListNotations.",
        "(fold_right plus 0 (map (fun k => 11 ^ k) (seq 1 9))) mod 100 = {}", "59", "60",
    ),
}  # fmt: skip


@pytest.mark.coq
@pytest.mark.parametrize("case", sorted(CLOSED))
def test_a_closed_computation_is_cast_to_z_without_unary_numbers(case: str) -> None:
    """``rewrite ?Nat2Z.inj_pow`` on (19^19 + 99^99) mod 10 makes Coq unify a power with the sum
    and reduce it in unary (it never ends); the casts are pushed through what is written, and a
    power under a remainder becomes Zpow_mod. The wrong value is refused by the same script."""
    header, template, right, wrong = CLOSED[case]
    theorem = Theorem("t", header, f"Theorem t : {template.format(right)}.")
    (script,) = closed_computation(theorem)
    _assert_accepts_only(script, header, template, right, wrong)


def _assert_accepts_only(script: str, header: str, template: str, right: str, wrong: str) -> None:
    """``script`` proves the statement with the right value and not with the wrong one."""
    theorem = Theorem("t", header, f"Theorem t : {template.format(right)}.")
    verdict = confirm(theorem, script, timeout_s=30, prelude=TACTIC_PRELUDE)
    assert verdict.accepted, verdict.reason
    refuted = Theorem("t", header, f"Theorem t : {template.format(wrong)}.")
    assert not confirm(refuted, script, timeout_s=30, prelude=TACTIC_PRELUDE).accepted


def test_only_a_closed_statement_over_nat_n_or_z_is_computed() -> None:
    assert closed_computation(Theorem("t", _Z, "Theorem t : forall a : Z, a mod 1 = 0.")) == []
    assert closed_computation(Theorem("t", HEADER, "Theorem t : 2 ^ 10 = 1024.")) == []
    assert closed_computation(Theorem("t", "", "Theorem t (n : nat) : n ^ 0 = 1.")) == []
    filtered = "Theorem t : length (filter (fun x => x mod 20 =? 0) (seq 15 71)) = 4."
    assert closed_computation(Theorem("t", "Require Import List.", filtered)) == []
    assert closed_computation(Theorem("t", "", "Theorem t : 2 ^ 100 mod 3 = 1."))


@pytest.mark.coq
def test_remainders_with_letters_become_linear_facts_for_lia() -> None:
    """miniF2F mathd_numbertheory_247: zify; Z.div_mod_to_equations; lia finds no witness; the
    remainder script (n = 11 * q + r, r < 11 for each remainder) closes it, and no false one."""
    theorem = Theorem(
        "mod_inverse", "Require Import Arith.",
        "Theorem mod_inverse : forall n : nat, (3 * n) mod 11 = 2 -> n mod 11 = 8.",
    )  # fmt: skip
    zify = "intros; zify; Z.div_mod_to_equations; lia."
    assert not confirm(theorem, zify, timeout_s=30, prelude=TACTIC_PRELUDE).accepted
    scripts = goal_scripts(theorem)
    verdict = confirm(theorem, scripts[0], timeout_s=30, prelude=TACTIC_PRELUDE)
    assert verdict.accepted, verdict.reason
    wrong = Theorem(
        "mod_inverse_bad", "Require Import Arith.",
        "Theorem mod_inverse_bad : forall n : nat, (3 * n) mod 11 = 2 -> n mod 11 = 7.",
    )  # fmt: skip
    assert not any(
        confirm(wrong, s, timeout_s=30, prelude=TACTIC_PRELUDE).accepted for s in scripts
    )


def _first_accepted(theorem: Theorem) -> str | None:
    for script in goal_scripts(theorem):
        if confirm(theorem, script, timeout_s=30, prelude=TACTIC_PRELUDE).accepted:
            return script
    return None


# Each shape: a statement no portfolio member proves, which a script read off its shape proves,
# and the same statement with a wrong answer, which none proves (Coq decides, not the script).
_NAT = "Require Import Arith."
_REAL = "Require Import Reals.\nOpen Scope R_scope."
SHAPES = {
    "gcd_lcm": (
        _NAT,
        "Theorem t : forall b : nat, Nat.lcm 12 b = 60 -> Nat.gcd 12 b = 4 -> b = {}.",
        "20", "24", "intros; nia.",
    ),
    "gcd_lcm_bounded_factor": (
        _NAT,
        "Theorem t : forall m n : nat, Nat.gcd m n = 4 -> Nat.lcm m n = 40 -> {} <= m + n.",
        "28", "29", "intros; nia.",
    ),
    "large_literal": (
        _NAT,
        "Theorem t : forall a : nat, a <= 9 -> 10000 * a + 2 = 70002 -> a = {}.",
        "7", "6", "intros; lia.",
    ),
    "digits_case_split": (
        _NAT,
        "Theorem t : forall a b : nat, 1 <= a /\\ a <= 9 /\\ b <= 9 -> "
        "(10 * a + b) ^ 2 = 2025 -> a + b = {}.",
        "9", "10", "intros; nia.",
    ),
    "power_remainder": (
        _NAT,
        "Theorem t : forall a b : nat, a <= 9 -> b <= 9 -> 3 ^ 20 mod 100 = 10 * a + b -> "
        "a + b = {}.",
        "1", "2", "intros; lia.",
    ),
    "divided_hypothesis": (
        _REAL,
        "Theorem t : forall x : R, x <> -2 -> (x - 3) / (x + 2) = 3 -> x = {}.",
        "-9/2", "-4", "intros; field_simplify in *; nra.",
    ),
    "square_root": (
        _REAL,
        "Theorem t : forall y : R, 0 <= 2 * y + 1 -> sqrt (2 * y + 1) = 5 -> y = {}.",
        "12", "13", "intros; nra.",
    ),
    "square_roots_as_atoms": (
        _REAL,
        "Theorem t : forall x y : R, x + y = 13 -> x * y = 24 -> sqrt (x^2 + y^2) = {}.",
        "11", "12", "intros; nra.",
    ),
    "equal_square_roots": (
        _REAL,
        "Theorem t : forall x y : R, (x + y) / 2 = 7 -> sqrt (x * y) = sqrt 19 -> "
        "x^2 + y^2 = {}.",
        "158", "160", "intros; nra.",
    ),
    "square_root_of_a_defined_value": (
        _REAL,
        "Theorem t (f : R -> R) (h0 : forall x, f x = 3 * sqrt (2 * x - 7) - 8) : f 8 = {}.",
        "1", "2", "rewrite h0; nra.",
    ),
    "nested_powers_of_numbers": (
        _REAL,
        "Theorem t (a : R) (H : a = 27) : Rpower (Rpower a 2) (1/3) = {}.",
        "9", "8", "intros; subst; nra.",
    ),
    "power_of_a_number_beside_a_root": (
        _REAL,
        "Theorem t : sqrt 1000000 - Rpower 1000000 (1/3) = {}.",
        "900", "899", "intros; nra.",
    ),
    "definitions_rewritten": (
        _REAL,
        "Theorem t : forall f g : R -> R, (forall x, f x = 2 * x + 1) -> "
        "(forall x, g x = x ^ 2) -> f (g 3) = {}.",
        "19", "18", "intros; lra.",
    ),
    "definitions_in_hypotheses": (
        _REAL,
        "Theorem t : forall (x : R) (f g : R -> R), (forall x, f x = x + 2) -> "
        "(forall x, g x = x^2) -> f (g x) = g (f x) -> x = {}.",
        "-1 / 2", "-1", "intros; nra.",
    ),
    "two_roots_factor_cancelled": (
        _REAL,
        "Theorem t : forall (a b : R) (f : R -> R), (forall x, f x = x^2 + a * x + b) -> "
        "2 * a <> b -> f (2 * a) = 0 -> f b = 0 -> a + b = {}.",
        "-1", "-2", "intros; rewrite H in H1, H2; nra.",
    ),
    "powers_to_logarithms": (
        _REAL,
        "Theorem t : forall a b : R, Rpower 4 a = 5 -> Rpower 5 b = 8 -> a * b = {}.",
        "3 / 2", "2", "intros; unfold Rpower in *; nra.",
    ),
    "logarithms_of_literals": (
        _REAL,
        "Theorem t : (ln 24 / ln 2) / (ln 2 / ln 12) - (ln 48 / ln 2) / (ln 2 / ln 6) = {}.",
        "2", "3", "intros; field.",
    ),
    "logarithms_of_variables": (
        _REAL,
        "Theorem t : forall x y w : R, 1 < x -> 1 < y -> 0 < w -> ln w / ln x = 2 -> "
        "ln w / ln y = 3 -> ln w / ln (x * y) = {}.",
        "6/5", "5/6", "intros; lra.",
    ),
    "completed_square": (
        _REAL,
        "Theorem t : forall a : R, 10 * a <= 28 * a^2 + {}.",
        "1", "0", "intros; nra.",
    ),
    "completed_square_on_a_circle": (
        _REAL,
        "Theorem t : forall a b : R, a^2 + b^2 = 2 -> a * b + 2 * (a - b) <= {}.",
        "3", "29/10", "intros; nra.",
    ),
    "fractions_cleared": (
        _REAL,
        "Theorem t : forall x y : R, x <> 0 -> y <> 0 -> x + y = 5 * (x * y) -> "
        "1 / x + 1 / y = {}.",
        "5", "4", "intros; field_simplify; nra.",
    ),
    "residues_rule_out_an_equation": (
        _Z,
        "Theorem t : forall x y : Z, 4 * x^3 - 7 * y^3 <> {}.",
        "2003", "-3", "intros; nia.",
    ),
    "residues_letter_by_letter": (
        _Z,
        "Theorem t : forall x y : Z, x^5 <> y^2 + {}.",
        "4", "1", "intros; nia.",
    ),
    "residues_of_a_square": (
        _Z,
        "Theorem t (a : Z) : (a^2 mod 4 = 0) \\/ (a^2 mod 4 = {}).",
        "1", "2", "intros; Z.div_mod_to_equations; nia.",
    ),
    "identity_at_points": (
        _REAL,
        "Theorem t : forall a b c : R, (forall x : R, 6 * x^2 + 5 * x - 4 = "
        "(a * x + 4) * (b * x + c)) -> a * b + c = {}.",
        "5", "6", "intros; nra.",
    ),
    "identity_with_a_shifted_argument": (
        _REAL,
        "Theorem t : forall (a b c : R) (f : R -> R), (forall x, f (x + 2) = 2 * x^2 + 3 * x + 1) "
        "-> (forall x, f x = a * x^2 + b * x + c) -> a + b + c = {}.",
        "0", "1", "intros; rewrite H0 in H; nra.",
    ),
    "equation_squared": (
        _REAL,
        "Theorem t : forall x : R, 0 <= x -> sqrt (2 * x) * sqrt (3 * x) * sqrt (6 * x) = "
        "{} * x * sqrt x.",
        "6", "5", "intros; nra.",
    ),
    "power_goal_to_logarithms_outside_the_real_scope": (
        "Require Import Reals.",
        "Theorem t : forall a b : R, Rpower 2 a = IZR 8 -> Rpower a b = IZR 81 -> "
        "Rpower b a = IZR {}.",
        "64", "63", "intros; unfold Rpower in *; nra.",
    ),
    "powers_compared": (
        _REAL,
        "Theorem t (m n p q : R) (h0 : p = Rpower 2 m) (h1 : q = Rpower 5 n) : "
        "Rpower p (3 * n) * Rpower q m = Rpower {} (m * n).",
        "40", "20", "intros; subst; unfold Rpower; nra.",
    ),
    "recurrence_instances": (
        _REAL,
        "Theorem t : forall (a : nat -> R), (forall n : nat, a (S (S n)) - a (S n) = "
        "a (S n) - a n) -> a 1%nat = 1 -> a 3%nat = 5 -> a 6%nat = {}.",
        "11", "12", "intros; lra.",
    ),
}  # fmt: skip


@pytest.mark.coq
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_shape_script_proves_the_right_answer_only(shape: str) -> None:
    header, template, right, wrong, baseline = SHAPES[shape]
    theorem = Theorem("t", header, template.format(right))
    assert not confirm(theorem, baseline, timeout_s=30, prelude=TACTIC_PRELUDE).accepted
    assert _first_accepted(theorem) is not None, goal_scripts(theorem)
    assert _first_accepted(Theorem("t", header, template.format(wrong))) is None


@pytest.mark.coq
def test_a_goal_exists_x_p_implies_q_is_vacuous_when_p_0_is_false() -> None:
    """miniF2F mathd_numbertheory_296 states "exists x, x^3 = n -> ..." (an implication inside
    the existential): x = 0 makes it vacuous when n >= 2. The same script fails when n may be 0."""
    template = "Theorem t : forall n : nat, {} -> exists x, x ^ 3 = n -> 4096 <= n."
    theorem = Theorem("t", _NAT, template.format("2 <= n"))
    assert not confirm(theorem, "intros; lia.", timeout_s=30, prelude=TACTIC_PRELUDE).accepted
    assert _first_accepted(theorem) == "intros; exists 0; intros; simpl in *; lia."
    assert _first_accepted(Theorem("t", _NAT, template.format("0 <= n"))) is None


_COMPLEX = "Require Import Reals.\nRequire Import Coquelicot.Coquelicot.\nOpen Scope C_scope."
# (statement with {} for the value, right value, wrong value): numerals, a product with i, a
# linear system, a division.
COMPLEX = {
    "numerals": ("forall y : C, 7 * (3 * y + 2) = 21 * y + {}", "14", "15"),
    "product": ("forall q e : C, q = 2 - 2 * Ci -> e = 5 + 5 * Ci -> q * e = {}", "20", "20 * Ci"),
    "system": ("forall x e : C, x + e = 7 -> 2 * x + e = 3 -> e = {} /\\ x = -4", "11", "10"),
    "division": (
        "forall v i z : C, v = i * z -> v = 1 + Ci -> z = 2 - Ci -> i = {}",
        "1/5 + 3/5 * Ci", "1/5 + 2/5 * Ci",
    ),
}  # fmt: skip


@pytest.mark.coq
@pytest.mark.parametrize("case", sorted(COMPLEX))
def test_a_complex_equation_is_proved_by_its_real_and_imaginary_parts(case: str) -> None:
    """Over Coquelicot's C, ``ring`` reads the numeral 7 as an atom; split into two real
    equations, ``lra``/``nra`` decide. The wrong value is refused by the same script."""
    template, right, wrong = COMPLEX[case]
    theorem = Theorem("t", _COMPLEX, f"Theorem t : {template.format(right)}.")
    assert goal_scripts(theorem) == [COMPLEX_AS_PAIRS]
    assert not confirm(
        theorem, "intros; subst; ring.", timeout_s=30, prelude=TACTIC_PRELUDE
    ).accepted
    _assert_accepts_only(COMPLEX_AS_PAIRS, _COMPLEX, template, right, wrong)


def test_a_modulus_is_no_componentwise_identity() -> None:
    statement = "Theorem t : forall z : C, Cmod z = 0 -> z = 0."
    assert not complex_statement(Theorem("t", _COMPLEX, statement))


def test_a_function_of_c_is_no_componentwise_identity() -> None:
    statement = "Theorem t : forall (f : C -> C) (z : C), f z = z -> f (f z) = z."
    assert not complex_statement(Theorem("t", _COMPLEX, statement))
