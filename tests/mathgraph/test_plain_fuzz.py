"""Random typed soup: the plain reader either succeeds (and its printed LaTeX reads back as the
same graph) or raises a located error — never another exception."""

from __future__ import annotations

import contextlib
import random

from veristep.core.errors import InputError
from veristep.mathgraph import (
    LatexParseError,
    branches,
    parse_latex,
    parse_plain,
    structurally_equal,
    to_latex,
)

PIECES = [
    "x", "y", "2", "0.5", "12", "e", "i", "pi", "ab", "sin", "cos x", "ln", "log", "log2",
    "sqrt", "abs", "floor", "cbrt", "max", "d/dx", "dy/dx", "theta", "n!", "+", "-", "*", "**",
    "/", "^", "^-", "_", "=", "==", "<", "<=", ">=", "!=", "=>", "<=>", "->", "+-", "±", "≤",
    "√", "²", "π", "(", ")", "[", "]", "|", ",", ";", "\n", " ", "or", "and", "in", "R", "%",
    "x2", "3/4 y", "e^2x", "foo(", "so",
]  # fmt: skip


def test_typed_soup_never_crashes_and_round_trips() -> None:
    rng = random.Random(20261204)
    parsed = 0
    for _ in range(4000):
        source = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 10)))
        try:
            graph = parse_plain(source)
        except LatexParseError as err:
            assert err.position is not None and 0 <= err.position <= len(source), source
            continue
        parsed += 1
        printed = to_latex(graph)
        assert structurally_equal(graph, parse_latex(printed)), f"{source!r} -> {printed!r}"
        to_latex(graph, with_ids=True)
        with contextlib.suppress(InputError):  # bad maths is fine; any other exception is not
            branches(graph)
    assert parsed > 100  # the soup must exercise the success path too
