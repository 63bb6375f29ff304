"""Scripts read off the statement (square hints, |·| split) close what the portfolio cannot —
checked by real Coq through the one strict acceptance path."""

from __future__ import annotations

import pytest

from veristep.formal.backends.base import Theorem
from veristep.formal.backends.coq import TACTIC_PRELUDE
from veristep.formal.goal_scripts import goal_scripts, real_variables
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
    (script,) = goal_scripts(theorem)
    verdict = confirm(theorem, script, timeout_s=30, prelude=TACTIC_PRELUDE)
    assert verdict.accepted, verdict.reason
    wrong = Theorem(
        "pow_mod_bad", "Require Import Arith.", "Theorem pow_mod_bad : (5 ^ 30) mod 7 = 2."
    )
    assert not confirm(wrong, script, timeout_s=30, prelude=TACTIC_PRELUDE).accepted


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
