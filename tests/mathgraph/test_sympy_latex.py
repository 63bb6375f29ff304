"""SymPy's own LaTeX (what grounding and planner engines print) parses back to the same object."""

from __future__ import annotations

import pytest
import sympy
from sympy import (
    Abs,
    Derivative,
    Eq,
    Function,
    I,
    Integral,
    Interval,
    Limit,
    Ne,
    Or,
    Product,
    Rational,
    Sum,
    binomial,
    ceiling,
    cos,
    exp,
    factorial,
    floor,
    log,
    oo,
    pi,
    root,
    sin,
    sqrt,
    tan,
)  # fmt: skip

from veristep.mathgraph import parse_latex, to_sympy

x, y, a, b, c = sympy.symbols("x y a b c", real=True)
n = sympy.Symbol("n", real=True)
k = sympy.Symbol("k", integer=True)
f = Function("f", real=True)

OBJECTS = [
    x**2 + 3 * x - 7,
    x**2 * sin(x),
    2 * x * sin(x) + x**2 * cos(x),
    sin(x) ** 2 + cos(x) ** 2,
    tan(x) / (1 + x),
    exp(-(x**2)) + log(x),
    sqrt(x + 1) + root(x**2 + 1, 3),  # a radicand never negative: the principal root
    sympy.real_root(x, 3),  # over the reals \sqrt[3]{x} is this one (sgn(x)·|x|^{1/3})
    Rational(3, 4) * x - Rational(1, 2),
    Abs(x - 1) + floor(x) + ceiling(y),
    factorial(n) / (factorial(y) * factorial(n - y)),
    binomial(n, 2),
    Derivative(x**2 * sin(x), x),
    Derivative(x**3, (x, 2)),
    Derivative(f(x), x),
    Integral(x**2, x),
    Integral(exp(-x), (x, 0, oo)),
    Limit(1 / x, x, 0, dir="+"),
    Limit(sin(x) / x, x, 0, dir="+-"),
    Sum(k**2, (k, 1, n)),
    Product(k, (k, 1, n)),
    Eq(a * x**2 + b * x + c, 0),
    Or(Eq(x, 2), Eq(x, -2)),
    sympy.And(x > 1, x <= 3),
    Ne(x, 2),
    Eq(f(x), 3 * x),
    x + I * y,
    pi * x,
    Interval(0, 1, right_open=True),
    sympy.FiniteSet(1, 2, 3),
    sympy.ImmutableMatrix([[1, x], [y, 2]]),
    sympy.asin(x) + sympy.atan(x),
]


@pytest.mark.parametrize("obj", OBJECTS, ids=[sympy.srepr(o)[:40] for o in OBJECTS])
@pytest.mark.parametrize("mul_symbol", [None, "dot"])
def test_sympy_latex_parses_back(obj: object, mul_symbol: str | None) -> None:
    latex = sympy.latex(obj, mul_symbol=mul_symbol)
    got = to_sympy(parse_latex(latex))
    if (
        isinstance(obj, sympy.Expr)
        and not isinstance(obj, sympy.MatrixBase)
        and not obj.has(Limit, Integral, Sum, Product, Derivative)
    ):
        assert sympy.simplify(got - obj) == 0, latex
    else:
        assert got == obj, f"{latex!r}: {got!r} != {obj!r}"


def test_an_odd_root_of_a_letter_is_the_real_root() -> None:
    """Over the reals ∛x is defined for every x (∛(−8) = −2), not SymPy's principal root, which is
    complex below zero."""
    got = to_sympy(parse_latex(r"\sqrt[3]{x} + \sqrt[5]{y - 1}"))
    assert got.subs({x: -8, y: -31}) == -4
    assert got.subs({x: 8, y: 33}) == 4
