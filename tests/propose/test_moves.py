"""Single moves of the symbolic planner, on SymPy objects (no parser, no grounding)."""

from __future__ import annotations

import sympy as sp

from veristep.propose.symbolic.derivatives import derivative_moves
from veristep.propose.symbolic.equations import polynomial_moves
from veristep.propose.symbolic.integrals import integral_moves
from veristep.propose.symbolic.limits import limit_moves
from veristep.propose.symbolic.moves import Problem
from veristep.propose.symbolic.special_equations import candidate_check_moves, special_moves
from veristep.propose.symbolic.sums import sum_moves

x, a, b, c = sp.symbols("x a b c")
k, n = sp.symbols("k n")


def _problem(start: sp.Basic) -> Problem:
    return Problem(start=start, target=None, var=x)


def _solutions(state: sp.Basic) -> set:
    return sp.solveset(state, x, sp.S.Reals) if isinstance(state, sp.Eq) else state


def test_linear_moves_keep_the_solution_set_and_name_the_operation():
    state = sp.Eq(5 * x - 7, 2 * x + 8)
    seen = []
    while True:
        moves = polynomial_moves(state, _problem(state))
        if not moves:
            break
        move = moves[0]
        assert move.operation and move.justification
        assert sp.solveset(move.state.lhs - move.state.rhs, x, sp.S.Reals) == {5}
        seen.append(move.operation)
        state = move.state
    assert state == sp.Eq(x, 5)
    assert seen == [
        "subtract $2 x$ from both sides",
        "add $7$ to both sides",
        "divide both sides by $3$",
    ]


def test_quadratic_offers_factoring_and_the_zero_product_split():
    state = sp.Eq(x**2 - 5 * x + 6, 0)
    names = [m.name for m in polynomial_moves(state, _problem(state))]
    assert "factor" in names and "move-constant" in names  # factoring, completing the square
    factored = sp.Eq((x - 2) * (x - 3), 0)
    split = polynomial_moves(factored, _problem(factored))[0]
    assert split.name == "zero-product"
    assert split.state == sp.Or(sp.Eq(x - 2, 0), sp.Eq(x - 3, 0))


def test_completing_the_square_writes_a_perfect_square():
    state = sp.Eq(x**2 + 6 * x, -4)
    p = Problem(state, None, x, wants_pm=True)
    add = polynomial_moves(state, p)[0]
    assert add.operation == "add $9$ to both sides"
    square = polynomial_moves(add.state, p)[0]
    assert square.state == sp.Eq(sp.Pow(x + 3, 2), 5)


def test_absolute_value_splits_into_cases():
    state = sp.Eq(sp.Abs(x + 4), 2)
    move = special_moves(state, _problem(state))[0]
    assert move.state == sp.Or(sp.Eq(x + 4, 2), sp.Eq(x + 4, -2))
    negative = sp.Eq(sp.Abs(x), -1, evaluate=False)
    assert special_moves(negative, _problem(negative))[0].state is sp.false


def test_radical_is_squared_with_its_condition_and_extraneous_roots_rejected_explicitly():
    start = sp.Eq(sp.sqrt(x + 3), x - 3)
    square = special_moves(start, _problem(start))[0]
    assert square.name == "square" and square.change_type == "rewrite"
    assert square.state == sp.And(sp.Eq(x + 3, (x - 3) ** 2), x - 3 >= 0)
    reject = candidate_check_moves(sp.Or(sp.Eq(x, 1), sp.Eq(x, 6)), _problem(start), [1, 6])[0]
    assert reject.state == sp.Eq(x, 6)
    assert "$x = 1$ does not satisfy" in reject.justification


def test_rational_equation_multiplies_by_the_denominator_and_names_excluded_values():
    start = sp.Eq(x / (x - 2), 3)
    move = special_moves(start, _problem(start))[0]
    assert move.operation == "multiply both sides by $x - 2$"
    assert "$x \\ne 2$" in move.justification


def test_exponential_rewrites_to_a_common_base():
    start = sp.Eq(2**x, 8)
    move = special_moves(start, _problem(start))[0]
    assert move.name == "same-base"
    assert special_moves(move.state, _problem(start))[0].state == sp.Eq(x, 3)


def test_derivative_rules_apply_one_rule_per_step():
    state = sp.Derivative(sp.sin(x**2 + 1), x)
    rules = []
    while (moves := derivative_moves(state, None)) != []:
        rules.append(moves[0].name)
        state = moves[0].state
    assert rules == ["chain", "sum", "constant", "power"]
    assert sp.simplify(state - 2 * x * sp.cos(x**2 + 1)) == 0


def test_quotient_rule_is_written_out_before_the_factors_are_differentiated():
    state = sp.Derivative((x + 1) / (x - 1), x)
    move = derivative_moves(state, None)[0]
    assert move.name == "quotient"
    assert move.state.has(sp.Derivative)
    assert sp.simplify(move.state.doit() - state.doit()) == 0


def test_integral_linearity_then_the_antiderivative_at_the_bounds():
    state = sp.Integral(3 * x**2 + 2 * x, (x, 0, 1))
    names = []
    while (moves := integral_moves(state, None)) != []:
        names.append(moves[0].name)
        state = moves[0].state
    assert names == ["integral-sum", "integral-constant", "antiderivative"]
    assert sp.simplify(state) == 2


def test_integration_by_parts_is_chosen_from_sympys_steps():
    move = integral_moves(sp.Integral(x * sp.exp(x), (x, 0, 1)), None)[0]
    assert move.name == "parts"
    assert sp.simplify(move.state.doit()) == 1


def test_limit_factor_then_cancel_then_substitute():
    state = sp.Limit((x**2 - 4) / (x - 2), x, 2, "+-")
    names = []
    while (moves := limit_moves(state, None)) != []:
        names.append(moves[0].name)
        state = moves[0].state
    assert names == ["factor-limit", "cancel-limit", "substitute"]
    assert state == 4


def test_sums_use_the_standard_formulas():
    state = sp.Sum(2 * k + 1, (k, 1, n))
    names = []
    while (moves := sum_moves(state, None)) != []:
        names.append(moves[0].name)
        state = moves[0].state
    assert "sum-formula" in names
    assert sp.expand(sp.simplify(state)) == n**2 + 2 * n


def test_perfect_square_trinomial_is_written_as_a_square():
    state = sp.Eq(x**2 - 6 * x + 9, 0)
    move = polynomial_moves(state, _problem(state))[0]
    assert move.name == "perfect-square"
    assert move.state == sp.Eq(sp.Pow(x - 3, 2), 0)


def test_higher_powers_take_real_roots():
    even = sp.Eq(x**4, 16)
    assert polynomial_moves(even, _problem(even))[0].state == sp.Or(sp.Eq(x, 2), sp.Eq(x, -2))
    odd = sp.Eq(x**3, -8)
    move = polynomial_moves(odd, _problem(odd))[0]
    assert move.operation == "take the real cube root of both sides"
    assert move.state == sp.Eq(x, -2)


def test_logarithms_in_another_base_are_collected_then_made_natural():
    def log3(u):  # what the parser makes of \log_3
        return sp.log(u) / sp.log(3)

    start = sp.Eq(log3(x + 17) - 2, log3(2 * x))
    names = []
    state = start
    for _ in range(3):
        moves = special_moves(state, _problem(start))
        names.append([m.name for m in moves])
        state = moves[0].state
    assert names == [["collect-logs"], ["move-constant"], ["natural-logs", "combine-logs"]]
    assert state == sp.Eq(sp.log(x + 17) - sp.log(2 * x), 2 * sp.log(3))
