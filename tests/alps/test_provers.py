"""One conformance suite for every prover adapter; an absent prover skips with the reason."""

from __future__ import annotations

import stat

import pytest

from veristep.alps.provers import EProver, _finish, all_adapters, parse_szs, run_budgeted, wall_for
from veristep.alps.terms import parse_law, parse_term
from veristep.alps.tptp import (
    admissibility_problem,
    implication_problem,
    nontriviality_problem,
    triviality_problem,
)

ADAPTERS = all_adapters()
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


def test_e3_is_a_separate_portfolio_member_with_its_own_options():
    e3 = EProver("satauto", release="3")
    if e3.unavailable():
        pytest.skip(e3.unavailable())
    assert e3.name == "e3/satauto" and e3.major_version() >= 3
    assert e3.mode_options() == ["--satauto-schedule"]  # E 3 removed --satauto
    assert "e3/auto" in {p.name for p in all_adapters()}


def test_cpu_budget_stops_a_busy_program_before_the_wall_deadline():
    import sys

    res = run_budgeted([sys.executable, "-c", "while True: pass"], 1, 512, "", wall_s=60)
    assert not res.timed_out  # RLIMIT_CPU stopped it, not the (far later) wall deadline
    out = _finish("busy", ["busy"], res, lambda r, o: ("Error", "no SZS"))
    assert out.status == "ResourceOut" and not out.proved and not out.model
    assert wall_for(1) > 1


DEEP_LAW = parse_law("x = ((((y ◇ (z ◇ w)) ◇ (x ◇ y)) ◇ (y ◇ (x ◇ x))) ◇ y)")


def test_prover9_searches_deep_laws_instead_of_giving_up():
    from veristep.alps.provers import Prover9, prover9_binary, prover9_header

    p9 = Prover9()
    if p9.unavailable():
        pytest.skip(p9.unavailable())
    problem = triviality_problem(DEEP_LAW)
    # Prover9's own default weight limit empties its search set: "SEARCH FAILED" (sos_empty).
    default = run_budgeted([prover9_binary()], 2, 1024, "assign(max_seconds, 2).\n" + problem.ladr)
    assert "sos_empty" in default.stdout
    res = p9.run(problem, 2, 1024)
    assert "max_weight, 1000" in prover9_header(2, 1024)
    assert res.status in ("ResourceOut", "Timeout") and "sos_empty" not in res.output
    assert "assign(max_weight,1000)." in res.output  # the wide search took over


def test_prover9_keeps_its_own_weight_limit_where_that_search_does_not_empty():
    from veristep.alps.provers import Prover9

    p9 = Prover9()
    if p9.unavailable():
        pytest.skip(p9.unavailable())
    res = p9.run(triviality_problem(parse_law("x = y ◇ (z ◇ y)")), 5, 1024)
    assert res.proved and "max_weight" not in res.output  # proved by the first, default search
