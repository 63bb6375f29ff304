"""One conformance suite for every prover adapter; an absent prover skips with the reason."""

from __future__ import annotations

import stat

import pytest

from veristep.alps.provers import EProver, Prover9, Twee, Vampire, parse_szs
from veristep.alps.terms import parse_law, parse_term
from veristep.alps.tptp import (
    admissibility_problem,
    implication_problem,
    nontriviality_problem,
    triviality_problem,
)

ADAPTERS = [EProver("auto"), EProver("satauto"), Vampire(), Twee(), Prover9()]
LAW_12857 = parse_law("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)")


@pytest.fixture(params=ADAPTERS, ids=lambda p: p.name)
def prover(request):
    reason = request.param.unavailable()
    if reason:
        print(f"skipping {request.param.name}: {reason}")
        pytest.skip(reason)
    return request.param


pytestmark = pytest.mark.eprover


def test_proves_a_trivial_law(prover):
    res = prover.run(triviality_problem(parse_law("x = y ◇ z")), 10, 1024)
    assert res.status in ("Theorem", "Unsatisfiable") and res.proved


def test_proves_admissibility_of_the_worked_example(prover):
    problem = admissibility_problem(LAW_12857, parse_term("x ◇ (y ◇ (z ◇ z))"), "x")
    res = prover.run(problem, 10, 1024)
    assert res.proved, res.output[-500:]


def test_never_proves_a_non_implication(prover):
    # x = y ◇ x has the 2-element right-projection model, so it does not imply x = y.
    res = prover.run(triviality_problem(parse_law("x = y ◇ x")), 5, 1024)
    assert not res.proved
    res = prover.run(
        implication_problem([parse_law("x ◇ y = y ◇ x")], parse_law("x = x ◇ x")), 5, 1024
    )
    assert not res.proved


def test_model_answers_only_from_a_complete_saturation(prover):
    res = prover.run(nontriviality_problem([parse_law("x = y ◇ x")]), 5, 1024)
    assert res.status != "Error"
    assert not res.proved
    if res.model:
        assert res.status in ("Satisfiable", "CounterSatisfiable")


def test_a_tiny_budget_is_never_evidence(prover):
    # A hard question under one second: whatever comes back must not claim a proof of x = y.
    res = prover.run(triviality_problem(LAW_12857), 1, 1024)
    assert not res.proved
    assert res.ms < 15_000


def test_output_without_szs_line_is_an_error(tmp_path):
    fake = tmp_path / "fake-eprover"
    fake.write_text("#!/bin/sh\necho 'E 2.6 Floral Guranse'\necho 'nothing useful'\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    res = EProver("auto", binary=str(fake)).run(triviality_problem(parse_law("x = y ◇ z")), 5, 512)
    assert res.status == "Error" and "no SZS" in res.detail
    assert parse_szs("% SZS status Bogus") == "Error"


def test_e_options_are_version_gated():
    e = EProver("satauto")
    if e.unavailable():
        pytest.skip(e.unavailable())
    expected = ["--satauto"] if e.major_version() < 3 else ["--satauto-schedule"]
    assert e.mode_options() == expected
