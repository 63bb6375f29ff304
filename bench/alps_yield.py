"""The paper's yield (AUSTIN_PROVEN per 1,000 screened, per order) reproduced from ALPS's
``final_status.jsonl``, with new equivalence classes per 1,000 from ``classes_full.json``.

    python bench/alps_yield.py                      # the paper's rows, from the corpus mirror
    python bench/alps_yield.py --status OUT.jsonl   # any screen export (e.g. a fresh order-6 run
                                                    # made with `veristep alps screen ... --out`)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from veristep.alps.paper_yield import format_table, read_merges, read_status_file, yield_table
from veristep.core.datasets import require_shared_data


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--status", type=Path, help="status JSONL (default: ALPS's final_status)")
    ap.add_argument("--classes", type=Path, help="equivalences JSON (default: ALPS's)")
    args = ap.parse_args()
    if args.status is None:
        data = require_shared_data("alps_dev")
        args.status = data / "final_status.jsonl"
        args.classes = args.classes or data / "classes_full.json"
    merges = read_merges(args.classes) if args.classes else None
    table = yield_table(read_status_file(args.status), merges)
    print(format_table(table))
    for row in table:
        print(json.dumps(row.to_json()))


if __name__ == "__main__":
    main()
