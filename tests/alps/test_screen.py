"""Screening with the real E prover: the worked example, a stratified ALPS slice, resumability."""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest

from veristep.alps.finite_models import satisfies
from veristep.alps.provers import EProver
from veristep.alps.screen import classify, screen_law, screen_many
from veristep.alps.stages import ScreenBudget, StageResult, admissible, witnesses
from veristep.alps.store import ScreenStore
from veristep.alps.terms import canonical, parse_law, to_star

pytestmark = pytest.mark.eprover

LAW_12857 = "x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)"


@pytest.fixture(scope="module")
def e():
    prover = EProver("auto")
    if prover.unavailable():
        pytest.skip(prover.unavailable())
    return prover


def test_worked_example_12857_is_austin_proven_by_e_alone(e):
    report = screen_law(LAW_12857, ScreenBudget(prover_s=20, completion_s=0), e)
    assert report.status == "AUSTIN_PROVEN"
    adm, nt = report.stage("admissible"), report.stage("nontrivial")
    assert adm.outcome == "yes" and adm.prover == "e/auto"
    assert "SZS status Theorem" in adm.certificate and "surjective" in adm.certificate
    assert nt.outcome == "yes" and nt.prover == "e/auto"
    assert "Satisfiable" in nt.certificate  # E says so only after a complete saturation
    assert report.stage("finite_model").outcome == "no"


def test_with_ordered_completion_the_model_needs_no_prover(e):
    # 12857 needs 1.4-2.3 CPU s of completion: the default 2 s is a coin toss on a busy machine.
    report = screen_law(LAW_12857, ScreenBudget(prover_s=20, completion_s=10), e)
    assert report.status == "AUSTIN_PROVEN"
    nt, triv = report.stage("nontrivial"), report.stage("trivial")
    assert nt.outcome == "yes" and nt.prover == "veristep/ordered"
    assert nt.detail.startswith("ground convergent") and '"certified": true' in nt.certificate
    assert triv.outcome == "no" and "ordered completion" in triv.detail
    assert report.stage("admissible").prover == "e/auto"  # no finite model: still E's proof


def test_dual_33436_screens_the_same_way(e):
    report = screen_law("x = (y ◇ (((z ◇ z) ◇ y) ◇ x)) ◇ y", ScreenBudget(prover_s=20), e)
    assert report.status == "AUSTIN_PROVEN"


def test_witnesses_free_ones_first_then_those_needing_an_injectivity_proof():
    found = [(to_star(t), free) for _, t, free in witnesses(parse_law(LAW_12857))]
    assert found == [("(x*(y*(z*z)))", True), ("((x*(y*(z*z)))*y)", True)]
    found = [
        (to_star(t), free) for _, t, free in witnesses(parse_law("x = (y ◇ (x ◇ x)) ◇ (x ◇ z)"))
    ]
    assert found == [("(x*x)", False), ("(x*z)", False), ("(y*(x*x))", False)]
    assert witnesses(parse_law("x = x ◇ y")) == []


def test_witness_without_every_x_needs_its_injectivity_proved(e):
    # ALPS's certificate for this Austin law uses S = y ◇ (x ◇ x), which misses the x in x ◇ w.
    law = parse_law("x = (y ◇ (x ◇ x)) ◇ ((y ◇ (z ◇ (x ◇ w))) ◇ y)")
    result = admissible(law, e, ScreenBudget(prover_s=10, max_witnesses=4))
    assert result.outcome == "yes", result.detail
    assert "injective" in result.certificate and "surjective" in result.certificate


def test_labels_follow_alps_rules():
    def r(stage, outcome):
        return StageResult(stage, outcome)

    assert classify([r("trivial", "yes")]) == "TRIVIAL"
    assert classify([r("admissible", "yes"), r("nontrivial", "yes")]) == "AUSTIN_PROVEN"
    assert classify([r("admissible", "yes"), r("nontrivial", "unknown")]) == "NO_FINITE_MODEL"
    assert classify([r("finite_model", "yes")]) == "HAS_FINITE_MODEL"
    assert classify([r("admissible", "unknown"), r("nontrivial", "yes")]) == "SATISFIABLE_ONLY"
    assert classify([r("trivial", "unknown"), r("nontrivial", "error")]) == "OPEN"


def _slice(shared_data, per_status: int):
    rows = [json.loads(x) for x in (shared_data / "alps_dev" / "final_status.jsonl").open()]
    by = defaultdict(list)
    for row in rows:
        by[row["status"]].append(row)
    rng = random.Random(7)
    return [row for status in sorted(by) for row in rng.sample(by[status], per_status)]


def test_stratified_slice_is_sound_and_models_check(shared_data, tmp_path, e):
    rows = _slice(shared_data, 2)  # 12 laws, 2 per ALPS status
    truth = {str(canonical(parse_law(r["law"]))): r["status"] for r in rows}
    store = ScreenStore(tmp_path / "slice.sqlite")
    screen_many(
        list(truth), store, ScreenBudget(prover_s=2, max_witnesses=2), workers=2, progress=False
    )
    agree = 0
    for law, alps in truth.items():
        report = store.load(law)
        assert report is not None
        ours = report.status
        agree += ours == alps
        if alps in ("TRIVIAL", "HAS_FINITE_MODEL"):
            assert ours != "AUSTIN_PROVEN", law
        if alps == "TRIVIAL":
            assert ours not in ("HAS_FINITE_MODEL", "SATISFIABLE_ONLY"), law
        if alps == "AUSTIN_PROVEN":
            assert ours not in ("HAS_FINITE_MODEL", "TRIVIAL"), law
        if alps == "NO_FINITE_MODEL":  # unresolved by ALPS: TRIVIAL would be a new resolution
            assert ours != "HAS_FINITE_MODEL", law
        fm = report.stage("finite_model")
        if fm is not None and fm.outcome == "yes":
            table = tuple(tuple(map(int, row.split())) for row in fm.certificate.splitlines())
            assert satisfies(table, parse_law(law))
    assert agree >= 6  # half is a floor, not a target (measured agreement: docs/alps.md)


def test_screening_resumes_and_keeps_certificates(tmp_path, e, monkeypatch):
    store = ScreenStore(tmp_path / "s.sqlite")
    laws = [str(canonical(parse_law(t))) for t in ("x = y ◇ z", "x = y ◇ x", LAW_12857)]
    first = screen_many(laws[:2], store, ScreenBudget(prover_s=10), workers=1, progress=False)
    assert first == {"TRIVIAL": 1, "HAS_FINITE_MODEL": 1}
    second = screen_many(laws, store, ScreenBudget(prover_s=10), workers=1, progress=False)
    assert second == {"AUSTIN_PROVEN": 1}  # only the new law was screened
    assert "SZS status Theorem" in store.certificate(laws[0], "trivial")
    assert store.certificate(laws[1], "finite_model") == "0 1\n0 1"
    out = tmp_path / "out.jsonl"
    assert store.export_jsonl(out) == 3
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert {r["status"] for r in rows} == {"TRIVIAL", "HAS_FINITE_MODEL", "AUSTIN_PROVEN"}
    austin = next(r for r in rows if r["status"] == "AUSTIN_PROVEN")
    assert austin["no_finite_model"] and austin["nontrivial_model"] and austin["witness"]


def test_a_failing_worker_is_counted_not_stored(tmp_path, e):
    store = ScreenStore(tmp_path / "s.sqlite")
    counts = screen_many(
        ["x = (y", "x = y ◇ z"], store, ScreenBudget(prover_s=5), workers=1, progress=False
    )
    assert counts == {"ERROR": 1, "TRIVIAL": 1}
    assert store.finished() == {"x = y ◇ z"}  # the broken one is retried on the next run
