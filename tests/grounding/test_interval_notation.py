"""Interval notation is decided against inequalities and solution sets, both ways round: a
correct rewrite is equivalent, a wrong one names a point that lies in one set and not the other.
Each witness is re-checked here against the two sets written out by hand in SymPy, never by
asking the cascade again."""

from __future__ import annotations

import pytest
import sympy as sp

from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier
from veristep.grounding import check

SETTINGS = Settings(step_timeout_s=6.0, cas_timeout_s=3.0)
oo = sp.oo
Iv = sp.Interval

# right: (previous, next); wrong: (previous, next, the previous set, the next set)
RIGHT = [
    ("x \\ge 2", "x \\in [2, \\infty)"),
    ("x \\in [2, \\infty)", "x \\ge 2"),
    ("x < 5", "x \\in (-\\infty, 5)"),
    ("-1 < x \\le 3", "x \\in (-1, 3]"),
    ("x \\in [-1, 3)", "-1 \\le x < 3"),
    ("x^2 \\le 4", "x \\in [-2, 2]"),
    ("x^2 - 4x + 3 < 0", "x \\in (1, 3)"),
    ("x^2 = 4", "x \\in \\{-2, 2\\}"),
    ("x^2 - 4x + 3 > 0", "x \\in (-\\infty, 1) \\cup (3, \\infty)"),
    ("x \\in (-\\infty, 1) \\cup (3, \\infty)", "x < 1 \\lor x > 3"),
    ("x^2 - 4x + 3 \\ge 0", "(-\\infty, 1] \\cup [3, \\infty)"),
]
WRONG = [
    ("x > 2", "x \\in [2, \\infty)", Iv.open(2, oo), Iv(2, oo)),
    ("x \\in (2, \\infty)", "x \\ge 2", Iv.open(2, oo), Iv(2, oo)),
    ("-1 < x \\le 3", "x \\in [-1, 3]", Iv.Lopen(-1, 3), Iv(-1, 3)),
    ("x \\in [-1, 3)", "-1 \\le x \\le 3", Iv.Ropen(-1, 3), Iv(-1, 3)),
    ("x^2 < 4", "x \\in [-2, 2)", Iv.open(-2, 2), Iv.Ropen(-2, 2)),
    ("x^2 - 4x + 3 < 0", "x \\in (1, 4)", Iv.open(1, 3), Iv.open(1, 4)),
    ("x \\ge 2", "x \\in (-\\infty, 2]", Iv(2, oo), Iv(-oo, 2)),
    ("x^2 = 4", "x \\in \\{2\\}", sp.FiniteSet(-2, 2), sp.FiniteSet(2)),
    (
        "x^2 - 4x + 3 > 0",
        "x \\in (-\\infty, 1] \\cup (3, \\infty)",
        Iv.open(-oo, 1) | Iv.open(3, oo),
        Iv(-oo, 1) | Iv.open(3, oo),
    ),
    (
        "x \\in (-\\infty, 1) \\cup (3, \\infty)",
        "x^2 - 4x + 3 \\ge 0",
        Iv.open(-oo, 1) | Iv.open(3, oo),
        Iv(-oo, 1) | Iv(3, oo),
    ),
    (
        "x \\in (-\\infty, 1) \\cup (3, \\infty)",
        "x < 1",
        Iv.open(-oo, 1) | Iv.open(3, oo),
        Iv.open(-oo, 1),
    ),
]


@pytest.mark.parametrize(("prev", "nxt"), RIGHT)
def test_a_correct_interval_rewrite_is_proved_equivalent(prev: str, nxt: str) -> None:
    verdict = check([prev, nxt], settings=SETTINGS).steps[0]
    assert verdict.relation is Relation.EQUIVALENT
    assert verdict.tier >= Tier.GROUNDED


def test_a_union_that_is_no_set_is_a_located_error_not_a_crash() -> None:
    verdict = check(["x = 1 \\cup 2", "x = 3"], settings=SETTINGS).steps[0]
    assert verdict.tier is Tier.UNCHECKED and "not a set" in verdict.reason


@pytest.mark.parametrize(("prev", "nxt", "prev_set", "next_set"), WRONG)
def test_a_wrong_interval_rewrite_names_a_point_in_one_set_only(
    prev: str, nxt: str, prev_set: sp.Set, next_set: sp.Set
) -> None:
    verdict = check([prev, nxt], settings=SETTINGS).steps[0]
    assert verdict.relation in (Relation.REFUTED, Relation.NARROWS, Relation.WIDENS)
    assert verdict.tier <= Tier.VERIFIED
    point = _the_point(verdict.witness, verdict.facts)
    assert (point in prev_set) != (point in next_set)


def _the_point(witness: object, facts: dict | None) -> sp.Basic:
    """The value the verdict names: its witness, or the value it says was lost."""
    found = witness if witness is not None else (facts or {}).get("lost")
    while isinstance(found, (list, tuple)):
        found = found[0]
    if isinstance(found, dict):
        found = next(iter(found.values()))
    assert found is not None, "a wrong rewrite must name a point"
    return sp.sympify(found)
