"""The judge's self-test against the real E prover, and the gate it puts on sweeps and evals."""

from __future__ import annotations

import json

import pytest

from veristep.alps.selftest import (
    Control,
    SelftestFailed,
    SelftestReport,
    ensure_selftest,
    run_selftest,
    stamp_path,
)

pytestmark = pytest.mark.eprover


def test_selftest_passes_against_real_e_prover():
    report = run_selftest(timeout_s=20)
    assert report.passed, "\n".join(report.lines())
    names = {c.name for c in report.controls}
    assert "chain: two-position change" in names and "construction: x = y fails (b)" in names
    assert sum(c.name.startswith("lean gate:") for c in report.controls) == 8


@pytest.mark.parametrize("release", ["", "3"], ids=["e-default", "e3"])
def test_selftest_passes_with_each_installed_e(release):
    from veristep.alps.provers import EProver

    prover = EProver("auto", release=release)
    if prover.unavailable():
        pytest.skip(prover.unavailable())
    report = run_selftest(prover, timeout_s=20)
    assert report.passed, "\n".join(report.lines())


def test_stamp_is_reused_until_the_fingerprint_changes(tmp_path):
    fresh = ensure_selftest(tmp_path)
    assert fresh is not None and fresh.passed
    assert ensure_selftest(tmp_path) is None  # reused: same judge, same prover
    stamp = json.loads(stamp_path(tmp_path).read_text())
    stamp["fingerprint"] = "something-else"
    stamp_path(tmp_path).write_text(json.dumps(stamp))
    assert ensure_selftest(tmp_path) is not None  # judge changed: rerun


def test_a_failing_control_refuses_to_run(tmp_path):
    broken = SelftestReport([Control("chain: junk JSON", "invalid", "accepted")], "x")
    with pytest.raises(SelftestFailed, match="chain: junk JSON"):
        ensure_selftest(tmp_path, runner=lambda: broken)
    # The failure is stamped, so the next call does not trust a stale pass either.
    assert json.loads(stamp_path(tmp_path).read_text())["passed"] is False
