"""Signal classification: a fixture of Coq error outputs, then the same classes from real Coq."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veristep.formal.backends.base import Theorem
from veristep.formal.signals import FailureKind, Signals, classify_error, count_goals

FIXTURES = Path(__file__).parent / "fixtures"
CASES = [json.loads(line) for line in (FIXTURES / "coq_errors.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['kind']}-{i}" for i, c in enumerate(CASES)])
def test_fixture_outputs_are_classified(case: dict) -> None:
    assert classify_error(case["output"]) is FailureKind(case["kind"])


def test_fixture_covers_every_required_class() -> None:
    kinds = {c["kind"] for c in CASES}
    assert {"syntax", "type", "unknown_reference", "incomplete", "timeout", "given_up"} <= kinds


def test_failed_signals_set_syntax_and_type_flags() -> None:
    syntax = Signals.failed(FailureKind.SYNTAX, "Error: Syntax error")
    unknown = Signals.failed(FailureKind.UNKNOWN_REFERENCE, "Error: The reference x ...")
    tactic = Signals.failed(FailureKind.TACTIC, "Error: No applicable tactic.")
    assert (syntax.syntax_ok, syntax.type_ok) == (False, False)
    assert (unknown.syntax_ok, unknown.type_ok) == (True, False)
    assert (tactic.syntax_ok, tactic.type_ok, tactic.complete) == (True, True, False)


def test_goal_counts() -> None:
    assert count_goals("3 goals (ID 6)\n  ====\n  a = b") == 3
    assert count_goals("No more goals.") == 0
    given_up = "No more goals, but there are some goals you gave up:\n\n1 goal\n"
    assert count_goals(given_up) == 1  # given-up goals are still open
    assert count_goals("") is None


@pytest.mark.coq
def test_real_coq_outputs_are_classified() -> None:
    """The same classes, produced by a live coqtop session (admit bypasses the text filter here)."""
    from veristep.formal.backends.coqtop import CoqtopSession

    snippets = {
        FailureKind.SYNTAX: "intros .. lia.",
        FailureKind.UNKNOWN_REFERENCE: "apply no_such_lemma_xyz.",
        FailureKind.TYPE: "exact I.",
        FailureKind.TACTIC: "intros; exfalso; lia.",
        FailureKind.TIMEOUT: "intros; simpl; reflexivity.",
    }
    statement = "Theorem s : forall n : nat, (2 ^ 26 = 2 ^ 26 + 0 * n)%nat.\nProof."
    with CoqtopSession(header="Require Import Arith Lia.", tactic_timeout_s=1) as session:
        for expected, tactic in snippets.items():
            session.execute("Abort All.", 30)
            session.execute(statement, 30)
            reply = session.execute(tactic, 30)
            assert reply.errors, tactic
            assert classify_error(reply.errors[0]) is expected, (tactic, reply.errors[0])
        session.execute("Abort All.", 30)
        reply = session.execute(
            "Theorem q : True /\\ True.\nProof. split. exact I. admit. Qed.", 30
        )
        assert classify_error(reply.text) is FailureKind.GIVEN_UP or any(
            classify_error(e) is FailureKind.INCOMPLETE for e in reply.errors
        )
        session.execute("Abort All.", 30)
        reply = session.execute("Theorem r : True /\\ True.\nProof. split. exact I.\nQed.", 30)
        assert classify_error(reply.errors[0]) is FailureKind.INCOMPLETE


def test_theorem_record_is_hashable() -> None:
    assert Theorem("a", "", "Theorem a : True.") in {Theorem("a", "", "Theorem a : True.")}


def test_the_critic_values_a_shorter_goal_with_a_new_fact_above_a_longer_one() -> None:
    """Progress is more than the goal count: one goal before and after, but the first child
    gained a hypothesis and a shorter conclusion, the second only a longer conclusion."""
    from veristep.formal.agents import Critic

    parent = "1 goal\n  x : R\n  ====\n  x * (x + 2) + 1 >= 0\n"
    closer = "1 goal\n  x : R\n  H : 0 <= (x + 1) ^ 2\n  ====\n  (x + 1) ^ 2 >= 0\n"
    longer = "1 goal\n  x : R\n  ====\n  x * x + 2 * x + 1 + 0 * (x * x * x + x * x) >= 0\n"
    critic = Critic()

    def value(after: str) -> float:
        signals = Signals(True, True, 1, 1, False, goals_text=after)
        return critic.value(signals, 1, len(after), parent_goals=parent)

    assert value(closer) > critic.value(Signals(True, True, 1, 1, False), 1, len(closer))
    assert value(closer) > value(longer)
