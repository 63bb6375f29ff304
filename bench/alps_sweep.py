"""The 30 s-rung portfolio sweep over ALPS's 25 hard-tier laws and 20 certified-easy laws, or
(``--residual N``) over a fixed random sample of N of the 4,141 residual laws (NO_FINITE_MODEL in
``final_status.jsonl``; sample drawn with ``random.Random(SEED)``, ``--take K`` runs its first K).

Writes the laws to OUT/laws.jsonl and runs ``veristep alps sweep`` on them (resumable: rerun
the same command to continue). Outputs: OUT/table.txt, OUT/cumulative.svg, OUT/cells.jsonl.

    python bench/alps_sweep.py --out bench-out/alps_sweep --budgets 30 --workers 2
    CONFIGS=e/triv/auto,e/sat/satauto,e3/triv/auto,e3/sat/satauto,prover9/triv,veristep/ordered
    python bench/alps_sweep.py --out bench-out/residual --residual 300 --budgets 30 \
        --configs $CONFIGS

The paper resolves 2.75 % of the residual with its whole portfolio at the 30 s rung.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from veristep.cli import main as veristep_main
from veristep.core.datasets import require_shared_data

SEED = 20260601


def residual_sample(path: Path, n: int) -> list[str]:
    """A fixed random sample of the NO_FINITE_MODEL laws, in file order of the draw."""
    import random

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    residual = [r["law"] for r in rows if r["status"] == "NO_FINITE_MODEL"]
    return random.Random(SEED).sample(residual, min(n, len(residual)))


# The paper's sweep over its whole residual: laws reaching each rung (resolved laws leave it).
PAPER_RUNGS = {30: 4141, 60: 4050, 120: 4042, 300: 4037, 600: 4033}
PAPER_UNRESOLVED = 4027


def paper_table(data: Path, budget: int = 30) -> str:
    """The paper's figures to set beside ours: its 120-law published sample, every
    configuration at ``budget``, and the whole residual's resolved share."""
    from collections import Counter

    rows = [json.loads(x) for x in (data / "baseline_v1_sample_sweep.jsonl").open(encoding="utf-8")]
    rows = [r for r in rows if r["budget"] == budget]
    laws = {r["law"] for r in rows}
    ran = Counter(r["config"] for r in rows)
    won = Counter(r["config"] for r in rows if r["verdict"])
    resolved = {r["law"] for r in rows if r["verdict"]}
    lines = [f"the paper's published sample: {len(laws)} residual laws at {budget} s"]
    lines += [f"  {c:<24}{won[c]:>4} of {ran[c]}" for c in sorted(ran)]
    lines.append(f"  {'portfolio':<24}{len(resolved):>4} of {len(laws)}")
    total = PAPER_RUNGS[30]
    at_30 = total - PAPER_RUNGS[60]
    lines.append(
        f"the paper's whole residual: {at_30}/{total} ({100 * at_30 / total:.2f} %) at 30 s, "
        f"{total - PAPER_UNRESOLVED}/{total} ({100 * (total - PAPER_UNRESOLVED) / total:.2f} %) "
        "by 600 s"
    )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--budgets", default="30")
    ap.add_argument("--configs", default="e/triv/auto,e/sat/satauto")
    ap.add_argument("--hard", type=int, default=25)
    ap.add_argument("--easy", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--residual", type=int, default=0, help="sample N residual laws instead")
    ap.add_argument("--take", type=int, help="run only the first K laws of the sample")
    args = ap.parse_args()
    data = require_shared_data("alps_dev")
    if args.residual:
        chosen = residual_sample(data / "final_status.jsonl", args.residual)[: args.take]
    else:
        hard = (data / "hard25_sample.jsonl").read_text(encoding="utf-8").splitlines()[: args.hard]
        easy = (data / "cert63_laws.jsonl").read_text(encoding="utf-8").splitlines()[: args.easy]
        chosen = [json.loads(x)["law"] for x in hard + easy]
    args.out.mkdir(parents=True, exist_ok=True)
    laws = args.out / "laws.jsonl"
    laws.write_text(
        "".join(json.dumps({"law": law}, ensure_ascii=False) + "\n" for law in chosen),
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
    code = veristep_main(argv)
    table = paper_table(data, int(args.budgets.split(",")[0]))
    (args.out / "paper_table.txt").write_text(table + "\n", encoding="utf-8")
    print(table, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
