"""Prose → universal claims with their local context, and the small-case search (fixture-driven).

Every counterexample is re-checked here without SymPy: the witness's values are substituted into
the claim as written and evaluated by the review's own exact rational evaluator.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from veristep.review.arithmetic import evaluate
from veristep.review.context import read_declarations
from veristep.review.smallcases import search_cases
from veristep.review.universal import find_universals

FIXTURES = Path(__file__).parent / "fixtures"


def _blocks() -> list[dict[str, str]]:
    text = (FIXTURES / "claims.txt").read_text(encoding="utf-8")
    blocks = []
    for chunk in re.split(r"\n\s*\n", text):
        fields = {}
        for line in chunk.splitlines():
            if line.startswith("#") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
        if "step" in fields:
            blocks.append(fields)
    return blocks


@pytest.mark.parametrize("case", _blocks(), ids=lambda case: case["step"][:48])
def test_claims_and_small_cases_fixture(case: dict[str, str]) -> None:
    context = read_declarations(case.get("context", ""))
    found = find_universals(case["step"], context)
    if case["claim"] == "none":
        assert found == [], [(u.letters, u.claim) for u in found]
        return
    letters, formula, domains = _expected_claim(case["claim"])
    assert [(u.letters, u.claim) for u in found] == [(letters, formula)]
    claim = found[0]
    assert [d.describe() for d in claim.domains] == domains
    result = search_cases(claim.claim, claim.letters, claim.domains)
    outcome = case["outcome"]
    if outcome.startswith("counterexample"):
        assert result.status == "counterexample", result
        assert result.witness.startswith(outcome.removeprefix("counterexample").strip() + ":")
        assert recheck_fails(claim.claim, dict(result.assignment))
    else:
        assert result.status == outcome, result


def _expected_claim(text: str) -> tuple[tuple[str, ...], str, list[str]]:
    head, _, domains = text.rpartition("|")
    letters, _, formula = head.partition(":")
    return (
        tuple(x.strip() for x in letters.split(",")),
        formula.strip(),
        [d.strip() for d in domains.split(";")],
    )


def recheck_fails(claim: str, values: dict[str, str]) -> bool:
    """True when ``claim`` is false at ``values``, decided by exact rational arithmetic.

    A value ``i`` (the imaginary unit) is re-checked by hand-written rules for the one shape
    the fixtures use: ``x^2 \\ge 0`` at ``x = i`` reads ``-1 \\ge 0``.
    """
    if "i" in values.values():
        letter = next(k for k, v in values.items() if v == "i")
        return re.fullmatch(rf"{letter}\^2 \\ge 0", claim) is not None  # i² = −1 < 0
    text = claim
    for letter, value in values.items():
        text = re.sub(rf"(?<![A-Za-z\\]){letter}(?![A-Za-z])", f"({value})", text)
    text = re.sub(r"\)\(", ")*(", text)
    text = re.sub(r"(\d)\(", r"\1*(", text)
    if text.endswith(" \\text{ is prime}"):
        n = _value(text.removesuffix(" \\text{ is prime}"))
        return n < 2 or any(n % d == 0 for d in range(2, int(n**0.5) + 1))
    modulus = re.search(r"\\pmod\{?([^}]*)\}?$", text)
    if modulus:
        left, _, right = text[: modulus.start()].partition("\\equiv")
        return (_value(left) - _value(right)) % _value(modulus.group(1)) != 0
    for token, divides in (("\\nmid", False), ("\\mid", True)):
        if token in text:
            left, _, right = text.partition(token)
            return ((_value(right) % _value(left)) == 0) != divides
    for token, holds in (
        ("\\ge", lambda a, b: a >= b),
        ("\\le", lambda a, b: a <= b),
        (">", lambda a, b: a > b),
        ("<", lambda a, b: a < b),
        ("=", lambda a, b: a == b),
    ):
        if token in text:
            left, _, right = text.partition(token)
            return not holds(_value(left), _value(right))
    raise AssertionError(f"no relation in {claim!r}")


def _value(text: str) -> Fraction:
    value = evaluate(text)
    assert value is not None, text
    return value
