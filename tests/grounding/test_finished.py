"""The endpoint gate of a goal-only task: the finished form of each goal, and the substitution."""

from __future__ import annotations

import pytest
import sympy as sp

from veristep.grounding.decision import Context
from veristep.grounding.finished import finished_form, substitute_answer

x, y, a = sp.symbols("x y a", real=True)
CTX = Context()


@pytest.mark.parametrize(
    ("goal", "last", "finished"),
    [
        ("solve", sp.Eq(x, 11), True),
        ("solve", sp.Or(sp.Eq(x, 2), sp.Eq(x, 3)), True),
        ("solve", sp.And(sp.Eq(x, 7), sp.Eq(y, 3)), True),
        ("solve", x < 5, True),
        ("solve", sp.false, True),  # no solution is a finished answer
        ("solve", sp.Eq(x**2, 4), False),
        ("solve", sp.Eq(2 * x, 22), False),
        ("factor", (x - 1) * (x**2 + x + 1), True),
        ("factor", x**3 - 1, False),
        ("factor", x * (x**2 - 1), False),  # a factor still factors
        ("expand", x**2 + 2 * x + 1, True),
        ("expand", (x + 1) ** 2, False),
        ("simplify", sp.Rational(5, 6), True),
        ("simplify", sp.sin(x) ** 2 + sp.cos(x) ** 2, False),
        ("differentiate", 2 * x * sp.sin(x), True),
        ("differentiate", sp.Derivative(x**2, x) + x, False),
        ("integrate", sp.Integral(x, x), False),
        ("limit", sp.Integer(6), True),
    ],
)
def test_finished_form_of_each_goal(goal: str, last: sp.Basic, finished: bool) -> None:
    done, why = finished_form(goal, last, CTX)
    assert done is finished
    assert bool(why) is not finished  # a reason whenever it is not finished


def test_substitution_checks_values_and_completeness() -> None:
    start = sp.Eq(x**2, 4)
    both = substitute_answer(start, sp.Or(sp.Eq(x, 2), sp.Eq(x, -2)), CTX)
    assert both["holds"] and both["complete"]
    one = substitute_answer(start, sp.Eq(x, 2), CTX)
    assert one["holds"] and not one["complete"]  # right, but it loses x = -2
    wrong = substitute_answer(start, sp.Eq(x, 3), CTX)
    assert not wrong["holds"]
    system = sp.And(sp.Eq(x + y, 10), sp.Eq(x - y, 4))
    assert substitute_answer(system, sp.And(sp.Eq(x, 7), sp.Eq(y, 3)), CTX)["holds"]
    assert not substitute_answer(system, sp.And(sp.Eq(x, 6), sp.Eq(y, 4)), CTX)["holds"]
