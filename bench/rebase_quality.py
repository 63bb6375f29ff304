"""Rebase matcher quality on the hand-labelled fixture: % of correspondences right, crossings.

Run: .venv/bin/python bench/rebase_quality.py [--failures]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from veristep.animate.quality import evaluate, load_cases

FIXTURE = Path(__file__).resolve().parent.parent / "tests/animate/fixtures/rebase_pairs.jsonl"


def main(argv: list[str]) -> int:
    cases = load_cases(FIXTURE)
    t0 = time.perf_counter()
    report = evaluate(cases)
    ms = (time.perf_counter() - t0) * 1000
    print(f"{len(cases)} state pairs: {report.line()} ({ms:.0f} ms)")
    if "--failures" in argv:
        for line in report.failures:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
