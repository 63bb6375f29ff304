"""Regression fixtures: ALPS's recorded LLM construction submissions, re-judged with real E.

Recorded verdicts come from Vampire 5.0.1 with a 30 s budget. Ours must agree, with one
explained exception: where Vampire did not saturate E ∪ {a ≠ b} but E has a small finite model,
our SAT search finds it (re-checked by evaluation), so nonvacuity becomes True. Correctness
must always agree.
"""

from __future__ import annotations

import json
import re

import pytest

from veristep.alps.judge import JudgeConfig, judge
from veristep.alps.provers import EProver

pytestmark = [pytest.mark.eprover, pytest.mark.slow]
CFG = JudgeConfig(prover=EProver("auto"), timeout_s=4, memory_mb=1024)


def _attempts(shared_data, name):
    path = shared_data / "alps_dev" / "llm_runs" / name
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        for att in rec.get("attempts", []):
            yield rec["law"], att


def test_recorded_parse_errors_get_the_same_message(shared_data):
    seen = 0
    for law, att in _attempts(shared_data, "llm_construct_gpt41_hard25.jsonl"):
        if "parse_error" not in att:
            continue
        quoted = re.match(r"equation '(.*?)' ", att["parse_error"]).group(1)
        v = judge(law, {"E": ["x ◇ x = x", quoted]}, CFG)
        assert v.status == "invalid"
        assert v.message.split(":")[0] == att["parse_error"].split(":")[0]
        seen += 1
    assert seen == 2


def test_recorded_o4mini_attempts_rejudged(shared_data):
    attempts = list(_attempts(shared_data, "llm_construct_o4mini_hard25.jsonl"))[:9]
    for law, att in attempts:
        v = judge(law, {"E": att["E"]}, CFG)
        correctness, nonvacuity = v.certificate["checks"]
        assert v.status != "accepted"  # no recorded submission was ever certified
        assert correctness["passed"] == att["corr"], (law, att)
        if nonvacuity["passed"] != att["nonvac"]:
            assert (att["nonvac"], nonvacuity["method"]) == (False, "sat")
            assert len(nonvacuity["evidence"]["table"]) >= 2
