"""One line is a claim: an equation typed alone is judged as an identity (grounding.claim)."""

from __future__ import annotations

import json

import pytest
import sympy as sp

from veristep.cli import main
from veristep.grounding.chain import check


def test_binomial_slip_is_false_with_a_point_a_person_can_substitute() -> None:
    d = check(["(a+b)^2 = a^2 + b^2"])
    assert d.confidence.tier.name_lower == "refuted"
    claim = d.claim
    assert claim["verdict"] == "false"
    point = {k: sp.Integer(v) for k, v in claim["witness"].items() if k in ("a", "b")}
    assert set(point) == {"a", "b"}
    a, b = point["a"], point["b"]
    # The witness really separates the two sides, and the sentence quotes both values.
    assert (a + b) ** 2 != a**2 + b**2
    assert f"the left side is {(a + b) ** 2}" in claim["sentence"]
    assert f"the right side is {a**2 + b**2}" in claim["sentence"]


def test_true_identity_is_grounded_for_every_value() -> None:
    d = check(["(a+b)^2 = a^2 + 2ab + b^2"])
    assert d.claim["verdict"] == "true"
    assert d.confidence.tier.name_lower == "grounded"
    assert d.claim["sentence"] == "true for every real value of a and b"


def test_true_only_where_defined_names_the_condition_and_is_not_grounded() -> None:
    d = check([r"\frac{x}{x} = 1"])
    assert d.claim["verdict"] == "true_where_defined"
    assert d.confidence.tier.name_lower == "verified"
    assert "x ≠ 0" in d.claim["condition"]


def test_false_claim_in_one_letter_says_where_it_does_hold() -> None:
    d = check([r"\sqrt{x^2} = x"])
    assert d.claim["verdict"] == "false"
    assert d.claim["witness"]["x"].startswith("-")  # a negative x breaks it
    assert d.claim["condition"] == "x ≥ 0"


def test_claim_under_its_written_condition() -> None:
    good = check([r"\sqrt{x^2} = x \text{ for } x \ge 0"])
    assert good.claim["verdict"] == "true_under_condition"
    assert good.confidence.tier.name_lower == "grounded"
    bad = check([r"\sqrt{x^2} = x \land x \ge -1"])
    assert bad.claim["verdict"] == "false"
    x = sp.Rational(bad.claim["witness"]["x"])
    assert -1 <= x < 0  # an allowed value where the two sides differ


def test_a_system_or_an_expression_is_no_claim() -> None:
    assert check(["x + 1"]).claim is None
    assert check([r"x = 1 \land y = 2"]).claim is None
    # With a target, one state is a derivation of 0 steps, not a claim.
    assert check(["x^2 = 4"], target="x = 2").claim is None


def test_cli_check_with_one_state_judges_the_claim(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "(a+b)^2 = a^2 + b^2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["claim"]["verdict"] == "false" and doc["confidence"]["tier"] == "refuted"
    assert main(["check", r"\sin^2 x + \cos^2 x = 1"]) == 0
    out = capsys.readouterr().out
    assert "true for every real value of x" in out
