"""The learner view (core.learner): plain sentences from the verifier's findings, judged for real
by the grounding cascade (SymPy in the worker pool), never from a check's prose."""

from __future__ import annotations

import json
import re

import pytest
import sympy as sp

from veristep.cli import main
from veristep.core.learner import JARGON, plain_state, plain_value
from veristep.grounding.cascade import CHECKS
from veristep.grounding.chain import check

CHECK_NAMES = tuple(c.__name__ for c in CHECKS)


def _clean(text: str) -> None:
    """No SymPy syntax, no check name, no tier or verifier word in what a learner reads."""
    assert "**" not in text and "sqrt(" not in text and "*" not in text, text
    lowered = text.lower()
    for word in JARGON + CHECK_NAMES:
        assert not re.search(rf"\b{re.escape(word)}\b", lowered), (word, text)


CASES = [
    ["2x + 8 = 30", "2x = 22", "x = 11"],
    ["2x + 8 = 30", "2x = 38", "x = 19"],
    ["x^2 = 4", "x = 2"],
    ["\\sqrt{x} = x - 2", "x = (x-2)^2", "x^2 - 5x + 4 = 0", "x = 1 \\lor x = 4"],
    ["(a+b)^2", "a^2 + b^2"],
    ["a x = b", "x = \\frac{b}{a}"],
    ["x^2 + 2x = 0", "x + 2 = 0"],
    ["(a+b)^2 = a^2 + b^2"],
    ["\\frac{x^2-1}{x-1}", "x + 1"],
    ["x + 1 = 2", "x = \\"],
    ["x + y = 5 \\land x - y = 1", "x = 4 \\land y = 1"],
    ["2x - 3 < 5", "2x < 2"],
    ["\\sin x = 0", "x = 0"],
    ["2x + 8 = 30"],  # a claim refuted at a landmark: the witness carries non-variable keys
    ["\\frac{1}{x}", "x"],
]


@pytest.mark.parametrize("states", CASES, ids=lambda s: " → ".join(s))
def test_every_learner_sentence_is_plain(states: list[str]) -> None:
    doc = check(states).to_json()
    said = [s["learner"] for s in doc["steps"]] + [doc["confidence"]["learner_summary"]]
    assert all(said), said
    for text in said:
        _clean(text)


def test_a_wrong_step_gives_a_substitution_the_student_can_redo() -> None:
    doc = check(["2x + 8 = 30", "2x = 38", "x = 19"]).to_json()
    step = doc["steps"][0]
    assert step["tier"] == "refuted"
    left = sp.Integer(2) * 19 + 8  # what the student computes by hand
    assert step["learner"].startswith("this step is wrong: x = 19")
    assert (
        f"Put x = 19 into 2x + 8 = 30: the left side is {left}, the right side 30."
        in (step["learner"])
    )
    summary = doc["confidence"]["learner_summary"]
    assert summary.startswith("Your answer is wrong: x = 19 does not solve 2x + 8 = 30.")


def test_a_lost_root_reads_as_incomplete_never_as_probably_fine() -> None:
    doc = check(["x^2 = 4", "x = 2"]).to_json()
    said = doc["steps"][0]["learner"]
    assert said.startswith("incomplete: you lost x = −2.") and "x = 2 or x = −2" in said
    assert (
        doc["confidence"]["learner_summary"]
        == "Incomplete: you lost x = −2; it also solves x² = 4."
    )
    assert "right" not in said


def test_squaring_warns_to_check_the_answers_and_the_summary_agrees_with_the_steps() -> None:
    doc = check(["\\sqrt{x} = x - 2", "x = (x-2)^2", "x^2 - 5x + 4 = 0", "x = 1 \\lor x = 4"])
    doc = doc.to_json()
    assert "squaring can add a solution" in doc["steps"][0]["learner"]
    summary = doc["confidence"]["learner_summary"]
    # Refuted overall: the summary must not also say every step is right.
    assert doc["confidence"]["tier"] == "refuted"
    assert summary.startswith("Your answer is wrong: x = 1 does not solve √x = x − 2.")
    assert "the left side is 1, the right side −1" in summary and "Every step" not in summary
    assert "check your answers at the end" in summary


def test_a_chain_that_already_left_out_the_added_root_is_not_told_to_check_again() -> None:
    doc = check(["\\sqrt{x+2} = x", "x + 2 = x^2", "x = -1 \\lor x = 2", "x = 2"]).to_json()
    summary = doc["confidence"]["learner_summary"]
    assert "checked and left out" in summary and "check your answers" not in summary
    # Without that last line the advice stands.
    doc = check(["\\sqrt{x+2} = x", "x + 2 = x^2", "x^2 - x - 2 = 0"]).to_json()
    assert "check your answers in the first line" in doc["confidence"]["learner_summary"]


def test_dividing_by_a_parameter_names_the_case_to_look_at() -> None:
    said = check(["a x = b", "x = \\frac{b}{a}"]).to_json()["steps"][0]["learner"]
    assert said.startswith("this step is right when a ≠ 0") and "the case a = 0" in said


def test_a_correct_chain_is_right_and_a_false_claim_gives_both_sides() -> None:
    doc = check(["x^2 - 5x + 6 = 0", "(x-2)(x-3) = 0", "x = 2 \\lor x = 3"]).to_json()
    assert [s["learner"] for s in doc["steps"]] == ["this step is right."] * 2
    assert doc["confidence"]["learner_summary"] == "Every step is right."
    claim = check(["(a+b)^2 = a^2 + b^2"]).to_json()["confidence"]["learner_summary"]
    assert claim == "This is false: put a = 1, b = 2 into it: the left side is 9, the right side 5."


def test_spelling_of_values_and_states() -> None:
    assert plain_value("-b/(2*a)") == "−b/(2a)"
    assert plain_value("x**2 - 3*x") == "x² − 3x"
    assert plain_state("\\frac{x^{2}-1}{x-1} = x + 1") == "(x²-1)/(x-1) = x + 1"
    assert plain_state("x \\leq 3 \\lor x \\geq 5") == "x ≤ 3 or x ≥ 5"


def test_round_trip_keeps_the_view_out_of_the_record() -> None:
    from veristep.core.verdicts import Derivation

    doc = check(["x^2 = 4", "x = 2"]).to_json()
    again = Derivation.from_json(json.loads(json.dumps(doc))).to_json()
    assert again == doc


def test_cli_learner_view(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "x^2 = 4", "x = 7", "--view", "learner"]) == 0
    out = capsys.readouterr().out
    assert "✗ x = 7" in out and "Put x = 7 into x² = 4: the left side is 49" in out
    assert main(["check", "x^2 = 3x", "x = 3", "--view", "learner"]) == 0
    slip = capsys.readouterr().out
    assert "? x = 3" in slip and "likely slip: you divided by x, which can be 0" in slip
    _clean(slip)
    _clean(out)
    assert main(["check", "x^2 = 4", "x = 7"]) == 0  # the teacher view stays the default
    assert "Refuted" in capsys.readouterr().out


@pytest.mark.parametrize(
    "step",
    [
        {},
        {
            "tier": "refuted",
            "relation": "refuted",
            "witness": {"landmark": "pole", "at": "→ oo", "previous": "oo", "next": "0"},
        },
        {"tier": "refuted", "relation": "refuted", "facts": {"wrong": [None]}},
        {"tier": "plausible", "relation": "narrows", "facts": {"lost": ["sqrt(2)"], "kept": []}},
        {"tier": "refuted", "relation": "refuted", "witness": "x = 3"},
        {"tier": "nonsense", "relation": "nonsense"},
    ],
)
def test_odd_step_data_gets_a_plain_sentence_never_an_exception(step: dict) -> None:
    from veristep.core.learner import step_sentence

    said = step_sentence(step)
    assert isinstance(said, str) and said
    _clean(said)


def test_a_goal_only_derive_states_the_answer_and_a_wrong_target_is_corrected() -> None:
    from veristep.propose.completion import derive

    solved = derive("x^2 - 2 = 0", None).to_json()["confidence"]["learner_summary"]
    assert solved.startswith("The solutions are x = −√2 and x = √2.")
    wrong = derive("2x + 8 = 30", "x = 12").to_json()["confidence"]["learner_summary"]
    assert wrong.startswith("x = 12 does not solve it: the left side is 32, the right side 30")
    assert "the solution is x = 11" in wrong and "not reached" not in wrong
    for said in (solved, wrong):
        _clean(said)


def test_keep_every_case_is_said_only_of_finitely_many_solutions() -> None:
    interval = check(["2x - 3 < 5", "2x < 2"]).to_json()["steps"][0]["learner"]
    periodic = check(["\\sin x = 0", "x = 0"]).to_json()["steps"][0]["learner"]
    assert interval.startswith("incomplete: you lost x = ") and periodic.startswith("incomplete")
    assert "every case" not in interval and "every case" not in periodic
