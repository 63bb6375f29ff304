"""The 30 s-rung portfolio sweep over ALPS's 25 hard-tier laws and 20 certified-easy laws.

Writes the 45 laws to OUT/laws.jsonl and runs ``veristep alps sweep`` on them (resumable: rerun
the same command to continue). Outputs: OUT/table.txt, OUT/cumulative.svg, OUT/cells.jsonl.

    python bench/alps_sweep.py --out bench-out/alps_sweep --budgets 30 --workers 2
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from veristep.cli import main as veristep_main
from veristep.core.datasets import require_shared_data


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--budgets", default="30")
    ap.add_argument("--configs", default="e/triv/auto,e/sat/satauto")
    ap.add_argument("--hard", type=int, default=25)
    ap.add_argument("--easy", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    data = require_shared_data("alps_dev")
    hard = (data / "hard25_sample.jsonl").read_text(encoding="utf-8").splitlines()[: args.hard]
    easy = (data / "cert63_laws.jsonl").read_text(encoding="utf-8").splitlines()[: args.easy]
    args.out.mkdir(parents=True, exist_ok=True)
    laws = args.out / "laws.jsonl"
    laws.write_text(
        "".join(
            json.dumps({"law": json.loads(x)["law"]}, ensure_ascii=False) + "\n"
            for x in hard + easy
        ),
        encoding="utf-8",
    )
    argv = [
        "alps",
        "sweep",
        str(laws),
        "--out",
        str(args.out),
        "--budgets",
        args.budgets,
        "--configs",
        args.configs,
        "--workers",
        str(args.workers),
        "--no-progress",
    ]
    return veristep_main(argv)


if __name__ == "__main__":
    sys.exit(main())
