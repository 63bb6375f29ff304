"""The plain-maths reader: its conventions, and its located refusals of what is ambiguous."""

from __future__ import annotations

import pytest

from veristep.mathgraph import (
    LatexParseError,
    branches,
    parse_latex,
    parse_math,
    parse_plain,
    reader_for,
    structurally_equal,
    to_latex,
)


def _same(plain: str, latex: str) -> None:
    """The plain input means what the LaTeX means (same SymPy forms, sign choices included)."""
    assert branches(parse_plain(plain)) == branches(parse_latex(latex)), plain


@pytest.mark.parametrize(
    ("plain", "latex"),
    [
        ("sqrt(x) = 4", r"\sqrt{x} = 4"),
        ("x^2 - 5x + 6 = 0", r"x^{2} - 5 x + 6 = 0"),
        ("x**2 + 2*x", r"x^{2} + 2 \cdot x"),
        ("x^23", r"x^{23}"),
        ("x^-2", r"x^{-2}"),
        ("e^-(x+1)", r"e^{-\left(x + 1\right)}"),
        ("e^-x^2", r"e^{-x^{2}}"),
        ("2^3^2", r"2^{3^{2}}"),
        ("e^(x^23)", r"e^{x^{23}}"),
        ("e^(2x)", r"e^{2 x}"),
        ("2x", r"2 x"),
        ("sin x = 1/2", r"\sin x = \frac{1}{2}"),
        ("sin(2x)", r"\sin\left(2 x\right)"),
        ("sinx cosx", r"\sin x \cos x"),
        ("ln(x)", r"\ln\left(x\right)"),
        ("log(x)", r"\log\left(x\right)"),
        ("log_2(8)", r"\log_{2} 8"),
        ("log10(1000)", r"\log_{10} 1000"),
        ("|x-1| < 2", r"\left|x - 1\right| < 2"),
        ("abs(x - 1)", r"\left|x - 1\right|"),
        ("2pi r", r"2 \pi r"),
        ("e^x", r"e^{x}"),
        ("x <= 1", r"x \le 1"),
        ("x >= 1", r"x \ge 1"),
        ("x ≤ 1", r"x \le 1"),
        ("x ≥ 1", r"x \ge 1"),
        ("x != 1", r"x \ne 1"),
        ("x < 0 or x > 1", r"x < 0 \lor x > 1"),
        ("x > 0 and y > 0", r"x > 0 \land y > 0"),
        ("3/4 y", r"\frac{3}{4} y"),
        ("1/2 b h", r"\frac{1}{2} b h"),
        ("x / 2 y", r"\frac{x}{2} y"),
        ("x = 1 or x = 4", r"x = 1 \lor x = 4"),
        ("x = 1 or 4", r"x = 1 \lor x = 4"),
        ("x = +-2", r"x = \pm 2"),
        ("x = ±2", r"x = \pm 2"),
        ("x^2 = 4 => x = 2 or x = -2", r"x^{2} = 4 \Rightarrow x = 2 \lor x = -2"),
        ("x^2 = 4 <=> x = +-2", r"x^{2} = 4 \iff x = \pm 2"),
        ("floor(x) = 2", r"\lfloor x \rfloor = 2"),
        ("ceil(x)", r"\lceil x \rceil"),
        ("cbrt(8)", r"\sqrt[3]{8}"),
        ("sin^-1(x)", r"\arcsin\left(x\right)"),
        ("d/dx (x^2)", r"\frac{d}{dx} x^{2}"),
        ("dy/dx = y", r"\frac{dy}{dx} = y"),
        ("x² − 1", r"x^{2} - 1"),
        ("√(x+1)", r"\sqrt{x + 1}"),
        ("x in [0, 1)", r"x \in \left[0, 1\right)"),
        ("x ∈ R", r"x \in \mathbb{R}"),
        ("xy + abc", r"x y + a b c"),
        ("xy(x + y)", r"x y \left(x + y\right)"),
        ("z = Re^(i theta)", r"z = R e^{i \theta}"),
        ("=x+1", "= x + 1"),
        ("2(3)", r"2 \cdot 3"),
    ],
)
def test_plain_input_means_what_students_mean(plain: str, latex: str) -> None:
    _same(plain, latex)


@pytest.mark.parametrize(
    ("plain", "latex"),
    [
        ("x + y = 5, x - y = 1", r"\begin{cases} x + y = 5 \\ x - y = 1 \end{cases}"),
        ("x + y = 5; x - y = 1", r"\begin{cases} x + y = 5 \\ x - y = 1 \end{cases}"),
        ("x + y = 5\nx - y = 1", r"\begin{cases} x + y = 5 \\ x - y = 1 \end{cases}"),
    ],
)
def test_systems_by_comma_semicolon_or_line(plain: str, latex: str) -> None:
    assert structurally_equal(parse_plain(plain), parse_latex(latex))


def test_one_unknowns_values_listed_by_commas_are_alternatives() -> None:
    _same("x = 1, x = 4", r"x = 1 \lor x = 4")
    assert to_latex(parse_plain("x = 1, x = 4")) == r"x = 1 \text{ or } x = 4"


def test_a_line_starting_with_an_operator_continues_the_statement() -> None:
    _same("x^2 + 2x\n= x(x + 2)", r"x^{2} + 2 x = x \left(x + 2\right)")
    _same("2x = 6\n=> x = 3", r"2 x = 6 \Rightarrow x = 3")


def test_three_quarters_y_is_read_as_students_mean_and_shown_as_a_fraction() -> None:
    graph = parse_plain("3/4 y = 6")
    assert to_latex(graph) == r"\frac{3}{4} y = 6"
    assert str(branches(graph)[0]) == "Eq(3*y/4, 6)"


@pytest.mark.parametrize(
    ("plain", "column", "hint"),
    [
        ("1/2x", 4, "(1/2)x or 1/(2x)"),
        ("6/2(1+2)", 4, "(6/2)(1+2) or 6/(2(1+2))"),
        ("e^2x", 1, "e^(2x) or e^2*x"),
        ("x2 + 1", 1, "x_2, x^2 or 2x"),
        ("sin x/2", 6, None),
        ("2 3", 3, None),
        ("(1, 2)", 1, None),
        ("n!=5", 2, None),
        ("log2 x", 1, None),
        ("sqrt 2x", 1, None),
    ],
)
def test_ambiguous_input_is_refused_where_it_is(plain: str, column: int, hint: str | None) -> None:
    with pytest.raises(LatexParseError) as caught:
        parse_plain(plain)
    err = caught.value
    assert err.position is not None and err.position + 1 == column, err.one_line()
    assert err.source == plain
    if hint is not None:
        assert err.hint == hint


@pytest.mark.parametrize(
    ("plain", "word"),
    [
        ("max(a, b) = a", "max"),
        ("min(x, 2)", "min"),
        ("gcd(12, 18)", "gcd"),
        ("foo(x) = 3", "foo"),
        ("area = 5", "area"),
        ("solve x^2 = 4", "solve"),
        ("x = 2 so y = 4", "so"),
        ("x mod 3", "mod"),
        ("lg(x)", "lg"),
        ("Re(z) = 1", "Re"),
        ("second = 2", "second"),
        ("exponent", "exponent"),
    ],
)
def test_unknown_words_are_refused_never_a_product_of_letters(plain: str, word: str) -> None:
    with pytest.raises(LatexParseError) as caught:
        parse_plain(plain)
    err = caught.value
    assert err.fragment == word, err.one_line()


@pytest.mark.parametrize(
    "latex",
    [
        "floor(x) = 2",
        r"\frac{floor(x)}{2} = 1",
        r"max(a, b) = \frac{1}{2}",
        r"\operatorname{floor}(x) = 2",
        r"\mathrm{max}(a,b) = 1",
        r"foo(x) + \pi",
    ],
)
def test_unknown_words_in_latex_are_refused_too(latex: str) -> None:
    with pytest.raises(LatexParseError) as caught:
        parse_latex(latex)
    assert caught.value.position is not None


def test_letters_before_a_bracket_in_latex_stay_a_product() -> None:
    assert str(branches(parse_latex(r"xy(x+y) = \frac{1}{2}"))[0]) == "Eq(x*y*(x + y), 1/2)"


@pytest.mark.parametrize(
    ("text", "reader"),
    [
        (r"\frac{1}{2}", "latex"),
        ("x^{2}", "latex"),
        ("$x^2$", "latex"),
        ("x^2 = 4", "plain"),
        ("sqrt(x)", "plain"),
    ],
)
def test_the_text_picks_the_reader(text: str, reader: str) -> None:
    assert reader_for(text) == reader


def test_both_readers_build_the_same_graph() -> None:
    assert structurally_equal(parse_math("sqrt(x) = 2"), parse_math(r"\sqrt{x} = 2"))
    assert structurally_equal(parse_math("$x^2$"), parse_latex("x^2"))


def test_printed_plain_reading_reparses_to_the_same_graph() -> None:
    for text in ("3/4 y = 6, x + y = 1", "x = 1 or 4", "sin^2 x + cos^2 x = 1", "2(3)",
                 "floor(x) = 2", "d/dx (x^2 sin x)", "x^-1 + |x|"):  # fmt: skip
        graph = parse_plain(text)
        assert structurally_equal(parse_latex(to_latex(graph)), graph), text


@pytest.mark.parametrize("bad", ["", "   ", "(x+1", "x)", "x^", "sqrt()", "x = 5%", "a & b"])
def test_malformed_input_is_a_located_error(bad: str) -> None:
    with pytest.raises(LatexParseError) as caught:
        parse_plain(bad)
    assert caught.value.position is not None
