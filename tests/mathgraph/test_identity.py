"""Round trips: LaTeX → graph → LaTeX → graph gives the same graph and the same SymPy form.

The corpus is the identity fixture (reference derivations, SymPy printer output, our own lines)
plus every distinct line of the STACK equivalence-reasoning corpus that is in scope.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veristep.core.errors import InputError
from veristep.mathgraph import (
    LatexParseError,
    PlusMinusError,
    branches,
    parse_latex,
    structurally_equal,
    to_latex,
    to_sympy,
)

FIXTURE = Path(__file__).parent / "fixtures" / "identity.txt"
STACK_MIN_PARSE_RATE = 0.9
# STACK lines we refuse on purpose: prose comments in \text{...} and the empty list "[ ]".
STACK_OUT_OF_SCOPE_REASONS = ("is not mathematics", "empty brackets")


def identity_lines() -> list[str]:
    lines = FIXTURE.read_text().splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def stack_lines(root: Path) -> list[str]:
    data = json.loads((root / "stack_equiv" / "stack_equiv_latex.json").read_text())
    seen: dict[str, None] = {}
    for argument in data:
        for line in argument["lines"]:
            seen.setdefault(line["latex"], None)
    return list(seen)


def assert_round_trip(latex: str) -> None:
    first = parse_latex(latex)
    printed = to_latex(first)
    second = parse_latex(printed)
    assert structurally_equal(first, second), f"{latex!r} -> {printed!r}"
    assert to_latex(second) == printed, "printing must be a fixed point after one round"
    try:
        expected = to_sympy(first)
    except PlusMinusError:
        assert branches(first) == branches(second)
    except InputError as err:
        # e.g. STACK's "x = 1 or 2": a graph without a SymPy form must stay that way
        with pytest.raises(
            InputError, match=r"not a statement|division by zero|complex domain"
        ) as again:
            to_sympy(second)
        assert again.value.message == err.message
    else:
        assert to_sympy(second) == expected


def test_identity_fixture_is_large_enough(shared_data: Path) -> None:
    assert len(identity_lines()) + len(stack_lines(shared_data)) >= 200
    assert len(identity_lines()) >= 100


@pytest.mark.parametrize("latex", identity_lines())
def test_identity_round_trip(latex: str) -> None:
    assert_round_trip(latex)


def test_stack_corpus_round_trips_or_fails_loudly(shared_data: Path) -> None:
    lines = stack_lines(shared_data)
    refused = []
    for latex in lines:
        try:
            parse_latex(latex)
        except LatexParseError as err:
            assert any(reason in err.headline() for reason in STACK_OUT_OF_SCOPE_REASONS), (
                f"unexpected refusal of {latex!r}: {err.one_line()}"
            )
            assert err.position is not None
            refused.append(latex)
            continue
        assert_round_trip(latex)
    rate = 1 - len(refused) / len(lines)
    assert rate >= STACK_MIN_PARSE_RATE, f"STACK parse rate {rate:.1%}"
