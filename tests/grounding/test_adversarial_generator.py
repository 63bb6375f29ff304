"""The adversarial generator in CI: a few hundred classic false steps (``adversarial.py``), each
judged by the cascade and held against the truth decided from the generator's own forms.

No false step may be shown grounded/verified with a relation the truth contradicts, and every
refutation's witness must hold up when substituted independently. ``bench/grounding_adversarial.py``
runs the same families by the ten thousand.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from veristep.core.settings import Settings
from veristep.grounding import Context, judge_transition

sys.path.insert(0, str(Path(__file__).parent))
from adversarial import FAMILIES, Step, classify, make_step, truth

SETTINGS = Settings(step_timeout_s=3.0, cas_timeout_s=1.5)
# About 25 steps per family: eleven families stay near a minute on a shared two-core machine.
PER_FAMILY = settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
STATS: Counter[tuple[str, str]] = Counter()


@st.composite
def steps(draw: Any, family: str) -> Step:
    return make_step(family, lambda seq: draw(st.sampled_from(list(seq))))


@pytest.fixture(scope="module", autouse=True)
def _print_stats() -> Any:
    yield
    for family in sorted(FAMILIES):
        row = {k[1]: v for k, v in STATS.items() if k[0] == family}
        print(f"\nadversarial {family}: {row}")


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_false_steps_are_never_shown_strong(family: str) -> None:
    @PER_FAMILY
    @given(st.data())
    def prop(data: Any) -> None:
        step = data.draw(steps(family))
        verdict = judge_transition(step.prev, step.nxt, None, Context(settings=SETTINGS))
        known = truth(step)
        outcome = classify(step, verdict, known)
        STATS[(family, outcome)] += 1
        where = (
            f"{step.prev} → {step.nxt}: {verdict.relation.value}/{verdict.tier.name_lower} "
            f"[{verdict.check}] {verdict.reason} (truth: {known})"
        )
        assert outcome not in ("unsound", "refuted-bad-witness"), where

    prop()


def test_the_oracle_sees_each_family_fail() -> None:
    """The generator's steps really are false (else the suite would test nothing)."""
    import random

    for family in FAMILIES:
        rng = random.Random(family)
        made = [make_step(family, rng.choice) for _ in range(8)]
        assert sum(truth(s).false for s in made) >= 6, family


def test_the_issue_example_is_false_at_minus_one_one_half() -> None:
    import sympy as sp
    from adversarial import K, X, value

    lhs = sp.Pow(sp.Pow(X, 6, evaluate=False), K, evaluate=False)
    rhs = sp.Pow(X, 6 * K, evaluate=False)
    point = {X: sp.Integer(-1), K: sp.Rational(1, 2)}
    assert (value(lhs, point), value(rhs, point)) == (1, -1)
