"""Expression moves written as a teacher writes them, each line graded by the real cascade:
grouping whose second factor is a difference of squares, a binomial times a trinomial multiplied
out term by term, and a quadratic in two letters factored by splitting the middle term."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def _lines(d) -> list[str]:
    return [s.latex for s in d.states[1:]]


def _all_grounded(d) -> bool:
    return all(s.tier in (Tier.GROUNDED, Tier.VERIFIED) for s in d.steps)


def test_grouping_then_the_difference_of_squares_inside_the_product() -> None:
    d = derive("x^3 - 2x^2 - 9x + 18", "(x - 2)(x - 3)(x + 3)")
    lines = _lines(d)
    assert d.endpoint.reached and _all_grounded(d) and len(lines) >= 3
    assert lines[0] == "x^{2} \\left(x - 2\\right) - 9 \\left(x - 2\\right)"
    # The factor kept beside the bracket keeps its own brackets: (x - 2)(x^2 - 3^2).
    assert any(line.startswith("\\left(x - 2\\right) \\left(x^2 - 3^2") for line in lines)


def test_a_binomial_times_a_trinomial_is_multiplied_out_term_by_term() -> None:
    d = derive("(x + 2)(x^2 - 3x + 4)", "x^3 - x^2 - 2x + 8")
    assert d.endpoint.reached and _all_grounded(d)
    operations = [s.operation for s in d.steps]
    assert operations[0] == "multiply each term of $x + 2$ by the other bracket"
    assert operations[1] == "multiply out each bracket"
    assert _lines(d)[1] == "x^{3} - 3 x^{2} + 4 x + 2 x^{2} - 6 x + 8"
    assert d.steps[-1].operation == "collect like terms"


def test_a_quadratic_in_two_letters_splits_its_middle_term() -> None:
    d = derive("6a^2 + ab - 2b^2", "(2a - b)(3a + 2b)")
    assert d.endpoint.reached and _all_grounded(d) and len(d.steps) == 3
    assert d.steps[0].operation.startswith("split the middle term")
    assert _lines(d)[1] == "3 a \\left(2 a - b\\right) + 2 b \\left(2 a - b\\right)"
    # Not homogeneous (a constant beside the two letters): no two-letter split is offered.
    other = derive("a^2 + ab + 1", "a^2 + ab + 1")
    assert all("split the middle term" not in s.operation for s in other.steps)


def test_partial_fractions_with_a_repeated_linear_factor() -> None:
    d = derive(r"\frac{2x + 1}{x(x - 1)^2}", r"\frac{1}{x} - \frac{1}{x - 1} + \frac{3}{(x - 1)^2}")
    assert d.endpoint.reached and _all_grounded(d) and len(d.steps) == 3
    assert d.steps[0].operation == "write the numerator in terms of the factors"
    assert "the numerators $1$, $-1$, $3$" in d.steps[0].justification


def test_partial_fractions_with_an_irreducible_quadratic_factor() -> None:
    d = derive(r"\frac{3x^2 - x + 8}{(x - 1)(x^2 + 4)}", r"\frac{2}{x - 1} + \frac{x}{x^2 + 4}")
    assert d.endpoint.reached and _all_grounded(d) and len(d.steps) == 3
    assert "2 \\left(x^{2} + 4\\right) + x \\left(x - 1\\right)" in _lines(d)[0]


def test_an_improper_fraction_is_divided_before_it_is_split() -> None:
    d = derive(r"\frac{x^2 + x + 1}{x^2 + x}", r"1 + \frac{1}{x} - \frac{1}{x + 1}")
    assert d.endpoint.reached and _all_grounded(d)
    operations = [s.operation for s in d.steps]
    assert operations[0].startswith("write the numerator as the quotient times the denominator")
    assert operations.index("write the numerator in terms of the factors") > 0
    # The remainder's fraction carries its sign: a subtracted sum keeps its brackets.
    assert "\\left(x + 1\\right) - x" in _lines(d)[3]
    alone = derive(r"\frac{2x^2 - 3x - 1}{x - 2}", r"2x + 1 + \frac{1}{x - 2}")
    assert alone.endpoint.reached and _all_grounded(alone) and len(alone.steps) == 3


def test_a_root_minus_a_term_at_infinity_goes_through_the_conjugate() -> None:
    d = derive(r"\lim_{x \to \infty} \left(\sqrt{x^2 + 6x + 1} - x\right)", "3")
    assert d.endpoint.reached and _all_grounded(d)
    assert [s.operation for s in d.steps] == [
        r"multiply the top and the bottom by the conjugate $\sqrt{x^{2} + 6 x + 1} + x$",
        "multiply out the difference of two squares on top",
        "divide numerator and denominator by $x$",
        "let the negative powers of $x$ tend to $0$",
    ]
    assert "lhopital" not in " ".join(s.operation for s in d.steps)


def test_a_standard_e_limit_with_a_multiple_of_x_in_the_exponent() -> None:
    d = derive(r"\lim_{x \to \infty} \left(1 - \frac{2}{x}\right)^{x}", "e^{-2}")
    assert d.endpoint.reached and _all_grounded(d) and len(d.steps) == 2
    assert r"\left(1 - \frac{2}{x}\right)^{- \frac{x}{2}}" in d.states[1].latex


def test_a_double_angle_identity_is_shown_one_formula_per_line() -> None:
    d = derive(r"\frac{\sin(2x)}{1 + \cos(2x)}", r"\tan x")
    assert d.endpoint.reached and _all_grounded(d) and len(d.steps) >= 4
    operations = [s.operation for s in d.steps]
    assert "use $\\cos 2u = 2 \\cos^2 u - 1$" in operations
    assert "use $\\sin 2u = 2 \\sin u \\cos u$" in operations
    assert operations[-1] == "write $\\frac{\\sin u}{\\cos u}$ as $\\tan u$"
