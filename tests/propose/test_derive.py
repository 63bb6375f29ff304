"""`derive` end to end: the real parser, planner, CAS worker pool and grounding engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.propose import derive

FAST = Settings(derive_timeout_s=4.0, step_timeout_s=4.0, cas_timeout_s=2.0)


def _all_strong(d) -> bool:
    return all(s.tier >= Tier.VERIFIED for s in d.steps)


def test_product_rule_is_multi_step_and_grounded():
    d = derive(r"\frac{d}{dx}\left(x^2 \sin x\right)", r"2 x \sin x + x^2 \cos x")
    assert len(d.steps) >= 3
    assert all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached and d.confidence.tier is Tier.GROUNDED
    assert d.steps[0].operation == "apply the product rule"
    assert all(s.operation and s.justification for s in d.steps)
    assert d.proposer["kind"] == "symbolic" and d.proposer["attempts"] == 1


def test_quadratic_formula_reaches_the_plus_minus_target():
    target = r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}"
    d = derive("a x^2 + b x + c = 0", target)
    assert len(d.steps) >= 6 and _all_strong(d)
    assert d.endpoint.reached
    assert d.states[-1].latex == target
    assert "\\lor" in d.steps[-2].expr_latex  # the ∨ of both roots comes before the ± form
    assert d.confidence.tier >= Tier.VERIFIED


def test_radical_equation_rejects_the_extraneous_root_in_a_step_of_its_own():
    d = derive(r"\sqrt{x + 3} = x - 3", "x = 6")
    assert d.endpoint.reached and _all_strong(d)
    assert d.steps[-1].operation == "keep the solutions that satisfy $x - 3 \\geq 0$"
    assert "$x = 1$ fails" in d.steps[-1].justification


def test_unreachable_target_is_honest():
    d = derive("x^2 = 4", "x = 7", settings=FAST)
    assert not d.endpoint.reached
    assert d.confidence.tier <= Tier.PLAUSIBLE
    assert "not reached" in d.proposer["note"]
    assert d.proposer["attempts"] >= 1


def test_nonsense_target_that_parses_ends_not_reached():
    d = derive("x^2 = 4", r"\sin x = \ln 5 + \pi^{x}", settings=FAST)
    assert not d.endpoint.reached
    assert d.confidence.tier <= Tier.PLAUSIBLE


def test_unparseable_target_is_a_located_input_error():
    with pytest.raises(InputError) as info:
        derive("x^2 = 4", r"x = \fracc{1}{2}", settings=FAST)
    line = info.value.one_line()
    assert line.startswith("TARGET: ") and "column 5" in line and "\\fracc" in line


def test_judge_without_a_model_is_an_input_error():
    with pytest.raises(InputError, match="needs a language model"):
        derive("3x = 6", "x = 2", settings=FAST, judge=True)


def test_five_thousand_character_input_ends_with_a_verdict():
    start = " + ".join(["x"] * 1250) + " = 5"
    assert len(start) >= 5000
    began = time.monotonic()
    d = derive(start, r"x = \frac{1}{250}", settings=FAST)
    assert time.monotonic() - began < 60
    assert d.endpoint.reached and _all_strong(d)


def test_an_exploding_expression_is_cut_off_by_the_budget():
    began = time.monotonic()
    d = derive(r"(x + y + z + 1)^{60}", r"(x + y + z + 1)^{60} + 1", settings=FAST)
    assert time.monotonic() - began < 90
    assert not d.endpoint.reached
    assert d.confidence.tier <= Tier.PLAUSIBLE


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "VERISTEP_STEP_TIMEOUT": "4", "VERISTEP_CAS_TIMEOUT": "2"}
    return subprocess.run(
        [sys.executable, "-m", "veristep.cli", "derive", *args],
        capture_output=True, text=True, timeout=180, env=env,
    )  # fmt: skip


def test_cli_json_is_one_document_with_the_proposer_record(tmp_path):
    html = tmp_path / "out.html"
    out = _cli("|2x - 1| = 5", r"x = 3 \lor x = -2", "--json", "--html", str(html))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["endpoint"]["reached"] is True
    assert doc["proposer"]["kind"] == "symbolic"
    assert doc["steps"][0]["operation"] == "split into the two cases of the absolute value"
    assert html.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


def test_cli_human_output_and_input_errors():
    out = _cli("3x + 5 = 11", "x = 2")
    assert out.returncode == 0, out.stderr
    assert "subtract $5$ from both sides" in out.stdout
    assert "confidence        : 🥇 Grounded" in out.stdout
    bad = _cli("3x + 5 = 11", "x = 2", "--attempts", "0")
    assert bad.returncode == 2 and "--attempts" in bad.stderr
    llm = _cli("3x + 5 = 11", "x = 2", "--proposer", "llm")
    assert llm.returncode == 2 and "needs a model" in llm.stderr


def test_a_step_that_does_not_ground_is_searched_around():
    # Base-3 logarithms: whether or not combining them directly grounds, the kept draft must.
    d = derive(r"\log_{3}\left(x+17\right)-2=\log_{3}\left(2 x\right)", "x = 1")
    assert d.endpoint.reached and _all_strong(d)
    assert len(d.proposer["history"]) == d.proposer["attempts"]
    assert d.steps[-1].operation.startswith("keep the solutions that satisfy")
