"""Rejecting an extraneous root is the step that makes the answer right (docs/design.md: the
lossy-step table): a narrowing step that drops only values which do not solve the START is grounded,
with each dropped value named; one that drops a value which does solve the start stays "a lost
solution".

Chains come from ``fixtures/extraneous_roots.txt``; every dropped value is substituted into the
start by the mpmath oracle of ``test_soundness_fuzz`` (never by asking the cascade again).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import sympy as sp

from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier
from veristep.grounding import check

sys.path.insert(0, str(Path(__file__).parent))
from test_soundness_fuzz import holds, written

FIXTURE = Path(__file__).parent / "fixtures" / "extraneous_roots.txt"
SETTINGS = Settings(step_timeout_s=6.0, cas_timeout_s=3.0)


def _cases() -> list[object]:
    out = []
    for number, raw in enumerate(FIXTURE.read_text(encoding="utf-8").splitlines(), 1):
        if raw.strip() and not raw.lstrip().startswith("#"):
            chain, expect = raw.split("=>")
            states = [s.strip() for s in chain.split(";;")]
            rule, value = expect.split(maxsplit=1)
            out.append(pytest.param(states, rule, value.strip(), id=f"extraneous:{number}"))
    return out


def _point(value: str, start: sp.Basic) -> dict[sp.Symbol, sp.Basic]:
    """'−1' or '(x = 1, y = -1)' as a point over the start's symbols."""
    syms = {s.name: s for s in start.free_symbols}
    if value.startswith("("):
        pairs = (p.split("=") for p in value.strip("()").split(","))
        return {syms[k.strip()]: sp.sympify(v) for k, v in pairs}
    (only,) = syms.values()
    return {only: sp.sympify(value)}


@pytest.mark.parametrize(("states", "rule", "value"), _cases())
def test_last_step_judged_against_the_start(states: list[str], rule: str, value: str) -> None:
    d = check(states, settings=SETTINGS)
    last = d.steps[-1]
    where = f"{' → '.join(states)}: {last.relation.value}/{last.tier.name_lower}: {last.reason}"
    start = written(states[0])
    assert last.relation is Relation.NARROWS, where
    if rule == "dropped":
        assert last.tier is Tier.GROUNDED, where
        assert f"drops {value}, which does not solve the start" in last.reason, where
        assert not holds(start, _point(value, start)), f"the oracle says {value} solves: {where}"
        assert d.confidence.tier > Tier.PLAUSIBLE or any(
            s.tier <= Tier.PLAUSIBLE for s in d.steps[:-1]
        ), where  # the chain is held back only by an earlier step, never by the rejection
    else:
        assert rule == "lost", f"unknown rule {rule!r}"
        assert last.tier is Tier.PLAUSIBLE, where
        assert f"loses {value}" in last.reason and "a lost solution" in last.reason, where
        assert holds(start, _point(value, start)), f"the oracle says {value} fails: {where}"


def test_dropping_a_root_right_after_the_start_is_a_lost_solution() -> None:
    """With no step between, the previous line *is* the start: its roots all solve it."""
    d = check(["x^2 = 4", "x = 2"], settings=SETTINGS)
    assert d.steps[0].tier is Tier.PLAUSIBLE and "a lost solution" in d.steps[0].reason


def test_a_rewrite_that_rejects_a_root_costs_one_tier() -> None:
    """A declared 'rewrite' claims equivalence; the rejection narrows, so it is verified."""
    states = [r"\sqrt{x+2} = x", "x + 2 = x^2", r"x = -1 \lor x = 2", "x = 2"]
    d = check(states, ["solve", "solve", "rewrite"], settings=SETTINGS)
    assert d.steps[-1].tier is Tier.VERIFIED
    assert d.steps[-1].reason.endswith("— but the step was declared 'rewrite'")


def test_the_dropped_value_is_data_for_the_learner_view() -> None:
    states = [r"\sqrt{x+2} = x", "x + 2 = x^2", r"x = -1 \lor x = 2", "x = 2"]
    step = check(states, settings=SETTINGS).to_json()["steps"][-1]
    assert step["facts"]["lost"] == ["-1"]
    assert step["facts"]["dropped"][0]["point"] == {"x": "-1"}
    assert "incomplete" not in step["learner"] and "x = −1" in step["learner"]
