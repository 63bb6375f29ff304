"""The STACK equivalence-reasoning corpus as a yardstick: load its labelled transitions, judge each
one, and score the verdicts (soundness, agreement, decided rate, timing).

STACK claims ⇔ on every line, so a transition is "valid" for STACK when the two lines are
equivalent. veristep says valid when it proves (or strongly verifies) ``equivalent``, and invalid
when it finds ``refuted``, ``narrows`` or ``widens``; ``unknown`` and ``unchecked`` are undecided.
An *unsound* verdict is an invalid transition judged equivalent at verified or better.

>>> pair = StackPair("t", ["x^2=4", "x=2"], "rewrite", "invalid", "QMCHAR", "")
>>> score([Outcome(pair, "narrows", "grounded", 3.0, False)])["agreement"]
1.0
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from veristep.core.datasets import require_shared_data
from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier

_INVALID_RELATIONS = {Relation.REFUTED.value, Relation.NARROWS.value, Relation.WIDENS.value}
_STRONG = {Tier.GROUNDED.name_lower, Tier.VERIFIED.name_lower}


@dataclass(frozen=True)
class StackPair:
    id: str
    states: list[str]
    change_type: str
    expect: str  # "valid" | "invalid"
    label: str
    options: str


@dataclass(frozen=True)
class Outcome:
    pair: StackPair
    relation: str
    tier: str
    ms: float
    timed_out: bool
    reason: str = ""
    chain_tier: str = ""  # the verdict of the two-state chain (conclusion gate included)

    @property
    def says(self) -> str | None:
        """'valid', 'invalid', or None when veristep did not decide."""
        if self.relation == Relation.EQUIVALENT.value and self.tier in _STRONG:
            return "valid"
        if self.relation in _INVALID_RELATIONS:
            return "invalid"
        return None

    @property
    def unsound(self) -> bool:
        return self.pair.expect == "invalid" and self.says == "valid"


def load_stack_pairs(path: Path | None = None) -> list[StackPair]:
    path = path or require_shared_data("stack_equiv", "stack_pairs.jsonl")
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            ct = (row.get("change_types") or [None])[0]
            pairs.append(
                StackPair(row["id"], row["states"], ct, row["expect"], row["label"], row["options"])
            )
    return pairs


def judge_pairs(pairs: list[StackPair], settings: Settings) -> Iterator[Outcome]:
    """Judge every pair with a fresh context: no verdict memo is carried over from one pair to
    the next (a process's own caches of readings and solution sets are, as for any file)."""
    from veristep.grounding.chain import check

    for pair in pairs:
        positive = _positive(pair, settings)
        types = [pair.change_type] if pair.change_type else None
        derivation = check(pair.states, types, settings=settings, positive=positive)
        verdict = derivation.steps[0]
        timed_out = "timeout" in verdict.reason or "budget exhausted" in verdict.reason
        yield Outcome(
            pair, verdict.relation.value, verdict.tier.name_lower, verdict.ms, timed_out,
            verdict.reason, derivation.confidence.tier.name_lower,
        )  # fmt: skip


@contextmanager
def judging_processes(
    settings: Settings, jobs: int, warm_up: list[StackPair]
) -> Iterator[Callable[[list[StackPair]], Iterator[Outcome]]]:
    """A :func:`judge_pairs` that spreads the pairs over ``jobs`` processes (results in order).

    A whole file is what a teacher or a benchmark checks, and its transitions are independent:
    each process judges one pair at a time with its own warm CAS pool. Every process judges
    ``warm_up`` (starting its pool) before this returns, as the sequential run starts its pool
    outside the measurement. Pairs are handed out one by one, so a slow pair holds up one
    process, not a chunk of the file.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from veristep.core.mainless import no_main_reimport

    context = multiprocessing.get_context("forkserver")
    everyone = context.Barrier(jobs)
    with no_main_reimport(), ProcessPoolExecutor(
        jobs, context, initializer=_warm_process, initargs=(warm_up, settings, everyone)
    ) as executor:  # fmt: skip
        # Each of these tasks waits at the barrier until all processes hold one, so each process
        # takes exactly one, after its own warm-up.
        list(executor.map(_meet, range(jobs)))
        yield lambda pairs: executor.map(_judge_one, pairs, [settings] * len(pairs))


_BARRIER: Any = None


def _warm_process(pairs: list[StackPair], settings: Settings, everyone: Any) -> None:
    from veristep.core.interrupts import ignore_interrupts

    global _BARRIER
    ignore_interrupts()
    _BARRIER = everyone
    list(judge_pairs(pairs, settings))


def _meet(index: int) -> int:
    _BARRIER.wait(timeout=120)
    return index


def _judge_one(pair: StackPair, settings: Settings) -> Outcome:
    return next(judge_pairs([pair], settings))


def _positive(pair: StackPair, settings: Settings) -> frozenset[str]:
    """STACK's ``assumepos`` option: every variable of the argument is positive."""
    if "assumepos" not in pair.options:
        return frozenset()
    from veristep.grounding.states import parse_state

    names: set[str] = set()
    for s in pair.states:
        state = parse_state(s, settings)
        if state.expr is not None:
            names |= {v.name for v in state.expr.free_symbols}
    return frozenset(names)


def score(outcomes: list[Outcome]) -> dict[str, Any]:
    decided = [o for o in outcomes if o.says is not None]
    valid = [o for o in outcomes if o.pair.expect == "valid"]
    invalid = [o for o in outcomes if o.pair.expect == "invalid"]
    agree = [o for o in decided if o.says == o.pair.expect]
    times = sorted(o.ms for o in outcomes)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    return {
        "transitions": len(outcomes),
        "decided": len(decided),
        "decided_rate": len(decided) / len(outcomes) if outcomes else 0.0,
        "agreement": len(agree) / len(decided) if decided else 0.0,
        "unsound": [o.pair.id for o in outcomes if o.unsound],
        # The yardsticks, on the two-state chain verdict a user sees.
        "invalid_shown_strong": [o.pair.id for o in invalid if o.chain_tier in _STRONG],
        "invalid_refuted_rate": (
            sum(1 for o in invalid if o.chain_tier == Tier.REFUTED.name_lower) / len(invalid)
            if invalid
            else 0.0
        ),
        "valid_decided_rate": (
            sum(1 for o in valid if o.says is not None) / len(valid) if valid else 0.0
        ),
        "disagree": [o.pair.id for o in decided if o.says != o.pair.expect],
        "timeouts": sum(1 for o in outcomes if o.timed_out),
        "median_ms": statistics.median(times) if times else 0.0,
        "p95_ms": p95,
        "total_s": sum(times) / 1000,
    }
