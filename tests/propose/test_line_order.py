"""Lines as a teacher writes them: linear factors and the cases they give in increasing order of
their roots, the same order carried from the factored line to the solutions."""

from __future__ import annotations

import sympy as sp

from veristep.core.tiers import Tier
from veristep.propose import derive
from veristep.propose.symbolic.printer import to_latex

x = sp.Symbol("x")


def test_factors_and_cases_keep_the_order_of_the_roots() -> None:
    d = derive("x^2 - 5x + 6 = 0", "")
    lines = [s.latex for s in d.states[1:]]
    assert lines == [
        r"\left(x - 2\right) \left(x - 3\right) = 0",
        r"x - 2 = 0 \lor x - 3 = 0",
        r"x = 2 \lor x = 3",
    ]
    assert all(s.tier is Tier.GROUNDED for s in d.steps)


def test_the_printer_orders_linear_brackets_by_root_and_keeps_other_products() -> None:
    assert to_latex((x - 3) * (x - 2)) == r"\left(x - 2\right) \left(x - 3\right)"
    assert to_latex(-2 * x * (x - 1) ** 2 * (x + 3)) == (
        r"-2 x \left(x + 3\right) \left(x - 1\right)^{2}"
    )
    # One bracket, or a bracket that is not linear, is printed as SymPy prints it.
    assert to_latex((x - 3) * (x**2 + 1)) == sp.latex((x - 3) * (x**2 + 1))


def test_the_quadratic_formula_keeps_b_squared_first_and_each_branch_on_its_side() -> None:
    d = derive("a x^2 + b x + c = 0", r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}")
    lines = [s.latex for s in d.states[1:]]
    assert not any("- 4 a c + b^{2}" in line for line in lines)
    assert any("b^{2} - 4 a c" in line for line in lines)
    cases = [line.split(r" \lor ") for line in lines if r" \lor " in line]
    assert len(cases) >= 2
    # The branch with the minus sign before the root stays on the left on every line.
    assert all(r"- \frac{\sqrt" in left or r"- \sqrt" in left for left, _ in cases)
    assert not any(r"- \sqrt" in right or r"- \frac{\sqrt" in right for _, right in cases)


def _line_order_bench():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "line_order.py"
    spec = importlib.util.spec_from_file_location("line_order_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_line_order_bench_compares_terms_side_by_side() -> None:
    bench = _line_order_bench()
    # Swapping the two sides is a move of its own, not a reorder of the terms.
    assert bench.terms_changed("y = m x + c", "m x + c = y") is False
    # Terms that stay on their side in another order are.
    assert bench.terms_changed("a x + b + c = d", "c + a x + b = d") is True
    # Fewer than two shared terms on every side: nothing to compare.
    assert bench.terms_changed("m x + c = y", "m x = y - c") is None
