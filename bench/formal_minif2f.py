"""miniF2F-rocq, offline (no LLM): the portfolio, Best-of-N and the two-phase search, one run.

Resumable: rerun the same command to continue where a killed run stopped. Prints the summary
table and writes per-theorem JSONL. With ``--recheck`` every solved proof is checked again, as a
whole file, by the one strict acceptance path (``veristep prove --check --expect`` does the same).
Usage:

    python bench/formal_minif2f.py --split test --theorem-budget 10 --tactic-timeout 3 \
        --out bench/results/formal_minif2f_test.jsonl [--recheck]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from veristep.cli import main


def recheck(out: Path, split: str) -> tuple[int, int]:
    """(re-accepted, solved): each solved row's proof as a file, against the benchmark."""
    from veristep.core.settings import Settings
    from veristep.formal.backends.coq import TACTIC_PRELUDE
    from veristep.formal.bench import load_minif2f
    from veristep.formal.strict import build_file, check_file

    data_dir = Settings.from_env(os.environ).data_dir  # the allowlist cache `prove` uses too
    theorems = {t.name: t for t in load_minif2f(split)}
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line]
    solved = [r for r in rows if r.get("two_phase_solved") and r["name"] in theorems]
    accepted = 0
    for row in solved:
        theorem = theorems[row["name"]]
        text = build_file(theorem, row["proof"], TACTIC_PRELUDE)
        verdict = check_file(text, theorem, data_dir=data_dir)
        accepted += verdict.accepted
        if not verdict.accepted:
            print(f"NOT re-accepted: {row['name']}: {verdict.reason}", file=sys.stderr)
    return accepted, len(solved)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test")
    parser.add_argument("--theorem-budget", default="10")
    parser.add_argument("--tactic-timeout", default="3")
    parser.add_argument("--limit")
    parser.add_argument("--out", default="bench/results/formal_minif2f_test.jsonl")
    parser.add_argument("--recheck", action="store_true", help="re-accept every solved proof")
    parser.add_argument("--recheck-only", action="store_true", help="no search: only recheck")
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
    code = 0 if args.recheck_only else main(argv)
    if args.recheck or args.recheck_only:
        ok, total = recheck(Path(args.out), args.split)
        print(f"re-accepted by the strict path: {ok}/{total}")
    sys.exit(code)
