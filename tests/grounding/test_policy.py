"""Verdict policy: declared change types, the endpoint gate, ± against ∨, and timeouts."""

from __future__ import annotations

import time

import pytest
from sympy import Eq, symbols

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier
from veristep.grounding import Context, check, endpoint, judge_transition


def test_a_lost_root_is_plausible_at_best_and_named() -> None:
    undeclared = check(["x^2 = 4", "x = 2"]).steps[0]
    declared = check(["x^2 = 4", "x = 2"], ["rewrite"]).steps[0]
    assert (undeclared.relation, undeclared.tier) == (Relation.NARROWS, Tier.PLAUSIBLE)
    assert "loses -2" in undeclared.reason
    assert (declared.relation, declared.tier) == (Relation.NARROWS, Tier.PLAUSIBLE)
    assert declared.reason.endswith("— but the step was declared 'rewrite'")
    assert declared.change_type == "rewrite"


def test_a_widening_step_is_verified_at_best_and_loses_a_tier_when_mislabelled() -> None:
    solve = check([r"\sqrt{x+2} = x", "x + 2 = x^2"], ["solve"]).steps[0]
    rewrite = check([r"\sqrt{x+2} = x", "x + 2 = x^2"], ["rewrite"]).steps[0]
    assert (solve.relation, solve.tier) == (Relation.WIDENS, Tier.VERIFIED)
    assert solve.witness == [-1] and "adds -1" in solve.reason
    assert (rewrite.relation, rewrite.tier) == (Relation.WIDENS, Tier.PLAUSIBLE)
    assert "declared 'rewrite'" in rewrite.reason


def test_dividing_by_a_parameter_is_verified_with_the_assumption() -> None:
    step = check(["a x = a", "x = 1"]).steps[0]
    assert (step.relation, step.tier) == (Relation.NARROWS, Tier.VERIFIED)
    assert "assumes a ≠ 0" in step.reason


def test_a_consistent_declaration_costs_nothing() -> None:
    step = check(["2x = 4", "x = 2"], ["solve"]).steps[0]
    assert step.tier is Tier.GROUNDED and "declared" not in step.reason


def test_a_given_step_is_never_refuted_for_its_relation() -> None:
    step = check(["x = 1", "y = 5"], ["given"]).steps[0]
    assert step.tier is Tier.PLAUSIBLE and "given" in step.reason


def test_plus_minus_step_grades_no_worse_than_the_or_form() -> None:
    pm = check(["x^2 = 9", r"x = \pm 3"]).steps[0]
    vee = check(["x^2 = 9", r"x = 3 \lor x = -3"]).steps[0]
    assert pm.tier >= vee.tier and pm.relation == vee.relation == Relation.EQUIVALENT


def test_plus_minus_square_root_step_grades_like_its_or_form() -> None:
    prev = r"\left(x + \frac{b}{2a}\right)^2 = \frac{b^2 - 4ac}{4a^2}"
    root = r"\frac{\sqrt{b^2 - 4ac}}{2a}"
    pm = check([prev, rf"x + \frac{{b}}{{2a}} = \pm {root}"]).steps[0]
    vee = check([prev, rf"x + \frac{{b}}{{2a}} = {root} \lor x + \frac{{b}}{{2a}} = -{root}"])
    assert pm.tier == vee.steps[0].tier >= Tier.VERIFIED
    assert pm.relation is Relation.EQUIVALENT


def test_or_form_reaches_plus_minus_target() -> None:
    last = r"x = \frac{-b - \sqrt{b^2 - 4ac}}{2a} \lor x = \frac{-b + \sqrt{b^2 - 4ac}}{2a}"
    end = endpoint(last, r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}")
    assert end.reached and end.math_correct and not end.exact_graph


def test_endpoint_not_reached_caps_the_chain_at_plausible() -> None:
    d = check(["x + 1 = 3", "x = 2"], target="x = 3")
    assert d.steps[0].tier is Tier.GROUNDED
    assert not d.endpoint.reached and d.confidence.tier is Tier.PLAUSIBLE
    assert d.confidence.summary == "1/1 steps verified · endpoint NOT reached"


def test_a_refuted_step_refutes_the_chain_even_at_the_target() -> None:
    d = check(["x^2 = 4", "x = 2", "x = 7"], target="x = 7")
    assert d.endpoint.reached and d.confidence.tier is Tier.REFUTED
    assert d.steps[1].witness == [7]


def test_judge_transition_takes_sympy_statements() -> None:
    x = symbols("x", real=True)
    verdict = judge_transition(Eq(x**2, 4), Eq(x, 7), "rewrite")
    assert verdict.tier is Tier.REFUTED and verdict.witness == [7]


def test_bad_change_type_is_an_input_error() -> None:
    with pytest.raises(InputError, match="did you mean"):
        check(["x = 1", "x = 1"], ["sovle"])


TIMEOUT_CASES = [
    (r"(x+1)^{3000} - (x-1)^{3000}", "2"),
    (r"(x+1)^{400} = (x-1)^{400} + 3", "x = 1"),
    (r"\sin(x)^{40} + \cos(x)^{40} = 1", "x = 0"),
]


@pytest.mark.parametrize(("prev", "nxt"), TIMEOUT_CASES)
def test_states_that_time_out_are_plausible_never_refuted(prev: str, nxt: str) -> None:
    settings = Settings(cas_timeout_s=0.3, step_timeout_s=1.2)
    start = time.monotonic()
    verdict = judge_transition(prev, nxt, "rewrite", Context(settings=settings))
    elapsed = time.monotonic() - start
    assert (verdict.relation, verdict.tier) == (Relation.UNKNOWN, Tier.PLAUSIBLE)
    assert "timeout" in verdict.reason or "budget exhausted" in verdict.reason
    # The step budget plus one CAS deadline and a worker respawn, never an unbounded wait.
    assert elapsed < settings.step_timeout_s + settings.cas_timeout_s + 2.0
