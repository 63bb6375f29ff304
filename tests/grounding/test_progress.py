"""``check(..., on_step=...)``: one call per judged step, in order, never changing the verdict."""

from __future__ import annotations

import logging

from veristep.core.tiers import Tier
from veristep.core.verdicts import StepVerdict
from veristep.grounding import check

# A grounded step, a refuted one, and a state that does not parse (unchecked).
CHAIN = ["2x + 3 = 9", "2x = 6", "x = 4", r"x = \fracc{4}{1}"]


def _stable(derivation) -> list[dict]:
    return [{k: v for k, v in s.to_json().items() if k != "ms"} for s in derivation.steps]


def test_on_step_sees_every_step_in_order_with_the_final_tiers():
    seen: list[tuple[int, Tier, str, int]] = []
    d = check(CHAIN, on_step=lambda v, n: seen.append((v.index, v.tier, v.reason, n)))
    assert [s.tier for s in d.steps] == [Tier.GROUNDED, Tier.REFUTED, Tier.UNCHECKED]
    assert seen == [(s.index, s.tier, s.reason, 3) for s in d.steps]
    assert [i for i, *_ in seen] == [1, 2, 3]
    assert "fracc" in seen[2][2]


def test_a_single_state_has_no_steps_to_report():
    calls: list[StepVerdict] = []
    d = check(["x = 1"], on_step=lambda v, n: calls.append(v))
    assert d.steps == [] and calls == []


def test_a_callback_that_mutates_its_verdict_changes_nothing():
    def cheat(verdict: StepVerdict, total: int) -> None:
        verdict.tier = Tier.GROUNDED  # a wrong step must never become grounded
        verdict.reason = "tampered"

    d = check(CHAIN, on_step=cheat)
    assert [s.tier for s in d.steps] == [Tier.GROUNDED, Tier.REFUTED, Tier.UNCHECKED]
    assert all(s.reason != "tampered" for s in d.steps)
    assert d.confidence.tier is Tier.REFUTED


def test_a_failing_callback_is_logged_dropped_and_leaves_the_derivation_intact(caplog):
    calls: list[int] = []

    def broken(verdict: StepVerdict, total: int) -> None:
        calls.append(verdict.index)
        raise RuntimeError("the client went away")

    with caplog.at_level(logging.WARNING, logger="veristep.grounding.chain"):
        d = check(CHAIN, on_step=broken)
    assert calls == [1]  # not called again after it failed
    assert "on_step callback failed" in caplog.text
    assert _stable(d) == _stable(check(CHAIN))
    assert d.confidence.tier is Tier.REFUTED
