"""One teacher move per line where SymPy would jump: a bracket SymPy multiplied out on reading,
and a cubic factored through a root found by trial (the factor theorem), then the division."""

from __future__ import annotations

import sympy as sp

from veristep.core.tiers import Tier
from veristep.propose import derive
from veristep.propose.symbolic.factoring import factor_theorem


def test_a_bracket_read_as_multiplied_out_gets_its_own_line() -> None:
    d = derive("3(x-2) = 2x + 5", "")
    assert [s.operation for s in d.steps][:2] == [
        "expand the brackets", "subtract $2 x$ from both sides"]  # fmt: skip
    assert d.steps[0].tier is Tier.GROUNDED and d.confidence.tier is Tier.GROUNDED
    assert d.answer is not None and "11" in d.answer["latex"]
    # No bracket, no extra line; and a computation without letters keeps its own lines.
    assert derive("2x + 3 = 9", "").steps[0].operation == "subtract $3$ from both sides"


def test_the_factor_theorem_names_the_root_it_found_and_divides() -> None:
    x = sp.Symbol("x")
    move = factor_theorem(x**3 - 6 * x**2 + 11 * x - 6)
    assert move is not None and move.state == (x - 1) * (x**2 - 5 * x + 6)
    assert "at $x = 1$ it is $1 - 6 + 11 - 6 = 0$" in move.justification
    rational = factor_theorem(2 * x**3 - 3 * x**2 - 3 * x + 2)  # roots 2, -1, 1/2
    assert rational is not None and sp.expand(rational.state) == 2 * x**3 - 3 * x**2 - 3 * x + 2
    assert factor_theorem(x**3 + x + 1) is None  # no rational root: nothing to show
    assert factor_theorem(x**2 - 1) is None  # a quadratic has its own families


def test_a_cubic_equation_is_solved_through_the_factor_theorem() -> None:
    d = derive("x^3 - 6x^2 + 11x - 6 = 0", "")
    assert d.steps[0].operation.startswith("take out the factor $x - 1$")
    assert all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached and d.answer is not None
