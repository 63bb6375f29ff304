"""Gaps a proof admits in its own words: found, quoted as the witness, and never invented."""

from __future__ import annotations

from pathlib import Path

import pytest

from veristep.core.tiers import Tier
from veristep.review.admissions import admission
from veristep.review.machine import machine_check

FIXTURES = Path(__file__).parent / "fixtures"


def _cases() -> list[tuple[str, str]]:
    lines = (FIXTURES / "admissions.txt").read_text(encoding="utf-8").splitlines()
    return [
        tuple(part.strip() for part in line.split("|", 1))
        for line in lines
        if line.strip() and not line.startswith("#")
    ]


@pytest.mark.parametrize(("expected", "text"), _cases())
def test_admissions_fixture(expected: str, text: str) -> None:
    found = admission(text)
    if expected == "none":
        assert found is None, found
        return
    assert found is not None and found in " ".join(text.split())
    result = machine_check(text)
    assert result.outcome == "refuted"
    check = result.checks[0]
    assert check.check == "admitted_gap" and check.tier is Tier.REFUTED
    assert result.witness.startswith("the proof says it does not prove this: “")
    assert found in result.witness


def test_an_admission_is_quoted_from_the_step_that_makes_it() -> None:
    text = "We prove the two cases. For the second case I cannot give a rigorous proof. Done."
    assert admission(text) == "For the second case I cannot give a rigorous proof."
