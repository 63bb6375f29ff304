"""Name the slip (workspace.slips): the mistake families run backwards, judged by the real cascade
(SymPy in the worker pool) — and a correct line is never blamed."""

from __future__ import annotations

import pytest

from veristep.core.settings import Settings
from veristep.workspace.games import next_step_exercise
from veristep.workspace.slips import name_slip

SLIPS = [
    ("2x + 8 = 30", "2x = 38", "sign_error"),  # +8 carried across with its sign
    ("5x - 3 = 2x + 9", "3x = 6", "sign_error"),
    ("x^2 = 4", "x = 2", "lost_root"),
    ("(a+b)^2", "a^2 + b^2", "wrong_identity"),
    ("x^2 = 3x", "x = 3", "divided_by_zero"),
    ("3x = 12", "x = 5", "arithmetic_slip"),
    ("x^2 + 3x - 4 = 2x", "x^2 - 4 = 2x", "dropped_term"),
]


@pytest.mark.parametrize(("prev", "wrong", "family"), SLIPS)
def test_names_the_family_of_a_classic_slip(prev: str, wrong: str, family: str) -> None:
    slip = name_slip(prev, wrong)
    assert slip is not None and slip.family == family, slip
    assert "**" not in slip.sentence and "sqrt(" not in slip.sentence


def test_the_sentences_say_what_went_wrong() -> None:
    assert "(a + b)² is not a² + b²" in name_slip("(a+b)^2", "a^2 + b^2").sentence
    said = name_slip("x^2 = 3x", "x = 3").sentence
    assert said.startswith("you divided by x, which can be 0")


CORRECT = [
    ("2x + 8 = 30", "2x = 22"),
    ("2x + 8 = 30", "x + 4 = 15"),  # a different right move than the planner's
    ("x^2 = 4", "x = 2 \\lor x = -2"),
    ("(a+b)^2", "a^2 + 2ab + b^2"),
    ("x^2 = 3x", "x(x - 3) = 0"),
    ("a x = b", "x = \\frac{b}{a}"),  # assumes a ≠ 0: not a slip
    ("\\sqrt{x} = x - 2", "x = (x-2)^2"),  # squaring widens: not a slip either
]


@pytest.mark.parametrize(("prev", "right"), CORRECT)
def test_never_blames_a_correct_line(prev: str, right: str) -> None:
    assert name_slip(prev, right) is None
    assert name_slip(prev, right, correct=[right]) is None


@pytest.mark.parametrize(
    ("prev", "nxt"),
    [
        ("3x - 7 = 11", "3x = 18"),
        ("x^2 - 5x + 6 = 0", "(x-2)(x-3) = 0"),
        ("x^2 = 9", "x = 3 \\lor x = -3"),
    ],
)
def test_names_the_family_that_made_each_distractor_of_the_game(prev: str, nxt: str) -> None:
    settings = Settings()
    ex = next_step_exercise(prev, nxt, settings=settings, distractors=10)
    wrong = [c for c in ex.choices if not c.correct]
    assert wrong
    for c in wrong:
        slip = name_slip(ex.state, c.latex, settings, correct=[ex.expected])
        assert slip is not None and slip.family == c.family, (c.latex, c.family, slip)
    assert name_slip(ex.state, ex.expected, settings) is None
