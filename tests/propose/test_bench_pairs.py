"""The benchmark set is well-formed, and one pair per category derives end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veristep.core.tiers import Tier
from veristep.propose import derive

PAIRS = Path(__file__).resolve().parents[2] / "bench" / "derive_pairs.jsonl"


def _pairs() -> list[dict]:
    return [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]


def test_benchmark_has_at_least_80_distinct_pairs_with_sources():
    pairs = _pairs()
    assert len(pairs) >= 80
    assert len({p["id"] for p in pairs}) == len(pairs)
    assert all(p["start"] and p["target"] and p["category"] and p["source"] for p in pairs)
    assert sum(p["source"].startswith("stack_equiv") for p in pairs) >= 15


def _first_of_each_category() -> list[dict]:
    seen: dict[str, dict] = {}
    for p in _pairs():
        seen.setdefault(p["category"], p)
    return list(seen.values())


@pytest.mark.slow
@pytest.mark.parametrize("pair", _first_of_each_category(), ids=lambda p: p["id"])
def test_one_pair_per_category_is_reached_with_every_step_verified(pair):
    d = derive(pair["start"], pair["target"])
    assert d.endpoint.reached, d.proposer["note"]
    assert d.steps and all(s.tier >= Tier.VERIFIED for s in d.steps)
    assert all(s.operation and s.justification for s in d.steps)


SYLLABUS = PAIRS.with_name("derive_syllabus.jsonl")


def test_syllabus_benchmark_has_150_pairs_over_every_topic():
    pairs = [json.loads(line) for line in SYLLABUS.read_text().splitlines() if line.strip()]
    assert len(pairs) >= 150
    assert len({p["id"] for p in pairs}) == len(pairs)
    topics = {p["category"] for p in pairs}
    assert {"inequality", "system", "algebra", "trig_identity", "trig_equation", "explog",
            "radical_abs", "subject", "integral", "limit", "differentiation"} <= topics  # fmt: skip
    assert all(sum(p["category"] == t for p in pairs) >= 10 for t in topics)


def test_syllabus_pairs_all_parse():
    from veristep.core.settings import Settings
    from veristep.mathgraph import parse_latex

    settings = Settings()
    for p in [json.loads(line) for line in SYLLABUS.read_text().splitlines() if line.strip()]:
        parse_latex(p["start"], settings)
        parse_latex(p["target"], settings)
