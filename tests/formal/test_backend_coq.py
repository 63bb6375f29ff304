"""The Coq backend against real coqtop: batched checks, the four signals, tactic steps, crashes."""

from __future__ import annotations

import os
import signal

import pytest

from veristep.core.settings import Settings
from veristep.formal.backends.base import Theorem
from veristep.formal.backends.coq import CoqBackend
from veristep.formal.signals import FailureKind

pytestmark = pytest.mark.coq

NAT = Theorem("nt", "Require Import Arith.", "Theorem nt : forall a b : nat, a < b -> a + 1 <= b.")
REAL = Theorem(
    "rt",
    "Require Import Reals.\nOpen Scope R_scope.",
    "Theorem rt : forall x y : R, 0 <= x * x + y * y.",
)


@pytest.fixture(scope="module")
def backend():
    b = CoqBackend(Settings().replace(coq_tactic_timeout_s=2))
    yield b
    b.close()


def test_batch_reports_four_signals_per_candidate(backend: CoqBackend) -> None:
    proofs = [
        "intros; lia.",
        "intros .. lia.",
        "intros; apply no_such_lemma.",
        "intros a b H.",
        "intros; exact I.",
        "admit.",
    ]
    ok, syntax, unknown, incomplete, typ, forbidden = backend.check_batch(NAT, proofs)
    assert ok.complete and ok.signals.goals_after == 0
    assert syntax.signals.failure is FailureKind.SYNTAX and not syntax.signals.syntax_ok
    assert unknown.signals.failure is FailureKind.UNKNOWN_REFERENCE and not unknown.signals.type_ok
    assert incomplete.signals.failure is FailureKind.INCOMPLETE
    assert incomplete.signals.goals_after == 1  # progress signal survives the failed Qed
    assert typ.signals.failure is FailureKind.TYPE
    assert forbidden.signals.failure is FailureKind.FORBIDDEN
    assert not any(a.complete for a in (syntax, unknown, incomplete, typ, forbidden))


def test_an_error_then_a_closing_tactic_is_not_a_proof(backend: CoqBackend) -> None:
    """coqtop keeps going after an error; the block must still count as failed."""
    (attempt,) = backend.check_batch(NAT, ["intros. foo. lia."])
    assert not attempt.complete
    assert attempt.signals.failure is FailureKind.UNKNOWN_REFERENCE


def test_tactic_steps_report_progress_and_replay_paths(backend: CoqBackend) -> None:
    root = backend.open_proof(REAL)
    assert root.goals == 1
    intros = backend.apply(REAL, [], "intros x y.", root.goals)
    assert intros.signals.ok and intros.signals.goals_after == 1
    split = backend.apply(REAL, ["intros x y."], "apply Rplus_le_le_0_compat.", 1)
    assert split.signals.goals_after == 2 and split.signals.progress == -1
    failed = backend.apply(REAL, ["intros x y."], "lia.", 1)
    assert failed.signals.failure is FailureKind.TACTIC
    # A branch after an unrelated one: the backend goes back and replays the path.
    path = ["intros x y.", "apply Rplus_le_le_0_compat."]
    first = backend.apply(REAL, path, "apply Rle_0_sqr.", 2)
    assert first.signals.goals_after == 1
    closed = backend.apply(REAL, ["intros x y."], "nra.", 1)
    assert closed.signals.goals_after == 0


def test_multi_sentence_steps_are_refused(backend: CoqBackend) -> None:
    backend.open_proof(REAL)
    attempt = backend.apply(REAL, [], "intros. nra.", 1)
    assert attempt.signals.failure is FailureKind.FORBIDDEN


def test_session_restarts_after_the_process_dies(backend: CoqBackend) -> None:
    backend.check_batch(NAT, ["intros; lia."])
    session = backend._session
    assert session is not None and session._proc is not None
    os.killpg(session._proc.pid, signal.SIGKILL)
    session._proc.wait()
    (attempt,) = backend.check_batch(NAT, ["intros; lia."])
    assert attempt.complete
    assert backend.restarts >= 1


def test_timeouts_are_failures_never_evidence() -> None:
    backend = CoqBackend(Settings().replace(coq_tactic_timeout_s=1))
    try:
        big = Theorem("bg", "Require Import Arith.", "Theorem bg : (2 ^ 26 = 2 ^ 26 + 0)%nat.")
        (attempt,) = backend.check_batch(big, ["simpl; reflexivity."])
        assert not attempt.complete
        assert attempt.signals.failure is FailureKind.TIMEOUT
        (after,) = backend.check_batch(NAT, ["intros; lia."])
        assert after.complete  # the session is usable again
    finally:
        backend.close()


def test_memory_cap_turns_a_blow_up_into_a_crash_signal() -> None:
    settings = Settings().replace(coq_memory_mb=700, coq_tactic_timeout_s=20)
    backend = CoqBackend(settings, candidate_timeout_s=25)
    try:
        big = Theorem("mb", "Require Import Arith.", "Theorem mb : (2 ^ 28 = 2 ^ 28)%nat.")
        (attempt,) = backend.check_batch(big, ["vm_compute; reflexivity."])
        assert not attempt.complete
        assert attempt.signals.failure in (FailureKind.CRASH, FailureKind.TIMEOUT)
        (after,) = backend.check_batch(NAT, ["intros; lia."])
        assert after.complete
    finally:
        backend.close()


def test_a_session_only_success_is_refused_by_the_strict_check(backend: CoqBackend) -> None:
    """A candidate that leans on an earlier candidate's theorem passes in the session only."""
    backend.check_batch(NAT, ["intros; lia."])
    name = f"vs_cand_{backend._counter}"
    (attempt,) = backend.check_batch(NAT, [f"exact {name}."])
    assert attempt.complete
    assert not backend.confirm(NAT, f"exact {name}.").accepted
    assert backend.confirm(NAT, "intros; lia.").accepted


def test_warnings_are_not_errors(backend: CoqBackend) -> None:
    """Large nat literals warn ("To avoid stack overflow ...") with a location, like errors do."""
    big = Theorem("wn", "Require Import Arith.", "Theorem wn : 91 ^ 2 = 8281.")
    (attempt,) = backend.check_batch(big, ["intros; auto."])
    assert attempt.complete, attempt.signals.message
    assert backend.open_proof(big).goals == 1
