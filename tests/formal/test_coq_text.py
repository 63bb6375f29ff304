"""The strict text filter and Coq sentence handling (no Coq needed)."""

from __future__ import annotations

import pytest

from veristep.formal.coq_text import (
    declared_axioms,
    forbidden_reason,
    normalize_statement,
    rename_theorem,
    split_sentences,
    strip_comments,
    theorem_name,
)

CHEATS = [
    "intros. Admitted.",
    "intros. admit.",
    "give_up.",
    "intros. Abort. Theorem t : True. Proof. exact I.",
    "Abort All.",
    "exact I. Qed. Axiom cheat : False.",
    "Unset Guard Checking. exact I.",
    "Require Import Classical. apply classic.",
    "Load evil.",
    "Set Nested Proofs Allowed. exact I.",
    "exact I. (* unterminated",
    'idtac "unterminated string.',
    "lia",  # unterminated sentence would swallow the session's marker
    "exact vs_mark_3.",
    'idtac "Closed under the global context". exact I.',
]


@pytest.mark.parametrize("cheat", CHEATS)
def test_cheats_are_rejected_before_coq(cheat: str) -> None:
    assert forbidden_reason(cheat) is not None


@pytest.mark.parametrize(
    "ok",
    [
        "intros; lia.",
        "intros n. induction n; simpl; auto.",
        "apply admit_le_lemma.",
        "(* Admitted in a comment is fine *) lia.",
        "split; [lia | lra].",
    ],
)
def test_honest_scripts_pass(ok: str) -> None:
    assert forbidden_reason(ok) is None


def test_sentences_bullets_and_braces() -> None:
    assert split_sentences("split. { lia. } - lra.") == ["split.", "{", "lia.", "}", "- lra."]
    assert split_sentences("rewrite (Nat.add_comm a b). lia.") == [
        "rewrite (Nat.add_comm a b).",
        "lia.",
    ]


def test_comments_are_stripped_and_unbalanced_detected() -> None:
    assert " ".join(strip_comments("a (* b (* c *) d *) e").split()) == "a e"
    assert " ".join(strip_comments('a (* "*)" *) e').split()) == "a e"  # Coq: one comment
    assert strip_comments("a (* b") is None


def test_statement_names_and_axioms() -> None:
    statement = "Theorem amc : forall x : R, f x = 1."
    assert theorem_name(statement) == "amc"
    assert rename_theorem(statement, "vs_cand_1").startswith("Theorem vs_cand_1 :")
    header = "Parameter f : R -> R.\nAxiom f_def : forall x, f x = 1.\nDefinition g := 1."
    assert declared_axioms(header) == {"f", "f_def"}
    assert normalize_statement("Theorem a :\n  (* c *) True.") == "Theorem a : True."
    with pytest.raises(ValueError):
        rename_theorem("Definition x := 1.", "y")
