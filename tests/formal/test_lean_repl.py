"""The Lean 4 REPL client against a FAKE REPL replaying a hand-written transcript; live Lean tests
skip unless ``lean --version`` really answers Lean 4."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from veristep.formal.backends.base import Theorem
from veristep.formal.backends.lean import LeanBackend, LeanRepl, lean_version
from veristep.formal.signals import FailureKind

HERE = Path(__file__).parent
THEOREM = Theorem("t", "import Mathlib", "theorem t : ∀ n : ℕ, n + 0 = n := by")


@pytest.fixture
def fake_backend():
    repl = LeanRepl(
        [
            sys.executable,
            str(HERE / "fake_lean_repl.py"),
            str(HERE / "fixtures" / "lean_transcript.json"),
        ],
        timeout_s=20,
    )
    backend = LeanBackend(repl)
    yield backend
    backend.close()


def test_fake_repl_batch_attributes_errors_to_candidates(fake_backend: LeanBackend) -> None:
    ok, unsolved, cheat = fake_backend.check_batch(THEOREM, ["intro n\nsimp", "intro n", "sorry"])
    assert ok.complete
    assert unsolved.signals.failure is FailureKind.INCOMPLETE
    assert cheat.signals.failure is FailureKind.FORBIDDEN
    assert fake_backend.calls == 1  # two live candidates, one REPL command


def test_fake_repl_unknown_identifier_is_a_type_signal(fake_backend: LeanBackend) -> None:
    (attempt,) = fake_backend.check_batch(THEOREM, ["exact unknown_lemma_xyz"])
    assert attempt.signals.failure is FailureKind.UNKNOWN_REFERENCE
    assert not attempt.signals.type_ok


def test_fake_repl_proof_states_and_completion(fake_backend: LeanBackend) -> None:
    root = fake_backend.open_proof(THEOREM)
    assert root.state == 0
    step = fake_backend.apply(THEOREM, [], "intro n", 1)
    assert step.signals.ok and step.signals.goals_after == 1 and step.state == 1
    done = fake_backend.apply(THEOREM, ["intro n"], "simp", 1)
    assert done.signals.goals_after == 0
    bad = fake_backend.apply(THEOREM, ["intro n"], "exact foo", 1)
    assert bad.signals.failure is FailureKind.UNKNOWN_REFERENCE


def test_fake_repl_confirm_audits_axioms(fake_backend: LeanBackend) -> None:
    assert fake_backend.confirm(THEOREM, "intro n\nsimp").accepted
    verdict = fake_backend.confirm(THEOREM, "exact cheat_lemma")
    assert not verdict.accepted and "sorryAx" in verdict.reason
    assert not fake_backend.confirm(THEOREM, "sorry").accepted


def test_an_elan_style_shim_is_not_lean(tmp_path) -> None:
    shim = tmp_path / "lean"
    shim.write_text("#!/bin/sh\necho 'error: no default toolchain configured'\nexit 1\n")
    shim.chmod(0o755)
    assert lean_version(str(shim)) is None
    real = tmp_path / "lean4"
    real.write_text("#!/bin/sh\necho 'Lean (version 4.24.0, x86_64-unknown-linux-gnu, Release)'\n")
    real.chmod(0o755)
    assert lean_version(str(real)).startswith("Lean (version 4.24.0")


def test_live_lean_toolchain() -> None:
    if lean_version() is None:
        pytest.skip("no Lean 4 toolchain: `lean --version` does not answer 'Lean (version 4'")
    assert lean_version().startswith("Lean (version 4")
