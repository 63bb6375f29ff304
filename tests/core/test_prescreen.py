"""The size pre-screen: flags what would explode, passes ordinary maths, never evaluates."""

from __future__ import annotations

import time

import pytest
import sympy
from sympy import Integer, Pow, Rational, factorial

from veristep.core.prescreen import prescreen
from veristep.core.settings import Settings

x, y, a, b, c = sympy.symbols("x y a b c")
S = Settings()


@pytest.mark.parametrize(
    "expr",
    [
        (x + 1) ** 2 - x,
        sympy.Eq(a * x**2 + b * x + c, 0),
        sympy.Or(sympy.Eq(x, 2), sympy.Eq(x, -2)),
        sympy.diff(x**2 * sympy.sin(x), x),
        (x + 1) ** 1000,
        factorial(Integer(100_000), evaluate=False),
        sympy.binomial(Integer(10**9), Integer(3), evaluate=False),
        x ** Rational(1, 3),
        [x, 2, sympy.pi],
        sympy.Matrix([[x, 1], [0, x**3]]),
        7,
    ],
)
def test_ordinary_expressions_pass(expr) -> None:
    assert prescreen(expr, S) is None


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ((x + 1) ** (10**6), "exponent 1000000 is above the limit of 1000"),
        (x ** Integer(-5000), "exponent -5000"),
        (x ** Rational(1, 10**6), "exponent 1/1000000"),
        (Pow(2, Pow(10, Pow(10, 10**6, evaluate=False), evaluate=False), evaluate=False), "10^∞"),
        (x ** Integer(10**5000), "about 10^5e+03"),
        (factorial(Integer(10**7), evaluate=False), "factorial of 10000000"),
        (factorial(Pow(10, 7, evaluate=False), evaluate=False), "factorial of 10**7"),
        (sympy.binomial(Integer(10**8), Integer(10**7), evaluate=False), "binomial"),
        ((x + 1) ** 600 * (y + 2) ** 600, "degree about 1.2e+03"),
        (sympy.sin(x + (x + 1) ** 700 * (x - 1) ** 700), "degree about 1.4e+03"),
        (sympy.Add(*[x**i * y**j for i in range(60) for j in range(60)]), "more than 5000 nodes"),
    ],
)
def test_explosive_expressions_get_a_reason(expr, fragment) -> None:
    reason = prescreen(expr, S)
    assert reason is not None and fragment in reason


def test_limits_come_from_settings() -> None:
    tight = S.replace(max_exponent=10, max_graph_nodes=20)
    assert prescreen((x + 1) ** 11, tight) is not None
    assert prescreen((x + 1) ** 11, S) is None
    assert "more than 20 nodes" in prescreen(sum(x**i for i in range(1, 10)), tight)


def test_screen_is_fast_and_does_not_evaluate() -> None:
    # A tower whose value has 10**(10**6) digits: any evaluation would never finish.
    tower = Pow(3, Pow(10, Pow(10, 10**6, evaluate=False), evaluate=False), evaluate=False)
    big = sympy.Add(*[x ** (k % 900) * y ** (k % 7) for k in range(1, 1200)], evaluate=False)
    start = time.perf_counter()
    assert prescreen(sympy.Eq(tower, x, evaluate=False), S) is not None
    assert prescreen(big, S) is not None
    assert time.perf_counter() - start < 0.5


def test_strings_are_refused() -> None:
    with pytest.raises(TypeError, match="parse the LaTeX first"):
        prescreen("x^2", S)
