"""miniF2F-rocq, offline (no LLM): the portfolio, Best-of-N and the two-phase search, one run.

Resumable: rerun the same command to continue where a killed run stopped. Prints the summary
table and writes per-theorem JSONL. Usage:

    python bench/formal_minif2f.py --split test --theorem-budget 10 --tactic-timeout 3 \
        --out bench/results/formal_minif2f_test.jsonl
"""

from __future__ import annotations

import argparse
import sys

from veristep.cli import main

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test")
    parser.add_argument("--theorem-budget", default="10")
    parser.add_argument("--tactic-timeout", default="3")
    parser.add_argument("--limit")
    parser.add_argument("--out", default="bench/results/formal_minif2f_test.jsonl")
    args = parser.parse_args()
    argv = [
        "prove",
        "--bench",
        "minif2f-rocq",
        "--split",
        args.split,
        "--resume",
        "--theorem-budget",
        args.theorem_budget,
        "--tactic-timeout",
        args.tactic_timeout,
        "--out",
        args.out,
    ]
    if args.limit:
        argv += ["--limit", args.limit]
    sys.exit(main(argv))
