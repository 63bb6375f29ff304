"""An equation with no real solution is solved as a teacher solves it, every line graded.

The start of ``x^2 + 1 = 0`` reads as *false* over the reals, so the search alone found nothing to
write ("no answer"); the learner gets the constant moved, the reason, and the empty set instead.
"""

from __future__ import annotations

import pytest

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.grounding import check
from veristep.propose import derive
from veristep.propose.symbolic.no_solution import no_solution_steps

S = Settings()


@pytest.mark.parametrize(
    ("task", "lines"),
    [
        ("x^2 + 1 = 0", ["x^{2} = -1", "x \\in \\emptyset"]),
        ("2^x + 3 = 1", ["2^{x} = -2", "x \\in \\emptyset"]),
        ("5 - x^2 = 9", ["x^{2} = -4", "x \\in \\emptyset"]),
        ("|x| = -3", ["x \\in \\emptyset"]),
        # completing the square meets a negative right side: the square is written as it stands
        (
            "x^2 + 2x + 5 = 0",
            [
                "x^{2} + 2 x = -5",
                "x^{2} + 2 x + 1 = -4",
                "\\left(x + 1\\right)^{2} = -4",
                "x \\in \\emptyset",
            ],
        ),
    ],
)
def test_no_real_solution_is_derived_line_by_line_and_grounded(task: str, lines: list[str]) -> None:
    d = derive(task)
    assert [s.latex for s in d.states[1:]] == lines
    assert all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached and d.confidence.tier is Tier.GROUNDED
    assert d.answer["sentence"] == "there is no real solution"


def test_the_reason_names_the_part_that_cannot_be_negative() -> None:
    steps = no_solution_steps("(x-1)^2 + 3 = 0", S)
    assert steps is not None
    assert steps[0].operation == "subtract $3$ from both sides"
    assert "never negative" in steps[-1].justification and "$-3$" in steps[-1].justification


@pytest.mark.parametrize("task", ["x^2 - 4 = 0", "x^3 + 1 = 0", "\\sqrt{x} + 2 = 0", "y = 3"])
def test_equations_that_are_not_empty_or_not_evidently_so_get_no_such_lines(task: str) -> None:
    assert no_solution_steps(task, S) is None


def test_a_false_claim_of_no_solution_is_refuted_by_the_checker() -> None:
    # The lines are only the planner's proposal: the cascade still judges them.
    d = check(["x^2 - 1 = 0", "x \\in \\emptyset"])
    assert d.steps[0].tier is Tier.REFUTED


@pytest.mark.parametrize(
    ("task", "last_but_one"),
    [
        (r"2\sin x - 10 = 0", r"\sin{\left(x \right)} = 5"),
        (r"\cos(2x) + 3 = 0", r"\cos{\left(2 x \right)} = -3"),
    ],
)
def test_a_sine_or_cosine_beyond_one_has_no_real_solution(task: str, last_but_one: str) -> None:
    """The search used to stop at sin x = 5 with nothing left to try; the range is the reason."""
    d = derive(task)
    assert [s.latex for s in d.states[-2:]] == [last_but_one, r"x \in \emptyset"]
    assert "lies outside" in d.steps[-1].justification
    assert d.endpoint.reached and d.confidence.tier is Tier.GROUNDED


@pytest.mark.parametrize("task", [r"\sqrt{x} = -3", r"\sin x = 5 \land 0 \le x \land x \le 2\pi"])
def test_an_empty_answer_is_written_as_the_empty_set_never_as_bottom(task: str) -> None:
    d = derive(task)
    assert d.states[-1].latex == r"x \in \emptyset" and d.confidence.tier is Tier.GROUNDED


def test_a_power_too_high_to_expand_is_isolated_and_rooted_not_expanded() -> None:
    """2(x - 1)^{99999} = 5 expanded the power and the planner gave up after its budget. (The
    root line itself ends undecided: every check times out on it; a short budget keeps the test
    short, and nothing asserted depends on it.)"""
    quick = Settings(step_timeout_s=1.0, cas_timeout_s=0.5)
    d = derive("2(x-1)^{99999} = 5", settings=quick, attempts=1)
    assert d.steps[0].expr_latex == r"\left(x - 1\right)^{99999} = \frac{5}{2}"
    assert "99999th root" in d.steps[1].operation and d.endpoint.reached
