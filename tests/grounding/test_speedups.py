"""The shortcuts that make a whole file cheaper change no answer: a residual's value at a generic
point ends a zero test early only when no rewrite could have reached 0, a rational inequality
solved by sign chart gives ``solveset``'s set, and a state read once is read the same again."""

from __future__ import annotations

import pytest
from sympy import Abs, Interval, S, Symbol, cos, floor, log, pi, sin, solveset, sqrt, symbols

from veristep.core.settings import Settings
from veristep.grounding.rewrite import nonzero_at_generic_point, zero_test
from veristep.grounding.solving import solve_over_reals
from veristep.grounding.states import parse_state

x, y = symbols("x y", real=True)
n = Symbol("n", integer=True)


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        (sin(x) ** 2 + cos(x) ** 2 - 1, ("zero", "trigsimp")),
        ((x**2 - 1) / (x - 1) - x - 1, ("zero", "cancel")),
        (log(x * y) - log(x) - log(y), ("assumption", "expand_log(force)")),
        (log(x**2) - 2 * log(x), ("assumption", "expand_log(force)")),
        (x**2 - 2 * x, ("unknown", None)),
        (sqrt(x - 5) - 1, ("unknown", None)),  # defined only at the third generic point
    ],
)
def test_zero_test_answers_as_the_full_rewrite_list_does(expr, expected) -> None:
    assert zero_test(expr) == expected


def test_no_shortcut_where_a_rewrite_may_still_reach_zero() -> None:
    # Zero where the logarithm's argument is positive: never taken as nonzero.
    assert not nonzero_at_generic_point(sqrt(x**2) - x)
    assert not nonzero_at_generic_point(Abs(x) - x)
    # An integer letter may make cos(πn)² − 1 vanish on its whole domain: no values given.
    assert not nonzero_at_generic_point(cos(pi * n) ** 2 - 1)
    # A function outside the tame list is not evaluated at all.
    assert not nonzero_at_generic_point(floor(x) - x)
    assert nonzero_at_generic_point(x**3 - y)


@pytest.mark.parametrize(
    "inequality",
    [
        x**2 - 2 * x - 15 < 0,
        (x - 1) / (x + 2) <= 0,
        1 / (x - 1) >= 0,
        (x**2 - 1) / (x - 1) > 0,
        x**2 + 1 < 0,
        x**4 - 5 * x**2 + 4 >= 0,
        x - 4 >= 2 * sqrt(3),  # coefficients outside ℚ: solveset itself
        sin(x) > 0,
    ],
)
def test_inequalities_get_solvesets_answer(inequality) -> None:
    assert solve_over_reals(inequality, x) == solveset(inequality, x, S.Reals)


def test_a_positive_letter_is_solved_over_all_reals_as_solveset_does() -> None:
    p = Symbol("p", positive=True)
    assert solve_over_reals(p**2 - 4 < 0, p) == Interval.open(-2, 2)


def test_a_state_read_again_is_the_same_reading_in_a_record_of_its_own() -> None:
    settings = Settings()
    first = parse_state("\\frac{x}{x} = 1", settings)
    again = parse_state("\\frac{x}{x} = 1", settings)
    assert again is not first
    assert (again.expr, again.hidden, again.error) == (first.expr, first.hidden, first.error)
    assert first.hidden  # x ≠ 0, which SymPy's evaluation dropped, is kept on both
    again.reader = "plain"  # a caller changing its record changes no one else's
    assert parse_state("\\frac{x}{x} = 1", settings).reader == "latex"
    positive = parse_state("x = -1", settings, frozenset({"x"}))
    assert positive.expr != parse_state("x = -1", settings).expr  # the letters taken positive


def test_a_family_is_searched_in_its_easiest_letters_and_still_refutes() -> None:
    from veristep.grounding.chain import check

    # x = 1 and X = 1 are two families in (x, X): a point of each fails the other.
    refuted = check(["x = 1", "X = 1"]).steps[0]
    assert refuted.relation.value == "refuted"
    # The quadratic formula in a, b, c and x: each state solved for x alone, where solving for
    # a meant squaring a root; the step stays undecided as before, and no search runs out.
    formula = check(
        ["2 a x = -b \\pm \\sqrt{b^2 - 4 a c}", "x = \\frac{-b \\pm \\sqrt{b^2 - 4 a c}}{2 a}"]
    ).steps[0]
    assert formula.relation.value == "unknown" and formula.tier.name_lower == "plausible"
    assert "timeout" not in formula.reason and "skipped" not in formula.reason


def test_only_lines_of_ordinary_length_are_kept() -> None:
    from veristep.grounding.states import _read_state

    settings = Settings()
    long_line = " + ".join(f"x^{{{k}}}" for k in range(1, 200)) + " = 0"
    assert len(long_line) > 400
    before = _read_state.cache_info().currsize
    state = parse_state(long_line, settings)
    assert state.expr is not None  # read all the same
    assert _read_state.cache_info().currsize == before
