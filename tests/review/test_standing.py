"""Claims about the problem's letters tried under the problem's hypotheses (fixture-driven).

Every counterexample is re-checked without SymPy: its values are substituted into the claim and
into the problem's equation as written, and evaluated by the review's exact rational evaluator.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from veristep.review.machine import check_steps
from veristep.review.standing import read_standing

FIXTURES = Path(__file__).parent / "fixtures"


def _blocks() -> list[dict[str, list[str]]]:
    text = (FIXTURES / "standing.txt").read_text(encoding="utf-8")
    blocks = []
    for chunk in re.split(r"\n\s*\n", text):
        fields: dict[str, list[str]] = {}
        for line in chunk.splitlines():
            if line.startswith("#") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), []).append(value.strip())
        if "problem" in fields:
            blocks.append(fields)
    return blocks


def _standing_text(problem: str) -> str:
    standing = read_standing(problem)
    if standing is None:
        return "none"
    lower = "any" if standing.lower is None else f"{'>' if standing.strict else '>='} 0"
    return f"{', '.join(standing.letters)} | {lower} | {standing.constraint or 'none'}"


@pytest.mark.parametrize("case", _blocks(), ids=lambda case: case["step"][-1][:40])
def test_standing_hypotheses_fixture(case: dict[str, list[str]], recheck_fails: Callable) -> None:
    problem = case["problem"][0]
    assert _standing_text(problem) == case["standing"][0]
    results = check_steps(case["step"], problem)
    flagged = [str(i) for i, r in enumerate(results, start=1) if r.outcome == "refuted"]
    assert flagged == ([] if case["flagged"] == ["none"] else case["flagged"][0].split(", "))
    standing = read_standing(problem)
    for number in flagged:
        result = results[int(number) - 1]
        check = next(c for c in result.checks if c.witness == result.witness)
        assert check.check == "standing_hypotheses"
        values = dict(re.findall(r"\b([a-z]) = (-?[\d/]+)", result.witness.partition("(")[0]))
        assert recheck_fails(check.latex, values), result.witness
        if standing is not None and standing.constraint:
            assert not recheck_fails(standing.constraint, values)  # the point is admissible
        sign = ">" if standing is not None and standing.strict else "\\ge"
        for letter in standing.letters if standing and standing.lower is not None else ():
            assert not recheck_fails(f"{letter} {sign} 0", values)  # in the declared range


def test_an_exploding_hypothesis_or_claim_gives_no_evidence_and_no_crash() -> None:
    problem = "Let $a, b$ be positive real numbers such that $a^{10^{10}} + b^{99} = 7$. Prove it."
    steps = ["Clearly $a^{99999} \\le b + 1$.", "Also $\\frac{1}{a-a} \\ge b$ and $a <$."]
    results = check_steps(steps, problem)
    checks = [c for r in results for c in r.checks if c.check == "standing_hypotheses"]
    assert checks and all(c.tier.name_lower == "plausible" for c in checks)
    assert all(r.outcome == "undecided" for r in results)
