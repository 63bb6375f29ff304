"""The construction side on ALPS's laws: Knuth–Bendix completion, every result re-checked.

For each law: complete it (KBO, bounded work) and count convergent systems the independent
checker certifies — each is a nontrivial model; for a NO_FINITE_MODEL law, an infinite one,
which resolves it (AUSTIN). Default: the fixed 300-law residual sample of bench/alps_sweep.py.

    python bench/alps_completion.py --status NO_FINITE_MODEL --sample 300
    python bench/alps_completion.py --status AUSTIN_PROVEN
    python bench/alps_completion.py --ordered --seconds 30 --sample 300   # ordered completion
    python bench/alps_completion.py --ordered --status TRIVIAL --sample 300  # soundness: 0 models

``--ordered`` runs ordered (unfailing) completion, each saturated result re-checked by the
ground-joinability checker; ``--out`` keeps one JSON line per law (a rerun skips laws done).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path

from veristep.alps.completion import complete
from veristep.alps.ordered_completion import complete_ordered
from veristep.alps.terms import parse_law
from veristep.core.datasets import require_shared_data

SEED = 20260601  # the same draw as bench/alps_sweep.py --residual


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--status", default="NO_FINITE_MODEL")
    ap.add_argument("--sample", type=int, help="a fixed random sample of this many laws")
    ap.add_argument("--work", type=int, default=3_000_000, help="completion work units per law")
    ap.add_argument("--ordered", action="store_true", help="ordered (unfailing) completion")
    ap.add_argument("--seconds", type=float, default=30.0, help="ordered completion: s per law")
    ap.add_argument("--out", type=Path, help="JSON lines, one per law (resumable)")
    args = ap.parse_args()
    path = require_shared_data("alps_dev") / "final_status.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    laws = [r["law"] for r in rows if r["status"] == args.status]
    if args.sample:
        laws = random.Random(SEED).sample(laws, min(args.sample, len(laws)))
    done = _done(args.out)
    counts: Counter[str] = Counter(r["outcome"] for r in done.values())
    start = time.perf_counter()
    for law in laws:
        if law in done:
            continue
        t0 = time.perf_counter()
        if args.ordered:
            o = complete_ordered(parse_law(law), seconds=args.seconds)
            model, status, size = o.model, o.status, len(o.equations)
        else:
            r = complete(parse_law(law), work_limit=args.work)
            model, status, size = r.model, r.status, len(r.rules)
        key = "certified model" if model else status
        counts[key] += 1
        row = {"law": law, "outcome": key, "equations": size}
        row["secs"] = round(time.perf_counter() - t0, 2)
        if model:
            print(json.dumps(row, ensure_ascii=False), flush=True)
        if args.out:
            with args.out.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    secs = time.perf_counter() - start
    method = "ordered" if args.ordered else "kbo"
    summary = {"status": args.status, "method": method, "laws": len(laws), **counts}
    summary["secs"] = round(secs, 1)
    print(json.dumps(summary))


def _done(path: Path | None) -> dict[str, dict]:
    if path is None or not path.exists():
        return {}
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return {r["law"]: r for r in rows}


if __name__ == "__main__":
    main()
