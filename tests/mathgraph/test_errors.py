"""Bad and hostile input: a located error, fast, never a traceback or a RecursionError."""

from __future__ import annotations

import time

import pytest
import sympy

from veristep.mathgraph import LatexParseError, parse_latex, to_latex, to_sympy
from veristep.mathgraph.sympy_literals import HugePower


@pytest.mark.parametrize(
    ("latex", "position", "fragment", "hint"),
    [
        (r"x + \fracc{1}{2}", 4, r"\fracc", r"\frac"),
        (r"\sinn x", 0, r"\sinn", r"\sin"),
        (r"a \cdott b", 2, r"\cdott", r"\cdot"),
        (r"1 + \dots", 4, r"\dots", None),
        (r"x = \text{hello}", 4, r"\text{hello}", None),
        (r"\frac{1}{2", 8, "{", None),
        (r"x}", 1, "}", None),
    ],
)
def test_errors_are_located(latex: str, position: int, fragment: str, hint: str | None) -> None:
    with pytest.raises(LatexParseError) as info:
        parse_latex(latex)
    err = info.value
    assert (err.position, err.fragment, err.hint) == (position, fragment, hint)
    assert "^" in err.located() and "\n" not in err.one_line()


HOSTILE = [
    "(" * 3000 + "x" + ")" * 3000,
    "{" * 2000 + "x" + "}" * 2000,
    r"\sqrt{" * 1000 + "x" + "}" * 1000,
    "-" * 4000 + "x",
    r"x \iff " * 600 + "y",
    "1/" * 2400 + "1",
    "x^" * 2000 + "x",
    "|" * 4000,
    r"\frac{d}{dx}" * 400 + "x",
    "x" + "'" * 4000,
    "9" * 5000,
    "a" * 20001,
    r"\begin{cases}" * 300,
]


@pytest.mark.parametrize("latex", HOSTILE, ids=[f"hostile{i}" for i in range(len(HOSTILE))])
def test_hostile_input_fails_fast_and_located(latex: str) -> None:
    start = time.perf_counter()
    with pytest.raises(LatexParseError) as info:
        parse_latex(latex)
    assert time.perf_counter() - start < 2.0
    assert info.value.position is not None


def test_long_flat_input_is_fine() -> None:
    graph = parse_latex("+".join(f"x_{{{i}}}" for i in range(600)))
    assert len(graph) == 601
    assert to_latex(parse_latex(to_latex(graph))) == to_latex(graph)


def test_huge_literals_stay_unevaluated_in_sympy() -> None:
    start = time.perf_counter()
    for latex in ("9^{9^{9^{9}}}", "100000!", r"\binom{100000}{50000}", "(2^{1000})^{1000}"):
        to_sympy(parse_latex(latex))
    assert time.perf_counter() - start < 2.0


def test_huge_literal_inside_sums_functions_and_relations_stays_unevaluated() -> None:
    # SymPy's Add, Mul, sqrt, Abs, floor and < each evaluate a number power they are handed:
    # 10^{10^{10}} inside any of them used to run without end while building the form.
    start = time.perf_counter()
    for latex in (
        "10^{10^{10}} + 1",
        r"2 \cdot 10^{10^{10}} x",
        r"\frac{1}{10^{10^{10}}}",
        r"\sqrt{10^{10^{10}}} > x",
        r"|10^{10^{10}} - x| = \lfloor 10^{10^{10}} x \rfloor",
        r"x = \pm 10^{10^{10}}",
    ):
        form = to_sympy(parse_latex(latex))
        assert form.has(HugePower(10, 10**10)), (latex, form)
    assert time.perf_counter() - start < 2.0


def test_small_literals_are_still_evaluated() -> None:
    assert to_sympy(parse_latex("2^{10} + 1")) == 1025


def test_non_string_input_is_an_input_error() -> None:
    with pytest.raises(LatexParseError, match="expected a LaTeX string"):
        parse_latex(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        ("9^{9^{9}}", "3**774840978"),
        (r"1.5 \times 10^{999999999}", "3*10**999999999/2"),
        ("10^{999999999.5}", "10**(1999999999/2)"),
        (r"(2\pi)^{10^{9}}", "(2*pi)**1000000000"),
    ],
)
def test_huge_powers_are_opaque_and_never_evaluated_later(latex: str, expected: str) -> None:
    # Issue: `y = 9^{9^{9}}` froze the process when a check built `lhs - rhs`.
    form = to_sympy(parse_latex(latex))
    assert str(form) == expected
    y = sympy.Symbol("y", real=True)
    residual = y - form  # the construction that used to run for minutes
    assert residual.subs(y, 1).has(HugePower)
    assert sympy.latex(form)


def test_equal_huge_powers_have_one_form() -> None:
    assert to_sympy(parse_latex("9^{387420489}")) == to_sympy(parse_latex("3^{774840978}"))
    assert to_sympy(parse_latex("10^{10^{10}}")).is_positive


def test_overlong_number_literal_is_refused_with_a_cut_fragment() -> None:
    # Issue: a 19,000-digit number was echoed whole in the one-line error.
    with pytest.raises(LatexParseError, match=r"longer than 1000 digits") as info:
        parse_latex("y = " + "1" * 19000)
    assert len(info.value.one_line()) < 200
    assert "(19000 characters)" in info.value.one_line()
    assert len(info.value.located()) < 400


@pytest.mark.parametrize("latex", [r"x^{2 \cdot 3}", "x^{10^{3}}", "x^{2^{-1}}"])
def test_literal_exponents_are_folded_even_when_built_unevaluated(latex: str) -> None:
    # Unevaluated, x^{2 \cdot 3} kept a Mul exponent that the domain rules read as "maybe not an
    # integer" (x >= 0), so `x^{2 \cdot 3} = 1 -> x = 1` was graded grounded: -1 was lost.
    with sympy.evaluate(False):
        form = to_sympy(parse_latex(latex))
    assert form.exp.is_Rational, form


def test_a_lost_root_behind_a_literal_exponent_is_never_grounded() -> None:
    from veristep.grounding import check

    step = check([r"x^{2 \cdot 3} = 1", "x = 1"]).steps[0]
    assert step.tier.name_lower not in ("grounded", "verified"), step.reason
