"""The planner's search on SymPy objects: it reaches targets, searches around banned moves, and
says honestly when it cannot reach a target."""

from __future__ import annotations

import sympy as sp

from veristep.propose.symbolic.moves import state_key
from veristep.propose.symbolic.planner import plan

x, a, b, c = sp.symbols("x a b c")


def test_quadratic_formula_ends_with_the_plus_minus_form():
    d = sp.sqrt(b**2 - 4 * a * c)
    target = sp.Or(sp.Eq(x, (-b + d) / (2 * a)), sp.Eq(x, (-b - d) / (2 * a)))
    latex = r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}"
    result = plan(sp.Eq(a * x**2 + b * x + c, 0), target, target_latex=latex)
    assert result.reached
    names = [s.name for s in result.steps]
    assert names[:2] == ["move-constant", "divide"]
    assert "perfect-square" in names and "square-root" in names
    assert result.steps[-1].latex == latex
    assert len(result.steps) >= 6


def test_unreachable_target_is_reported_not_faked():
    result = plan(sp.Eq(x**2, 4), sp.Eq(x, 7))
    assert not result.reached
    assert "not reached" in result.message
    assert all("7" not in s.latex for s in result.steps)


def test_a_banned_move_makes_the_search_take_another_route():
    start, target = sp.Eq(x**2 - 5 * x + 6, 0), sp.Or(sp.Eq(x, 2), sp.Eq(x, 3))
    first = plan(start, target)
    assert first.steps[0].name == "factor"
    again = plan(start, target, banned=frozenset({(state_key(start), "factor")}))
    assert again.reached
    assert again.steps[0].name != "factor"
