"""Ask for what you want: derive without a target, task words, and wrong targets corrected."""

from __future__ import annotations

import json

import pytest
import sympy as sp

from veristep.cli import main
from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.propose import Draft, ProposedStep, derive, ground_draft
from veristep.propose.answer import apply_goal_gate
from veristep.propose.symbolic.proposer import latex_to_sympy
from veristep.propose.tasks import read_task

S = Settings()


def _value(latex: str) -> sp.Basic:
    return latex_to_sympy(latex, S)


def test_linear_equation_without_target_is_solved_and_checked_by_substitution() -> None:
    d = derive("2x + 3 = 25")
    assert d.goal == "solve" and d.target is None
    assert d.endpoint.reached and d.confidence.tier is Tier.GROUNDED
    assert d.states[-1].latex == "x = 11"
    assert d.answer["sentence"] == "$x = 11$"
    assert d.answer["substitution"] == {"holds": True, "complete": True, "points": [{"x": "11"}]}


@pytest.mark.parametrize(
    ("task", "sentence"),
    [
        ("solve x^2 - 5x + 6 = 0", "the solutions are $x = 2$ and $x = 3$"),
        (r"\sqrt{x + 3} = x - 3", "$x = 6$"),  # the extraneous root 1 is rejected first
        (r"\begin{cases} x + y = 10 \\ x - y = 4 \end{cases}", "$x = 7$ and $y = 3$"),
        ("3x - 7 < 8", "the solution is $x < 5$"),
        ("solve x^2 - 2x - 8 <= 0", "the solution is $-2 \\leq x \\leq 4$"),
        ("solve v = u + a t for t", "$t = - \\frac{u}{a} + \\frac{v}{a}$"),
    ],
)
def test_statements_are_solved_to_a_stated_answer(task: str, sentence: str) -> None:
    d = derive(task)
    assert d.endpoint.reached and d.confidence.tier >= Tier.VERIFIED
    assert d.answer["stated"] and d.answer["sentence"] == sentence


@pytest.mark.parametrize(
    ("task", "goal", "expected"),
    [
        ("differentiate x^2 sin x", "differentiate", "2 x \\sin x + x^2 \\cos x"),
        ("integrate 3x^2 + 2x from 0 to 1", "integrate", "2"),
        ("limit of sin(x)/x as x -> 0", "limit", "1"),
        ("factor x^3 - 1", "factor", "(x - 1)(x^2 + x + 1)"),
        ("expand (x + 2)^3", "expand", "x^3 + 6x^2 + 12x + 8"),
        (r"\frac{1}{2} + \frac{1}{3}", "simplify", r"\frac{5}{6}"),
    ],
)
def test_each_goal_reaches_its_finished_form(task: str, goal: str, expected: str) -> None:
    d = derive(task)
    assert d.goal == goal and d.endpoint.reached and d.answer["stated"]
    last = _value(d.states[-1].latex)
    assert sp.simplify(last - _value(expected)) == 0
    if goal in ("factor", "expand"):
        assert sp.srepr(last) == sp.srepr(_value(expected))  # the form, not only the value


def test_an_equation_without_real_solutions_states_that_there_is_none() -> None:
    d = derive("x^2 + 1 = 0")  # the lines themselves: tests/propose/test_no_solution.py
    assert d.endpoint.reached and d.states[-1].latex == "x \\in \\emptyset"
    assert d.answer["sentence"] == "there is no real solution"


def test_goal_gate_refuses_a_solved_form_that_does_not_solve_the_start() -> None:
    draft = Draft([ProposedStep("guess", "x = 3", "because", "solve")], "symbolic")
    d = apply_goal_gate(ground_draft("x^2 = 4", draft, "", S), "solve", S)
    assert not d.endpoint.reached and d.answer["stated"] is False
    assert d.confidence.tier is Tier.REFUTED


def test_goal_gate_wants_the_goal_form_not_only_a_true_step() -> None:
    draft = Draft([ProposedStep("expand", "x^2 - 1", "expand", "rewrite")], "symbolic")
    d = apply_goal_gate(ground_draft("(x - 1)(x + 1)", draft, "", S), "factor", S)
    assert d.steps[0].tier is Tier.GROUNDED  # a correct step ...
    assert not d.endpoint.reached  # ... that ends further from the factored form
    assert "factored further" in d.answer["sentence"]


def test_wrong_target_is_answered_by_substitution_with_the_right_answer() -> None:
    d = derive("2x + 8 = 30", "x = 12")
    assert d.target == "x = 12" and not d.endpoint.reached
    assert d.confidence.tier <= Tier.PLAUSIBLE
    assert d.endpoint.correction == (
        "$x = 12$ does not solve it: the left side is $32$, the right side $30$; "
        "the solution is $x = 11$"
    )
    assert d.states[-1].latex == "x = 11"


def test_right_target_gets_no_correction_and_an_incomplete_one_does() -> None:
    right = derive("2x + 8 = 30", "x = 11")
    assert right.endpoint.reached and right.endpoint.correction is None
    assert "correction" not in right.endpoint.to_json()
    lost = derive("x^2 = 4", "x = 2")
    assert "not every solution" in lost.endpoint.correction
    assert "$x = -2$" in lost.endpoint.correction


def test_wrong_expression_target_gets_the_planners_finished_form() -> None:
    d = derive(r"\frac{d}{dx}\left(x^3\right)", "x^2")
    said = d.endpoint.correction
    assert said.startswith("$x^2$ is not equal to the start")
    assert said.endswith("the derivative is $3 x^{2}$")


def test_prove_states_the_identity_or_refutes_it_with_a_point() -> None:
    true = derive("prove (a+b)^2 = a^2 + 2ab + b^2")
    assert true.goal == "prove" and true.endpoint.reached
    assert true.answer["sentence"] == "the identity holds for every real value of a, b"
    false = derive("prove (a+b)^2 = a^2 + b^2")
    assert not false.endpoint.reached
    assert false.endpoint.correction.startswith("the identity does not hold: at a = ")


def test_task_words_are_read_and_bad_tasks_are_located_errors() -> None:
    assert read_task("Solve: x + 1 = 2").goal == "solve"
    assert read_task("solve A = \\pi r^2 for r").var == "r"
    assert read_task("2x = 4").goal is None  # no word: the start's default
    with pytest.raises(InputError, match="nothing after"):
        read_task("factor   ")
    with pytest.raises(InputError, match="needs its point"):
        read_task("limit of sin(x)/x")
    with pytest.raises(InputError, match="the goal given is"):
        read_task("factor x^2 - 1", goal="expand")


def test_a_model_cannot_plan_a_goal_only_task() -> None:
    with pytest.raises(InputError, match="symbolic proposer"):
        derive("2x = 4", proposer="llm", model="openai/none")


def test_cli_states_the_answer_and_the_correction(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["derive", "solve 2x+3=25"]) == 0
    out = capsys.readouterr().out
    assert "goal  : solve" in out and "answer: $x = 11$" in out
    assert main(["derive", "2x + 8 = 30", "x = 12", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "the solution is $x = 11$" in doc["endpoint"]["correction"]
    assert main(["derive", "x^2 - 1", "--goal", "factor", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["goal"] == "factor" and doc["answer"]["stated"]


def test_simplify_cancels_a_common_factor_that_simplify_leaves():
    # SymPy's simplify keeps (x^3 - 8)/(x - 2) (as many operations as x^2 + 2x + 4), so the
    # start was called finished with no line written
    d = derive(r"\frac{x^3 - 8}{x - 2}", goal="simplify")
    assert [s.expr_latex for s in d.steps][-1] == "x^{2} + 2 x + 4"
    assert d.steps[-1].operation == "cancel the common factor $x - 2$"
    assert d.endpoint.reached and all(s.tier >= Tier.VERIFIED for s in d.steps)
