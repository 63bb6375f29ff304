"""Random token soup: the parser either succeeds (and round-trips) or raises a located error."""

from __future__ import annotations

import contextlib
import random

from veristep.core.errors import InputError
from veristep.mathgraph import LatexParseError, parse_latex, structurally_equal, to_latex, to_sympy

ATOMS = ["x", "y", "2", "0.5", "e", "i", r"\pi", r"\infty", "f", "d", "n", "k", r"\alpha", "12"]
OPERATORS = [
    "+", "-", r"\cdot", r"\times", "/", "^", "_", "=", "<", r"\le", r"\ne", r"\approx", r"\pm",
    r"\mp", "!", "'", ",", "|", "(", ")", "[", "]", "{", "}", r"\left(", r"\right)", r"\left|",
    r"\right|", r"\frac", r"\sqrt", r"\sin", r"\log", r"\ln", r"\int", "dx", r"\lim_{x\to 0}",
    r"\sum_{k=1}^{n}", r"\frac{d}{dx}", r"\lor", r"\land", r"\neg", r"\Rightarrow", r"\iff",
    r"\text{ or }", "&", r"\\", r"\begin{cases}", r"\end{cases}", r"\in", r"\binom", r"\lfloor",
    r"\rfloor", "{(", ")}", r"\dots", r"\foo",
]  # fmt: skip


def test_token_soup_never_crashes_and_round_trips() -> None:
    rng = random.Random(20261129)
    parsed = 0
    for _ in range(3000):
        source = " ".join(rng.choice(ATOMS + OPERATORS) for _ in range(rng.randint(1, 12)))
        try:
            graph = parse_latex(source)
        except LatexParseError as err:
            assert err.position is not None and 0 <= err.position <= len(source)
            continue
        parsed += 1
        printed = to_latex(graph)
        assert structurally_equal(graph, parse_latex(printed)), f"{source!r} -> {printed!r}"
        to_latex(graph, with_ids=True)
        with contextlib.suppress(InputError):  # bad maths is fine; any other exception is not
            to_sympy(graph)
    assert parsed > 50  # the soup must exercise the success path too
