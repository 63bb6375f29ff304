"""Prose → universal claims with their local context, and the small-case search (fixture-driven).

Every counterexample is re-checked here without SymPy: the witness's values are substituted into
the claim as written and evaluated by the review's own exact rational evaluator.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

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
def test_claims_and_small_cases_fixture(case: dict[str, str], recheck_fails: Callable) -> None:
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
