"""veristep.grade with the real checker and a real warm pool: verdicts, per-step tiers, bad
chains costing only themselves, many threads at once, and the ray.data batch function."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import veristep
from veristep.api import Grader, map_batches
from veristep.core.tiers import Tier

RIGHT = ["x^2 - 1 = 0", "(x - 1)(x + 1) = 0"]
WRONG = ["x^2 - 1 = 0", "(x - 1)(x + 2) = 0"]
TWO_STEPS = ["2x + 1 = 7", "2x = 6", "x = 4"]  # the second step is wrong


@pytest.fixture(scope="module")
def grader():
    with Grader(workers=2) as shared:
        yield shared


def test_one_chain_gets_its_verdict_and_each_step_s_tier(grader):
    right = veristep.grade(RIGHT, grader=grader)
    assert right.verdict is Tier.GROUNDED and right.tiers == (Tier.GROUNDED,)
    two = veristep.grade(TWO_STEPS, grader=grader)
    assert two.tiers[0] is Tier.GROUNDED and two.tiers[1] is Tier.REFUTED
    assert two.refuted and two.to_json()["verdict"] == "refuted"


def test_many_chains_keep_their_order_and_a_bad_one_costs_only_itself(grader):
    grades = veristep.grade([WRONG, ["x = 1", "x = 1"], RIGHT], grader=grader)
    assert [g.verdict for g in grades] == [Tier.REFUTED, Tier.GROUNDED, Tier.GROUNDED]
    bad = grader.grade(RIGHT, change_types=["rewrite", "rewrite", "rewrite"])
    assert bad.verdict is Tier.UNCHECKED and bad.error and bad.tiers == ()


def test_eight_threads_get_the_same_verdicts_as_one(grader):
    chains = [RIGHT, WRONG, TWO_STEPS] * 4
    alone = [grader.grade(c).to_json() for c in chains]
    with ThreadPoolExecutor(8) as threads:
        together = list(threads.map(lambda c: grader.grade(c).to_json(), chains))
    assert together == alone


def test_map_batches_adds_verdict_and_tier_columns():
    numpy = pytest.importorskip("numpy")
    batch = {"id": numpy.array([7, 8]), "states": numpy.array([RIGHT, WRONG], dtype=object)}
    out = map_batches(batch)
    assert list(out["id"]) == [7, 8]
    assert out["verdict"] == ["grounded", "refuted"]
    assert out["tiers"] == [["grounded"], ["refuted"]]


def test_a_string_is_refused_not_read_as_a_chain_of_letters():
    with pytest.raises(TypeError):
        veristep.grade("x = 1")


def test_a_grade_displays_its_chain_in_a_notebook(grader):
    shown = grader.grade(TWO_STEPS)._repr_html_()
    assert "$2x = 6$" in shown and "grounded" in shown and "refuted" in shown
    bad = grader.grade(RIGHT, change_types=["given", "given", "given"])._repr_html_()
    assert "unchecked" in bad
