"""Review benchmark figures.

    python bench/review.py prmbench-grounding      # offline: machine checks alone on PRMBench
    python bench/review.py opc-grounding           # offline: the same over the OPC proofs
    python bench/review.py opc --limit 20 --model M   # = veristep review --bench opc ...

The first prints the share of labelled erroneous steps caught by the machine checks alone and the
number of correct steps they flag (which must be zero). The second forwards to the CLI harness.
"""

from __future__ import annotations

import json
import sys
import time

from veristep.core.datasets import require_shared_data
from veristep.review.metrics import grounding_figure


def prmbench_grounding() -> int:
    path = require_shared_data("prmbench_slice", "prmbench_subset_slice.jsonl")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    started = time.perf_counter()
    figure = grounding_figure(rows)
    seconds = time.perf_counter() - started
    print(f"PRMBench slice: {len(rows)} rows, machine checks only ({seconds:.2f} s)")
    print(f"  labelled erroneous steps              : {figure.error_steps}")
    print(f"  ... containing a closed computation   : {figure.computational_error_steps}")
    print(
        f"  ... FLAWED by grounding alone          : {figure.caught} "
        f"({100 * figure.caught_share:.1f} % of all erroneous steps)"
    )
    print(f"  correct steps (original processes)    : {figure.correct_steps}")
    print(f"  ... FLAWED by grounding (must be 0)    : {figure.correct_flagged}")
    print(f"  unlabelled modified steps FLAWED       : {figure.unlabelled_flagged}")
    print("  caught: " + ", ".join(figure.caught_keys))
    return 0 if figure.correct_flagged == 0 else 1


def opc_grounding() -> int:
    """Machine checks alone over the OPC proofs: how many steps they flag, per human label."""
    from veristep.review.machine import machine_check
    from veristep.review.segment import segment_proof

    path = require_shared_data("opc_judge_test", "opc_judge_test.jsonl")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    started = time.perf_counter()
    stats = {
        label: {"proofs": 0, "steps": 0, "grounded": 0, "flagged": []}
        for label in ("correct", "incorrect")
    }
    for row in rows:
        entry = stats[row["label"]]
        entry["proofs"] += 1
        for seg in segment_proof(row["proof"], strict=False):
            outcome = machine_check(seg.text).outcome
            entry["steps"] += 1
            entry["grounded"] += outcome == "grounded"
            if outcome == "refuted":
                entry["flagged"].append(f"{row['id']}:{seg.id}")
    print(f"OPC: {len(rows)} proofs, machine checks only ({time.perf_counter() - started:.1f} s)")
    for label, entry in stats.items():
        flagged = entry["flagged"]
        proofs = len({key.split(":")[0] for key in flagged})
        print(
            f"  {label:<9}: {entry['proofs']} proofs, {entry['steps']} steps, "
            f"{entry['grounded']} grounded, {len(flagged)} FLAWED in {proofs} proof(s)"
            + (f": {', '.join(flagged)}" if flagged else "")
        )
    return 0 if not stats["correct"]["flagged"] else 1


def main(argv: list[str]) -> int:
    if argv[:1] == ["prmbench-grounding"]:
        return prmbench_grounding()
    if argv[:1] == ["opc-grounding"]:
        return opc_grounding()
    if argv[:1] in (["opc"], ["prmbench"]):
        from veristep.cli import main as cli_main

        return cli_main(["review", "--bench", argv[0], *argv[1:]])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
