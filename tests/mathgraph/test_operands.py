"""Where a function argument or an operator's operand ends, and how the printer keeps it there."""

from __future__ import annotations

import pytest

from veristep.mathgraph import parse_latex, structurally_equal, to_latex
from veristep.mathgraph.nodes import Kind

# (input, printed): a compound operand (sum or product) is always bracketed when printed
PRINTED = [
    (
        r"\frac{d}{dx}\left(x^2 \sin x\right)",
        r"\frac{d}{d x} \left(x^{2} \sin\left(x\right)\right)",
    ),
    (r"\frac{d}{dx} x^2 \sin x", r"\frac{d}{d x} \left(x^{2} \sin\left(x\right)\right)"),
    (r"\frac{d}{dx} (x + 1)", r"\frac{d}{d x} \left(x + 1\right)"),
    (r"\frac{d}{dx} x^2", r"\frac{d}{d x} x^{2}"),
    (r"\lim_{x \to 0} x \sin x", r"\lim_{x \to 0} \left(x \sin\left(x\right)\right)"),
    (r"\sum_{k=1}^{n} 2 \cdot k", r"\sum_{k=1}^{n} \left(2 \cdot k\right)"),
    (r"\prod_{k=1}^{n} \frac{k}{2}", r"\prod_{k=1}^{n} \frac{k}{2}"),
    (r"\prod_{k=1}^{n} k / 2", r"\prod_{k=1}^{n} \left(k / 2\right)"),
    (r"\int x \sin x \, dx", r"\int \left(x \sin\left(x\right)\right) \, dx"),
    (r"\int_0^1 x^2 \, dx", r"\int_{0}^{1} x^{2} \, dx"),
]


@pytest.mark.parametrize(("latex", "printed"), PRINTED, ids=[p[0] for p in PRINTED])
def test_compound_operands_are_bracketed(latex: str, printed: str) -> None:
    graph = parse_latex(latex)
    assert to_latex(graph) == printed
    assert structurally_equal(parse_latex(printed), graph)


def test_function_argument_stops_before_a_derivative_operator() -> None:
    root = parse_latex(r"\sin x \frac{d}{dx} x^2").root
    assert root.kind is Kind.MUL
    assert [c.kind for c in root.children] == [Kind.FUNC, Kind.DERIV]
    assert root.children[0].children[0].label == "sym:x"


def test_operand_stops_before_a_later_operator_but_nests_a_leading_one() -> None:
    product = parse_latex(r"\frac{d}{dx} x^2 \frac{d}{dx} \sin x").root
    assert product.kind is Kind.MUL and [c.kind for c in product.children] == [Kind.DERIV] * 2
    nested = parse_latex(r"\sum_{j=1}^{n} \sum_{k=1}^{n} j k").root
    assert nested.kind is Kind.SUM and nested.children[0].kind is Kind.SUM


def test_conjugate_and_logical_constants_keep_their_spelling() -> None:
    assert to_latex(parse_latex(r"(a b)^\star + c^*")) == r"\left(a b\right)^{\star} + c^{*}"
    assert to_latex(parse_latex(r"\top \lor \bot")) == r"\top \lor \bot"
    ids = to_latex(parse_latex(r"z^{*}"), with_ids=True)
    assert ids == r"\htmlData{n=0}{\htmlData{n=1}{z}^{\htmlData{n=0,role=op}{*}}}"


def test_expression_subscript_is_one_symbol_whatever_the_spacing() -> None:
    a, b = parse_latex("x_{n+1}").root, parse_latex("x_{ n + 1 }").root
    assert a.kind is Kind.SYMBOL and a.value == b.value == "x_{n + 1}"
    assert parse_latex("x_{1+n}").root.value != a.value  # unrelated names: sound, not complete
