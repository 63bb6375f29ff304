"""The squared-pair and branch-pair checks, and the numeric screen that lets them give up early
(stack179.3, a derivative isolated by division, spent 1.1 s simplifying two residuals that are
clearly not proportional)."""

from __future__ import annotations

from sympy import Abs, Eq, Rational, Symbol, log, pi, real_root, sign, sin, sqrt, symbols

from veristep.grounding.checks.branch_pair import (
    _maybe_proportional,
    _sample,
    odd_exponents,
    odd_power_pair,
    product_of_branches,
    squared_pair,
)

x, y, c = symbols("x y c", real=True)


def test_a_true_squared_pair_and_branch_pair_are_still_found():
    assert squared_pair(x + 1, 2 * y, 3 * ((x + 1) ** 2 - 4 * y**2))
    assert squared_pair(sin(x), y, -(sin(x) ** 2) + y**2)
    assert product_of_branches(x**2 - c, (x - sqrt(c), x + sqrt(c)))


def test_residuals_that_are_not_proportional_are_screened_out():
    assert not _maybe_proportional(x**2 - y, x - y)
    assert not squared_pair(x, y, x**2 - y)
    assert not product_of_branches(x**2 - 1, (x - 1, x + 2))


def test_the_screen_says_nothing_when_the_numbers_say_nothing():
    # log of a negative sample is not real: the slow test decides, not the screen
    assert _maybe_proportional(log(x - 5), log(x - 5) * 2)
    # the ratio 0 at both points is constant: left to the ratio test, which wants a nonzero one
    assert _maybe_proportional(x - x, y)


def test_samples_respect_the_symbols_assumptions():
    p, n = Symbol("p", positive=True), Symbol("n", integer=True)
    for value in (Rational(-113, 70), Rational(37, 100)):
        for index in range(3):
            assert _sample(p, value, index) > 0
            assert _sample(n, value, index).is_integer


def test_an_odd_power_undoes_a_real_root():
    v, r = symbols("V r", real=True)
    # cubing r = ∛(3V/4π) gives r³ − 3V/4π, the residual V − 4πr³/3 times −3/4π
    assert odd_power_pair(r, real_root(3 * v / (4 * pi), 3), v - 4 * pi * r**3 / 3, 3)
    assert not odd_power_pair(r, real_root(3 * v / (4 * pi), 3), v - 4 * pi * r**2 / 3, 3)
    assert odd_power_pair(x, sign(y) * Abs(y) ** Rational(1, 5), x**5 - y, 5)


def test_only_odd_exponents_are_candidates():
    assert odd_exponents(Eq(x**3, y**2)) == {3}
    assert odd_exponents(Eq(x, Abs(y) ** Rational(2, 5))) == {5}
    assert odd_exponents(Eq(x**2, sqrt(y))) == frozenset()
