"""The construction side: Knuth–Bendix completion, and the independent checker of its output.

Real laws from ALPS's corpus; the checker is run on ALPS's own published saturations too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from veristep.alps.completion import complete
from veristep.alps.judge import JudgeConfig, judge
from veristep.alps.judge.ordered_model import (
    RULES_4916,
    check_convergent,
    check_presentation,
    kbo_greater,
    orient,
)
from veristep.alps.provers import EProver
from veristep.alps.terms import parse_law, show

FIXTURES = Path(__file__).parent / "fixtures" / "alps_dev"
LAW_4916 = parse_law("x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))")
LAW_12857 = parse_law("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)")
# An AUSTIN_PROVEN law of ALPS's order 7 (final_status.jsonl) whose left side cannot overlap
# itself: the law alone is a convergent system, i.e. the free model of the law is nontrivial.
NON_OVERLAPPING = parse_law("x = ((((((y ◇ y) ◇ z) ◇ x) ◇ y) ◇ y) ◇ y)")


def test_completion_builds_and_the_checker_certifies_law_4916():
    result = complete(LAW_4916)
    assert result.status == "complete" and result.model
    assert result.check is not None and result.check.critical_pairs > 0
    assert check_presentation(LAW_4916, result.rules).certified  # re-checked from scratch


def test_the_checker_accepts_alps_published_saturation_for_law_4916():
    rules = orient([parse_law(r) for r in RULES_4916])
    assert rules is not None
    assert check_presentation(LAW_4916, rules).certified


def test_a_non_overlapping_law_is_its_own_convergent_presentation():
    result = complete(NON_OVERLAPPING)
    assert result.model and len(result.rules) == 1


def test_the_checker_rejects_what_is_not_a_certificate():
    law_alone = orient([LAW_4916])
    assert law_alone is not None
    missing = check_presentation(LAW_4916, law_alone)
    assert not missing.certified and missing.reason == "a critical pair is not joinable"
    idempotent = check_presentation(LAW_4916, [parse_law("x ◇ x = x")])
    assert not idempotent.certified
    assert idempotent.reason == "the law's two sides have different normal forms"
    backwards = check_convergent([parse_law("x = x ◇ x")])  # grows: not a reduction
    assert not backwards.certified and "do not decrease in KBO" in backwards.reason


def test_unorientable_laws_are_reported_not_certified():
    assert complete(parse_law("x ◇ y = y ◇ x")).status == "unorientable"
    trivial = complete(parse_law("x = y ◇ z"))  # x = y ◇ z forces x = y: no model is claimed
    assert trivial.status == "unorientable" and not trivial.model
    assert not kbo_greater(parse_law("x = y ◇ z").rhs, parse_law("x = y ◇ z").lhs)


def test_law_12857_needs_ordered_completion_and_is_not_claimed():
    # The paper's worked example: plain completion meets an unorientable equation (ordered
    # completion goes on with it: tests/alps/test_ordered_completion.py), and ALPS's
    # 358-equation Vampire saturation holds unorientable equations, so the convergent-system
    # checker rejects it.
    result = complete(LAW_12857)
    assert result.status == "unorientable" and not result.model
    eqs = [parse_law(x) for x in (FIXTURES / "12857_saturation.txt").read_text().splitlines() if x]
    assert orient(eqs) is None


def test_completion_stops_on_its_budget():
    result = complete(LAW_4916, work_limit=50)
    assert result.status == "budget" and not result.model


@pytest.mark.eprover
def test_the_judge_certifies_a_convergent_presentation_without_the_provers_saturation():
    # Nonvacuity of E = completed 4916 system: SAT finds no small model (the law has none) and
    # the judge's own convergence check shows the (infinite) term model instead.
    rules = complete(LAW_4916).rules
    cfg = JudgeConfig(prover=EProver("auto"), timeout_s=10, memory_mb=1024)
    v = judge(LAW_4916, {"E": [f"{show(r.lhs)} = {show(r.rhs)}" for r in rules]}, cfg)
    assert v.status == "accepted", v.message
    nonvacuity = v.certificate["checks"][1]
    assert nonvacuity["method"] == "rewriting" and nonvacuity["status"] == "convergent"
