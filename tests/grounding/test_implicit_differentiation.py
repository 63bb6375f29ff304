"""Implicit differentiation is judged, not guessed: differentiating both sides of a relation in x
and y (y a function of x) is a consequence (widens, so at most verified), a wrong derivative is
refuted at a point of the curve, and the lines that solve for dy/dx are algebra with y and dy/dx as
unknowns. Each refuting point is re-checked here by hand: it lies on the curve, and the next line
is false there at the curve's slope."""

from __future__ import annotations

import pytest
import sympy as sp

from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier
from veristep.grounding import check

SETTINGS = Settings(step_timeout_s=6.0, cas_timeout_s=3.0)
DY = r"\frac{dy}{dx}"

RIGHT = [
    ("x^2 + y^2 = 25", rf"2x + 2y{DY} = 0"),
    ("x^2 + xy + y^2 = 7", rf"2x + y + x{DY} + 2y{DY} = 0"),
    ("x^3 + y^3 = 6xy", rf"3x^2 + 3y^2{DY} = 6y + 6x{DY}"),
    ("x y = 4", rf"y + x{DY} = 0"),
    # already solved for the slope in the same line: still a consequence of the curve
    ("x^2 + y^2 = 25", rf"{DY} = -\frac{{x}}{{y}}"),
]

# (previous, next, the curve F(x, y) = 0 and the next line's residual in x, y and p = dy/dx)
X, Y, P = sp.symbols("x y p")
WRONG = [
    ("x^2 + y^2 = 25", rf"2x + y{DY} = 0", X**2 + Y**2 - 25, 2 * X + Y * P),
    ("x^2 + xy + y^2 = 7", rf"2x + x{DY} + 2y{DY} = 0", X**2 + X * Y + Y**2 - 7,
     2 * X + X * P + 2 * Y * P),
    ("x^3 + y^3 = 6xy", rf"3x^2 + 3y^2{DY} = 6x{DY}", X**3 + Y**3 - 6 * X * Y,
     3 * X**2 + 3 * Y**2 * P - 6 * X * P),
]  # fmt: skip


@pytest.mark.parametrize(("prev", "nxt"), RIGHT)
def test_differentiating_both_sides_is_a_verified_consequence(prev: str, nxt: str) -> None:
    verdict = check([prev, nxt], settings=SETTINGS).steps[0]
    assert verdict.relation is Relation.WIDENS
    assert verdict.tier is Tier.VERIFIED  # a consequence is never more than verified
    assert "differentiating both sides" in verdict.reason


@pytest.mark.parametrize(("prev", "nxt", "curve", "residual"), WRONG)
def test_a_wrong_derivative_is_refuted_at_a_point_of_the_curve(
    prev: str, nxt: str, curve: sp.Expr, residual: sp.Expr
) -> None:
    verdict = check([prev, nxt], settings=SETTINGS).steps[0]
    assert verdict.tier is Tier.REFUTED
    w = verdict.witness
    x0, y0, p0 = (sp.Rational(w[k]) for k in ("x", "y", "dy/dx"))
    assert curve.subs({X: x0, Y: y0}) == 0
    # the slope is the curve's: F_x + F_y p0 = 0, with F_y ≠ 0 there
    f_x, f_y = (sp.diff(curve, v).subs({X: x0, Y: y0}) for v in (X, Y))
    assert f_y != 0 and f_x + f_y * p0 == 0
    assert residual.subs({X: x0, Y: y0, P: p0}) != 0


def test_a_line_using_the_curve_itself_is_left_undecided_not_refuted() -> None:
    # 2x + 2y y' = x^2 + y^2 - 25 holds on the curve (the right side is 0 there): no algebraic
    # identity shows it, and no point of the curve refutes it.
    verdict = check(["x^2 + y^2 = 25", rf"2x + 2y{DY} = x^2 + y^2 - 25"], settings=SETTINGS)
    assert verdict.steps[0].tier is Tier.PLAUSIBLE


def test_solving_for_the_derivative_is_algebra_with_y_and_dy_dx_as_unknowns() -> None:
    d = check(
        [
            rf"2x + y + x{DY} + 2y{DY} = 0",
            rf"x{DY} + 2y{DY} = -2x - y",
            rf"(x + 2y){DY} = -2x - y",
            rf"{DY} = -\frac{{2x + y}}{{x + 2y}}",
        ],
        settings=SETTINGS,
    )
    assert [s.tier for s in d.steps] == [Tier.GROUNDED, Tier.GROUNDED, Tier.VERIFIED]
    assert "x + 2*y ≠ 0" in d.steps[-1].reason  # divided by the coefficient: named


def test_a_wrong_division_by_the_coefficient_is_refuted() -> None:
    d = check(
        [rf"(x + 2y){DY} = -2x - y", rf"{DY} = -\frac{{2x + y}}{{x - 2y}}"], settings=SETTINGS
    )
    assert d.steps[0].tier is Tier.REFUTED


def test_differentiating_under_a_written_root_keeps_its_domain_and_still_decides() -> None:
    # 1/(2√y) is written in the next line: its domain (√y ≠ 0) travels with the line, and the
    # consequence is still proved there; a wrong coefficient is never better than plausible
    right = check(["x \\sqrt{y} = 3", rf"\frac{{x{DY}}}{{2\sqrt{{y}}}} + \sqrt{{y}} = 0"])
    assert right.steps[0].relation is Relation.WIDENS and right.steps[0].tier is Tier.VERIFIED
    wrong = check(["x \\sqrt{y} = 3", rf"\frac{{x{DY}}}{{2\sqrt{{y}}}} + 2\sqrt{{y}} = 0"])
    assert wrong.steps[0].tier <= Tier.PLAUSIBLE


def test_clearing_a_root_from_the_denominator_is_decided() -> None:
    # the written √y ≠ 0 is the y ≠ 0 SymPy keeps: multiplying by 2√y adds only cases
    d = check([rf"\frac{{x{DY}}}{{2\sqrt{{y}}}} + \sqrt{{y}} = 0", rf"x{DY} + 2y = 0"])
    assert d.steps[0].relation is Relation.WIDENS and d.steps[0].tier is Tier.VERIFIED
    wrong = check([rf"\frac{{x{DY}}}{{2\sqrt{{y}}}} + \sqrt{{y}} = 0", rf"x{DY} + 3y = 0"])
    assert wrong.steps[0].tier <= Tier.PLAUSIBLE
