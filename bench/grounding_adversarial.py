"""Adversarial false steps against the cascade, per family: generated/refuted/narrowed/unsound.

Usage: python bench/grounding_adversarial.py [--n N] [--seed S] [--family F ...] [--jobs J]
       [--step-timeout S] [--cas-timeout S] [--out FILE]

Steps come from ``tests/grounding/adversarial.py`` (classic false power/root/log rewrites, sign
slips, periodic families cut to one member; alone, in a system, in a conjunction). The truth is
decided there, from the generator's own SymPy forms (exact substitution and mpmath), never by the
cascade. Distinct steps are judged once each (a repeated draw counts again with its first
verdict). ``unsound`` lists every step shown grounded/verified with a relation the truth
contradicts; each one belongs in a fixture.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "grounding"))

OUTCOMES = ("refuted", "narrowed", "undecided", "unsound", "refuted-bad-witness")


def judge_one(args: tuple[str, int, float, float]) -> dict[str, Any]:
    """Generate step number ``seed`` of ``family`` and judge it (runs in a bench process)."""
    from adversarial import classify, make_step, truth

    from veristep.core.settings import Settings
    from veristep.grounding import Context, judge_transition

    family, seed, step_s, cas_s = args
    rng = random.Random(f"{family}:{seed}")
    step = make_step(family, rng.choice)
    settings = Settings(step_timeout_s=step_s, cas_timeout_s=cas_s)
    began = time.perf_counter()
    verdict = judge_transition(step.prev, step.nxt, None, Context(settings=settings))
    ms = (time.perf_counter() - began) * 1000
    known = truth(step)
    return {
        "family": family, "where": step.where, "prev": step.prev, "next": step.nxt,
        "false": known.false, "outcome": classify(step, verdict, known),
        "relation": verdict.relation.value, "tier": verdict.tier.name_lower,
        "check": verdict.check, "reason": verdict.reason[:300], "ms": round(ms, 1),
    }  # fmt: skip


def main() -> None:
    from adversarial import FAMILIES

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=20000, help="steps in all, shared by families")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--family", nargs="*", default=sorted(FAMILIES))
    parser.add_argument("--jobs", type=int, default=1, help="bench processes (each its own pool)")
    parser.add_argument("--step-timeout", type=float, default=2.0)
    parser.add_argument("--cas-timeout", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=None, help="per-step rows (JSONL)")
    args = parser.parse_args()
    per = max(1, args.n // len(args.family))
    work = [(f, args.seed * 1_000_003 + i, args.step_timeout, args.cas_timeout)
            for f in args.family for i in range(per)]  # fmt: skip
    began = time.perf_counter()
    rows = _run(work, args.jobs)
    wall = time.perf_counter() - began
    _report(rows, wall)
    if args.out:
        with args.out.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")


def _run(work: list[tuple[str, int, float, float]], jobs: int) -> list[dict[str, Any]]:
    """Judge each distinct step once; repeated draws reuse the first verdict."""
    from adversarial import make_step

    keys, first = [], {}
    for family, seed, *_ in work:
        step = make_step(family, random.Random(f"{family}:{seed}").choice)
        key = (step.prev, step.nxt)
        keys.append(key)
        first.setdefault(key, (family, seed, *work[0][2:]))
    todo = list(first.values())
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            judged = list(pool.map(judge_one, todo, chunksize=4))
    else:
        judged = [judge_one(w) for w in todo]
    by_key = {(r["prev"], r["next"]): r for r in judged}
    return [{**by_key[k], "distinct": k in first and first.pop(k, None) is not None} for k in keys]


def _report(rows: list[dict[str, Any]], wall: float) -> None:
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        c = table[r["family"]]
        c["generated"] += 1
        c["distinct"] += r["distinct"]
        c["false"] += r["false"]
        c[r["outcome"]] += 1
    head = ["family", "generated", "distinct", "false", *OUTCOMES]
    print(" | ".join(head))
    total: Counter[str] = Counter()
    for family in sorted(table):
        total.update(table[family])
        print(" | ".join([family, *(str(table[family][h]) for h in head[1:])]))
    print(" | ".join(["all", *(str(total[h]) for h in head[1:])]))
    distinct = [r for r in rows if r["distinct"]]
    ms = sorted(r["ms"] for r in distinct)
    if ms:
        print(f"{len(distinct)} distinct steps judged in {wall:.0f} s wall; median "
              f"{ms[len(ms) // 2]:.0f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.0f} ms")  # fmt: skip
    for r in distinct:
        if r["outcome"] in ("unsound", "refuted-bad-witness"):
            print(f"{r['outcome'].upper()}: {r['prev']} → {r['next']}: {r['relation']}/"
                  f"{r['tier']} [{r['check']}] {r['reason']}")  # fmt: skip


if __name__ == "__main__":
    main()
