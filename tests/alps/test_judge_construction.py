"""Construction channel: hand-written presentations judged by the real E prover and SAT."""

from __future__ import annotations

import pytest

from veristep.alps.judge import JudgeConfig, judge
from veristep.alps.provers import EProver
from veristep.alps.selftest import LAW_4916

pytestmark = pytest.mark.eprover
CFG = JudgeConfig(prover=EProver("auto"), timeout_s=10, memory_mb=2048)


def test_law_4916_certifies_itself_by_saturation():
    v = judge(LAW_4916, {"E": [LAW_4916]}, CFG)
    assert v.status == "accepted"
    assert v.message == "correctness(E|-law)=True, nonvacuity(E+a!=b sat)=True"
    correctness, nonvacuity = v.certificate["checks"]
    assert (
        correctness["status"] == "Theorem"
        and "SZS status Theorem" in correctness["evidence"]["transcript"]
    )
    assert nonvacuity["method"] == "prover" and nonvacuity["status"] == "Satisfiable"


def test_left_projection_is_too_weak_with_a_rechecked_model_table():
    v = judge(LAW_4916, {"E": ["x ◇ y = x"]}, CFG)
    assert v.status == "rejected" and v.classification == "too weak"
    assert v.message == "correctness(E|-law)=False, nonvacuity(E+a!=b sat)=True"
    nonvacuity = v.certificate["checks"][1]
    assert nonvacuity["method"] == "sat" and nonvacuity["evidence"]["table"] == [[0, 0], [1, 1]]


def test_collapsing_presentation_is_too_strong():
    v = judge(LAW_4916, {"E": ["x ◇ y = z"]}, CFG)
    assert (v.status, v.classification) == ("rejected", "too strong")


def test_presentation_with_a_finite_model_certifies_an_easy_law():
    # Left projection entails x = x ◇ (y ◇ z) and has a 2-element model.
    v = judge("x = x ◇ (y ◇ z)", {"E": ["x ◇ y = x"]}, CFG)
    assert v.status == "accepted" and v.certificate["checks"][1]["method"] == "sat"


@pytest.mark.parametrize(
    "equation, message",
    [
        ("x ◇ x ≠ x", "equation 'x ◇ x ≠ x' is not a plain equation: E must be a set of"),
        ("x ◇ y = x => x = y", "equation 'x ◇ y = x => x = y' is not a plain equation"),
        ("x = y", "degenerate equation 'x = y'"),
        ("x ◇ y = f(y)", "equation 'x ◇ y = f(y)' failed to parse"),
        ("x ◇ y", "equation 'x ◇ y' must contain exactly one '='"),
    ],
)
def test_gate_refuses_non_identities_with_alps_messages(equation, message):
    v = judge(LAW_4916, {"E": ["x ◇ x = x", equation]}, CFG)
    assert v.status == "invalid" and v.message.startswith(message)


def test_nonvacuity_by_ground_convergence_when_a_presentation_cannot_be_oriented():
    # Commutation cannot be oriented; the judge's own ordered-rewriting check shows the term
    # model modulo E is a model with a ≠ b, with no prover and no finite model search.
    from veristep.alps.judge.construction import _convergent
    from veristep.alps.terms import parse_law

    # with x ◇ (y ◇ y) = x beside it, (y ◇ y) ◇ x = x is a critical pair nothing joins
    assert _convergent([parse_law("x ◇ y = y ◇ x"), parse_law("x ◇ (y ◇ y) = x")]) is None
    check = _convergent([parse_law("x ◇ y = y ◇ x")])
    assert check is not None and check.passed and check.status == "ground convergent"
    assert check.evidence["certified"] and check.evidence["oriented"] == 0
    assert _convergent([parse_law("x ◇ y = y ◇ z")]) is None  # x = y follows: never a model
