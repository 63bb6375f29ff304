"""A whole file judged by several processes gives each pair the verdict the sequential run gives,
in the file's order."""

from __future__ import annotations

from veristep.core.settings import Settings
from veristep.grounding.corpus import StackPair, judge_pairs, judging_processes

SETTINGS = Settings(step_timeout_s=4.0, cas_timeout_s=2.0)
PAIRS = [
    StackPair("p1", ["x^2 = 4", "x = 2"], "rewrite", "invalid", "", ""),
    StackPair("p2", ["2x + 1 = 5", "x = 2"], "rewrite", "valid", "", ""),
    StackPair("p3", ["\\sqrt{x+2} = x", "x + 2 = x^2"], "rewrite", "invalid", "", ""),
    StackPair("p4", ["(x+1)^2", "x^2 + 2x + 1"], "rewrite", "valid", "", ""),
    StackPair("p5", ["x = 5", "x^2 = -1"], "rewrite", "invalid", "", ""),
]


def _verdicts(outcomes: list) -> list[tuple[str, str, str, str]]:
    return [(o.pair.id, o.relation, o.tier, o.chain_tier) for o in outcomes]


def test_two_processes_judge_like_one() -> None:
    sequential = list(judge_pairs(PAIRS, SETTINGS))
    with judging_processes(SETTINGS, 2, PAIRS[:1]) as judge:
        spread = list(judge(PAIRS))
    assert _verdicts(spread) == _verdicts(sequential)
    assert [v[1] for v in _verdicts(spread)] == [
        "narrows", "equivalent", "widens", "equivalent", "refuted",
    ]  # fmt: skip
