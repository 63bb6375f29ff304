"""The next-step game: distractors from mistake families, each refuted by the real cascade."""

from __future__ import annotations

import pytest
import sympy as sp

from veristep.core.errors import InputError
from veristep.workspace.games import (
    Exercise,
    Feedback,
    Score,
    choose,
    exercise_for_step,
    exercise_steps,
    exercises_from_derivation,
    grade_answer,
    next_step_exercise,
)
from veristep.workspace.mistakes import FAMILIES, wrong_identity
from veristep.workspace.session import Workspace

STEPS = [
    ("(x-2)(x-3) = 0", r"x = 2 \lor x = 3"),
    ("2x + 3 = 7", "2x = 4"),
    ("(x+1)^2 = 9", "x^2 + 2x + 1 = 9"),
    (r"\sqrt{x+9} = 5", "x + 9 = 25"),
    ("3x - 2 < 7", "3x < 9"),
]


@pytest.mark.parametrize(("prev", "nxt"), STEPS)
def test_every_offered_distractor_is_decided_wrong_with_a_witness(prev: str, nxt: str) -> None:
    ex = next_step_exercise(prev, nxt, distractors=10)
    wrong = [c for c in ex.choices if not c.correct]
    assert len(wrong) + len(ex.rejected) >= 1  # every step yields candidates
    assert sum(c.correct for c in ex.choices) == 1
    for c in wrong:
        assert c.family in FAMILIES
        # refuted with a value to substitute, or a lost solution named in the reason
        assert (c.tier == "refuted" and c.witness is not None) or (
            c.tier == "plausible" and "loses" in c.reason
        ), c
    # Held back: what the cascade graded verified or better, or could not decide.
    assert all(r["tier"] != "refuted" and r["relation"] != "narrows" for r in ex.rejected)


def test_the_steps_yield_refuted_distractors() -> None:
    offered = [c for p, n in STEPS[:3] for c in next_step_exercise(p, n).choices if not c.correct]
    assert len(offered) >= 4


def test_a_lost_root_is_offered_as_incomplete_with_the_lost_value_named() -> None:
    ex = next_step_exercise("(x-2)(x-3) = 0", r"x = 2 \lor x = 3", distractors=10)
    (i,) = [k for k, c in enumerate(ex.choices) if c.family == "lost_root"]
    assert ex.choices[i].latex == "x = 2" and ex.choices[i].tier == "plausible"
    feedback = choose(ex, i)
    assert feedback.outcome == "incomplete" and not feedback.counts
    assert "loses 3" in feedback.reason, feedback.reason


def test_refuted_distractors_come_before_incomplete_ones() -> None:
    ex = next_step_exercise("(x-2)(x-3) = 0", r"x = 2 \lor x = 3", distractors=1)
    (distractor,) = [c for c in ex.choices if not c.correct]
    assert distractor.tier == "refuted" and distractor.witness


def test_wrong_identity_family_applies_a_false_identity() -> None:
    x = sp.Symbol("x", real=True)
    (made,) = wrong_identity(sp.Eq((x + 1) ** 2, 9), sp.Eq(x**2 + 2 * x + 1, 9))
    assert made == sp.Eq(x**2 + 1, 9)


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [
        (r"x = 2 \lor x = 3", "right"),
        (r"x = 3 \lor x = 2", "right"),  # the order of cases is not a difference
        (r"x - 2 = 0 \lor x - 3 = 0", "right-but-different"),
        ("x = 2", "incomplete"),
        ("x = 5", "wrong"),
    ],
)
def test_typed_answers_are_graded_by_the_cascade(answer: str, outcome: str) -> None:
    ex = Exercise("(x-2)(x-3) = 0", r"x = 2 \lor x = 3", None)
    feedback = grade_answer(ex, answer)
    assert feedback.outcome == outcome
    if outcome == "wrong":
        assert feedback.witness == [5] or "5" in feedback.reason


def test_a_typed_answer_that_does_not_parse_is_never_right() -> None:
    ex = Exercise("2x = 4", "x = 2", None)
    unreadable = grade_answer(ex, r"x = \frac{1}{")
    assert unreadable.outcome == "unreadable" and not unreadable.counts
    assert "could not be read" in unreadable.reason


def test_choosing_replays_the_stored_verdict() -> None:
    ex = next_step_exercise("2x + 3 = 7", "2x = 4", seed=3)
    right = next(i for i, c in enumerate(ex.choices) if c.correct)
    wrong = next(i for i, c in enumerate(ex.choices) if not c.correct)
    assert choose(ex, right).outcome == "right"
    feedback = choose(ex, wrong)
    assert feedback.outcome == "wrong" and feedback.witness is not None
    with pytest.raises(InputError, match="no choice 9"):
        choose(ex, 9)
    assert Exercise.from_json(ex.to_json()) == ex


def test_a_saved_derivation_becomes_exercises() -> None:
    ws = Workspace("x^2 - 5x + 6 = 0")
    ws.apply("factor")
    ws.apply("solve for x")
    exercises = exercises_from_derivation(ws.derivation().to_json())
    # the typed start is kept as the LaTeX it was read as, which is what an exercise shows
    # every line before the roots is practised, the planned lines of "solve for x" included
    assert [e.state for e in exercises] == ["x^2 - 5x + 6 = 0", *(n.latex for n in ws.path()[1:-1])]
    assert all(any(not c.correct for c in e.choices) for e in exercises)


def test_exercises_are_listed_at_once_and_built_one_step_at_a_time() -> None:
    ws = Workspace("2x + 3 = 7")
    ws.apply("subtract 3 from both sides")
    ws.apply("divide both sides by 2")
    derivation = ws.derivation().to_json()
    derivation["steps"][0]["tier"] = "plausible"  # a step not proved is not one to practise
    assert exercise_steps(derivation) == [2]
    ex = exercise_for_step(derivation, 2)
    assert ex.step == 2 and ex.state == ws.path()[1].latex
    assert any(c.correct for c in ex.choices) and any(not c.correct for c in ex.choices)
    with pytest.raises(InputError, match="step 1 is not one to practise"):
        exercise_for_step(derivation, 1)


def test_score_and_streak() -> None:
    right, wrong = Feedback("right", "grounded", ""), Feedback("wrong", "refuted", "", 1)
    score = Score()
    for fb in (right, right, wrong, right):
        score = score.record(fb)
    assert (score.points, score.streak, score.best, score.answered) == (2 + 3 + 2, 1, 2, 4)


def test_sign_error_lands_in_what_the_step_wrote() -> None:
    from veristep.workspace.mistakes import sign_error

    x, k = sp.Symbol("x", real=True), sp.Symbol("k", real=True)
    # a condition carried along is left alone; the miscopied sum changes in the new equation
    kept = x - 2 >= 0
    (made,) = sign_error(sp.And(sp.Eq(x**2 - 6 * x + 5, 0), kept),
                         sp.And(sp.Eq((x - 5) * (x - 1), 0), kept))  # fmt: skip
    flips = {sp.Eq((x + 5) * (x - 1), 0), sp.Eq((x - 5) * (x + 1), 0)}
    assert kept in made.args and set(made.args) & flips
    # −(x² − 3x) = 0 is no error: one term's sign flips instead
    assert sign_error(sp.Eq(x**2, 3 * x), sp.Eq(x**2 - 3 * x, 0)) == [sp.Eq(x**2 + 3 * x, 0)]
    # a general solution: the offset's sign, not the whole side (−2πk is the same family)
    family = sp.And(sp.Eq(x, 2 * sp.pi * k + sp.pi / 6), sp.Contains(k, sp.S.Integers))
    (made,) = sign_error(sp.Eq(sp.sin(x), sp.Rational(1, 2)), family)
    assert sp.Eq(x, 2 * sp.pi * k - sp.pi / 6) in made.args


def test_wrong_identity_skips_a_condition_carried_along() -> None:
    x = sp.Symbol("x", real=True)
    carried = sp.sqrt(x + 8) >= 0
    assert wrong_identity(sp.And(sp.Eq(4 * x, 12), carried), sp.And(sp.Eq(x, 3), carried)) == []
