"""Grounding speed and quality on the STACK corpus: ms per transition, timeouts, agreement.

Usage: python bench/grounding.py [--step-timeout S] [--cas-timeout S] [--limit N] [--jobs N]
                                 [--out FILE]

Every transition is judged with a fresh context (no verdict memo shared between transitions) in
the shared warm CAS pool; the pool's start-up is outside the measurement. What a process keeps on
its own is kept, as in any long-running check: SymPy's cache, the last 1,024 states read (lines
up to 400 characters, ``grounding.states``) and each worker's last 1,024 solution sets
(``grounding.solving``). With ``--jobs N`` the file is judged by N processes at once, each with
its own warm pool (what ``veristep check --jsonl FILE --workers N`` does for a user's file); the
default, one, is the sequential figure that earlier measurements used.
"""

from __future__ import annotations

import argparse
import json
import time
from contextlib import ExitStack
from functools import partial
from pathlib import Path

from rich.progress import Progress

from veristep.core.settings import Settings
from veristep.grounding.corpus import judge_pairs, judging_processes, load_stack_pairs, score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--step-timeout", type=float, default=2.0, help="seconds per transition")
    parser.add_argument("--cas-timeout", type=float, default=1.0, help="seconds per CAS call")
    parser.add_argument("--limit", type=int, default=None, help="only the first N transitions")
    parser.add_argument("--jobs", type=int, default=1, help="processes judging at once")
    parser.add_argument("--out", type=Path, default=None, help="write per-transition rows (JSONL)")
    args = parser.parse_args()
    settings = Settings(step_timeout_s=args.step_timeout, cas_timeout_s=args.cas_timeout)
    pairs = load_stack_pairs()[: args.limit]
    with ExitStack() as stack:
        warm = time.perf_counter()  # the pools start outside the measurement
        if args.jobs > 1:
            judge = stack.enter_context(judging_processes(settings, args.jobs, pairs[:1]))
        else:
            list(judge_pairs(pairs[:1], settings))
            judge = partial(judge_pairs, settings=settings)
        warm_s = time.perf_counter() - warm
        outcomes = []
        wall = time.perf_counter()
        with Progress(transient=True) as bar:
            task = bar.add_task("grounding", total=len(pairs))
            for outcome in judge(pairs):
                outcomes.append(outcome)
                bar.advance(task)
        wall_s = time.perf_counter() - wall
    result = score(outcomes)
    # A CAS call never starts past the step deadline and is killed at its own; 250 ms covers the
    # kill and the worker's replacement.
    deadline_ms = args.step_timeout * 1000 + 250
    late = sum(1 for o in outcomes if o.ms > deadline_ms)
    print(f"STACK transitions: {result['transitions']} (pool start-up {warm_s:.2f} s, not counted)")
    print(f"ms per transition: median {result['median_ms']:.1f}, p95 {result['p95_ms']:.1f}, "
          f"max {max(o.ms for o in outcomes):.1f}")  # fmt: skip
    processes = f"{args.jobs} process" + ("es" if args.jobs > 1 else "")
    print(f"total: {wall_s:.1f} s wall ({processes}); timeouts: {result['timeouts']}; "
          f"past the step deadline (+250 ms): {late}")  # fmt: skip
    print(f"decided {result['decided']}/{result['transitions']} ({result['decided_rate']:.1%}), "
          f"agreement {result['agreement']:.1%}, unsound {len(result['unsound'])}")  # fmt: skip
    print(f"chain verdicts: valid decided {result['valid_decided_rate']:.1%}; invalid refuted "
          f"{result['invalid_refuted_rate']:.1%}; invalid shown grounded/verified "
          f"{len(result['invalid_shown_strong'])} {result['invalid_shown_strong']}")  # fmt: skip
    if args.out:
        with args.out.open("w", encoding="utf-8") as fh:
            for o in outcomes:
                row = {"id": o.pair.id, "expect": o.pair.expect, "relation": o.relation,
                       "tier": o.tier, "chain_tier": o.chain_tier, "ms": round(o.ms, 2),
                       "reason": o.reason}  # fmt: skip
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
