"""The Lean channel: gate, ``lake env lean`` and the axiom allowlist.

Lean cannot be installed here, so the runner is a recorded FAKE transcript (named as such); the
live test runs only where a Lean project is configured and skips with the reason otherwise.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from veristep.alps.judge import JudgeConfig, judge
from veristep.alps.judge.lean_export import LakeRunner, check_footprint
from veristep.core.subprocesses import ProcessResult

FAKES = json.loads((Path(__file__).parent / "fixtures" / "lean_fake_transcripts.json").read_text())
CHAIN = {"chain": ["a", "a ◇ a", "b"]}


@dataclass(frozen=True)
class FakeLeanRunner:
    """Replays a recorded transcript and keeps the source it was asked to check."""

    transcript: str
    returncode: int = 0
    seen: list = None  # type: ignore[assignment]

    def unavailable(self) -> str | None:
        return None

    def run(self, source: str, timeout_s: float) -> ProcessResult:
        if self.seen is not None:
            self.seen.append(source)
        return ProcessResult(self.transcript, "", self.returncode, False, 1.0)


def test_fake_lean_transcript_with_allowed_footprint_passes_and_sees_the_full_file():
    seen: list[str] = []
    v = judge("x = y ◇ z", CHAIN, JudgeConfig(lean=FakeLeanRunner(FAKES["passed"], seen=seen)))
    assert v.status == "accepted" and v.certificate["lean"]["status"] == "passed"
    source = seen[0]
    assert (
        "def Law {M : Type} (op : M → M → M) : Prop :=\n  ∀ v0 v1 v2 : M, v0 = (op v1 v2)" in source
    )
    assert (
        "example : Problem.TrivialGoal := solution" in source and "#print axioms solution" in source
    )


@pytest.mark.parametrize("name", ["sorry", "native", "error", "silent"])
def test_fake_lean_transcript_that_fails_the_allowlist_rejects_the_chain(name):
    runner = FakeLeanRunner(FAKES[name], returncode=1 if name == "error" else 0)
    v = judge("x = y ◇ z", CHAIN, JudgeConfig(lean=runner))
    assert v.status == "rejected" and v.certificate["lean"]["status"] == "failed"
    assert v.message.startswith("Lean rejected the assembled proof")


def test_footprint_allowlist_names_forbidden_axioms():
    assert check_footprint(FAKES["no_axioms"]) == []
    assert "'Lean.ofReduceBool' (FORBIDDEN)" in check_footprint(FAKES["native"])[0]


def test_without_a_lean_project_the_lean_check_is_skipped_not_passed():
    v = judge("x = y ◇ z", CHAIN, JudgeConfig(lean=LakeRunner(None)))
    lean = v.certificate["lean"]
    assert lean["status"] == "skipped" and "no Lean project configured" in lean["reasons"][0]


def test_live_lean_checks_the_compiled_chain():
    project = os.environ.get("VERISTEP_LEAN_PROJECT")
    runner = LakeRunner(Path(project) if project else None)
    reason = runner.unavailable()
    if reason:
        pytest.skip(f"live Lean check not possible here: {reason}")
    v = judge("x = y ◇ z", CHAIN, JudgeConfig(lean=runner))
    assert v.certificate["lean"]["status"] == "passed", v.certificate["lean"]["reasons"]
