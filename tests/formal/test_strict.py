"""Strict acceptance against real coqc: honest proofs pass, every cheat is rejected."""

from __future__ import annotations

import pytest

from veristep.formal.accept import Refused, parse_coqchk
from veristep.formal.backends.base import Theorem
from veristep.formal.signals import FailureKind
from veristep.formal.strict import check_file, confirm

pytestmark = pytest.mark.coq

REAL_HEADER = "Require Import Reals Lra.\nOpen Scope R_scope."
SQ = Theorem("sq", REAL_HEADER, "Theorem sq : forall x : R, 0 <= x * x + 1.")


def test_honest_real_proof_is_accepted_with_only_real_axioms() -> None:
    verdict = confirm(SQ, "intros x. nra.")
    assert verdict.accepted, verdict.reason
    assert "Coq.Reals.ClassicalDedekindReals.sig_forall_dec" in verdict.axioms  # by full name


def test_wrong_proof_is_rejected_with_the_signal() -> None:
    verdict = confirm(SQ, "intros x. lra.")
    assert not verdict.accepted
    assert verdict.failure is FailureKind.TACTIC


@pytest.mark.parametrize("cheat", ["intros x. Admitted.", "intros x. admit.", "Abort All."])
def test_text_cheats_never_reach_coq(cheat: str) -> None:
    verdict = confirm(SQ, cheat)
    assert not verdict.accepted and verdict.failure is FailureKind.FORBIDDEN


def test_file_with_an_axiom_is_rejected_and_the_audit_catches_it_too() -> None:
    header = f"{REAL_HEADER}\nAxiom cheat : False."
    text = f"{header}\n{SQ.statement}\nProof. destruct cheat. Qed.\n"
    verdict = check_file(text)
    assert not verdict.accepted and "Axiom" in verdict.reason  # the text filter, first line
    # The second line of defence: coqchk, for a header the filter did not see.
    audited = confirm(Theorem("sq", header, SQ.statement), "destruct cheat.")
    assert not audited.accepted and "cheat" in audited.reason


def test_an_admitted_lemma_is_rejected_by_filter_and_by_audit() -> None:
    header = f"{REAL_HEADER}\nLemma helper : forall x : R, 0 <= x * x + 1.\nProof. Admitted."
    verdict = check_file(f"{header}\n{SQ.statement}\nProof. exact helper. Qed.\n")
    assert not verdict.accepted and "Admitted" in verdict.reason
    audited = confirm(Theorem("sq", header, SQ.statement), "exact helper.")
    assert not audited.accepted and "helper" in audited.reason


def test_file_proving_a_different_statement_is_rejected() -> None:
    weaker = "Theorem sq : forall x : R, 0 <= x * x."
    text = f"{REAL_HEADER}\n{weaker}\nProof. intros x. nra. Qed.\n"
    assert check_file(text).accepted  # it is a fine proof of *its own* statement ...
    verdict = check_file(text, expected=SQ)  # ... but not of the one asked for
    assert not verdict.accepted and "does not prove the reference statement" in verdict.reason


def test_abort_and_admitted_files_are_rejected() -> None:
    aborted = f"{REAL_HEADER}\n{SQ.statement}\nProof. intros x. Abort.\n"
    admitted = f"{REAL_HEADER}\n{SQ.statement}\nProof. intros x. Admitted.\n"
    for text in (aborted, admitted):
        verdict = check_file(text)
        assert not verdict.accepted and verdict.failure is FailureKind.FORBIDDEN


def test_unsafe_flag_in_a_file_is_rejected() -> None:
    text = f"Unset Guard Checking.\n{REAL_HEADER}\n{SQ.statement}\nProof. intros x. nra. Qed.\n"
    verdict = check_file(text)
    assert not verdict.accepted and verdict.failure is FailureKind.FORBIDDEN


def test_benchmark_header_axioms_are_allowed_only_for_that_benchmark() -> None:
    header = f"{REAL_HEADER}\nParameter c : R.\nAxiom c_def : c = 2."
    theorem = Theorem(
        "cv", header, "Theorem cv : c * c = 4.", allowed_axioms=frozenset({"c", "c_def"})
    )
    proof = "rewrite c_def. lra."
    assert confirm(theorem, proof).accepted
    file_text = f"{header}\n{theorem.statement}\nProof. {proof} Qed.\n"
    assert not check_file(file_text).accepted  # without the benchmark, its axioms are cheats
    assert check_file(file_text, expected=theorem).accepted
    more_imports = f"{header}\nRequire Import Psatz.\n{theorem.statement}\nProof. {proof} Qed.\n"
    assert check_file(more_imports, expected=theorem).accepted
    more_axioms = f"{header}\nAxiom two : 2 = 3.\n{theorem.statement}\nProof. {proof} Qed.\n"
    assert not check_file(more_axioms, expected=theorem).accepted


def test_coqchk_summary_is_parsed_strictly() -> None:
    summary = (
        "CONTEXT SUMMARY\n===============\n\n* Theory: Set is predicative\n\n* Axioms: <none>\n\n"
        "* Constants/Inductives relying on type-in-type: <none>\n\n"
        "* Constants/Inductives relying on unsafe (co)fixpoints: <none>\n\n"
        "* Inductives whose positivity is assumed: <none>\n"
    )
    assert parse_coqchk(summary) == []
    with pytest.raises(Refused):
        parse_coqchk("nothing here")
    with pytest.raises(Refused, match="unsafe"):
        parse_coqchk(
            summary.replace("fixpoints: <none>", "fixpoints:\n    VsCand.VsCandidate.loop")
        )


def test_printed_look_alike_verdict_does_not_fool_the_audit() -> None:
    header = (
        'Axiom magic : forall P : Prop, P.\nLtac fake := idtac "Closed under the global context".'
    )
    verdict = confirm(Theorem("lie", header, "Theorem lie : 1 = 2."), "fake. apply magic.")
    assert not verdict.accepted and "magic" in verdict.reason


def test_a_module_posing_as_the_real_axioms_is_rejected() -> None:
    text = (
        "Module ClassicalDedekindReals.\nLemma sig_forall_dec : False.\nProof. Admitted.\n"
        "End ClassicalDedekindReals.\n"
        "Theorem lie : 1 = 2.\nProof. destruct ClassicalDedekindReals.sig_forall_dec. Qed.\n"
    )
    verdict = check_file(text)
    assert not verdict.accepted and verdict.failure is FailureKind.FORBIDDEN


def test_the_baseline_allowlist_is_computed_once_per_installation(monkeypatch, tmp_path) -> None:
    from veristep.formal import accept

    # The library reads no environment: the cache is where the caller's settings say.
    monkeypatch.setenv("VERISTEP_DATA_DIR", str(tmp_path / "from_the_environment"))
    theorem = Theorem("n0", "Require Import Arith.", "Theorem n0 : forall n : nat, n + 0 = n.")
    monkeypatch.setattr(accept, "_ENVIRONMENTS", {})
    assert confirm(theorem, "intros n. induction n; simpl; auto.", data_dir=tmp_path).accepted
    assert (tmp_path / "formal" / "coqchk_allowlists.json").is_file()
    assert not (tmp_path / "from_the_environment").exists()

    def no_baseline(*_args: object) -> frozenset[str]:
        raise AssertionError("the stored allowlist should have been used")

    monkeypatch.setattr(accept, "_ENVIRONMENTS", {})  # a fresh process, as far as it can tell
    monkeypatch.setattr(accept, "_baseline_allowlist", no_baseline)
    assert confirm(theorem, "intros n. induction n; simpl; auto.", data_dir=tmp_path).accepted
