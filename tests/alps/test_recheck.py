"""The judge's re-check of a sweep resolution: its own, larger budget; never a discard for time."""

from __future__ import annotations

import pytest

from veristep.alps.provers import EProver
from veristep.alps.sweep import CONFIGS, _recheck, recheck_budget

pytestmark = pytest.mark.eprover


def test_recheck_budget_is_larger_than_the_finders():
    assert recheck_budget(30) > 30


def test_a_real_proof_is_reproduced_under_the_judges_budget():
    note = _recheck("x = y ◇ z", "TRIVIAL", 2, 1024)
    assert note.startswith("judge: proof reproduced") and "8 s budget" in note


def test_a_completed_recheck_that_disagrees_discards_the_claim():
    # x = y ◇ x has a two-element model: E saturates, so a TRIVIAL claim is refuted, not kept.
    assert _recheck("x = y ◇ x", "TRIVIAL", 2, 1024).startswith("unconfirmed")


def test_a_recheck_out_of_time_keeps_the_result_and_says_so():
    # Law 12857 at a quarter-second budget: E cannot settle it, so the claim is kept, marked.
    note = _recheck("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)", "TRIVIAL", 0.25, 1024)
    assert note.startswith("kept: re-checks ran out of their 1 s budget")


def test_e3_configurations_are_in_the_portfolio():
    names = {name for name, _, _ in CONFIGS}
    assert {"e3/triv/auto", "e3/sat/satauto"} <= names
    if EProver("auto", release="3").unavailable() is None:
        from veristep.alps.sweep import config_names

        assert "e3/triv/auto" in config_names()
