"""The construction side on ALPS's laws: Knuth–Bendix completion, every result re-checked.

For each law: complete it (KBO, bounded work) and count convergent systems the independent
checker certifies — each is a nontrivial model; for a NO_FINITE_MODEL law, an infinite one,
which resolves it (AUSTIN). Default: the fixed 300-law residual sample of bench/alps_sweep.py.

    python bench/alps_completion.py --status NO_FINITE_MODEL --sample 300
    python bench/alps_completion.py --status AUSTIN_PROVEN
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter

from veristep.alps.completion import complete
from veristep.alps.terms import parse_law
from veristep.core.datasets import require_shared_data

SEED = 20260601  # the same draw as bench/alps_sweep.py --residual


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--status", default="NO_FINITE_MODEL")
    ap.add_argument("--sample", type=int, help="a fixed random sample of this many laws")
    ap.add_argument("--work", type=int, default=3_000_000, help="completion work units per law")
    args = ap.parse_args()
    path = require_shared_data("alps_dev") / "final_status.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    laws = [r["law"] for r in rows if r["status"] == args.status]
    if args.sample:
        laws = random.Random(SEED).sample(laws, min(args.sample, len(laws)))
    counts: Counter[str] = Counter()
    start = time.perf_counter()
    for law in laws:
        result = complete(parse_law(law), work_limit=args.work)
        key = "certified model" if result.model else result.status
        counts[key] += 1
        if result.model:
            print(json.dumps({"law": law, "rules": len(result.rules)}, ensure_ascii=False))
    secs = time.perf_counter() - start
    summary = {"status": args.status, "laws": len(laws), **counts, "secs": round(secs, 1)}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
