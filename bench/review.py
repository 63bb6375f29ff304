"""Review benchmark figures.

    python bench/review.py prmbench-grounding      # offline: machine checks alone on PRMBench
    python bench/review.py opc-grounding [--limit N]  # offline: the same over the OPC proofs
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


def opc_grounding(limit: int | None = None) -> int:
    """Machine checks alone over the OPC proofs: claims read, steps flagged, per human label.

    Flags are counted by channel: a mathematical witness (a false computation, a counterexample
    to a universal claim or to a claim about the problem's letters) or the proof's own admission
    of a gap; a proof counts once per channel and once in the total.
    """
    from veristep.review.machine import check_steps
    from veristep.review.segment import segment_proof

    path = require_shared_data("opc_judge_test", "opc_judge_test.jsonl")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rows = rows[:limit] if limit else rows
    started = time.perf_counter()
    stats = {
        label: {"proofs": 0, "steps": 0, "read": 0, "universal": 0, "grounded": 0, "flagged": []}
        for label in ("correct", "incorrect")
    }
    channels: dict[str, dict[str, set[str]]] = {
        label: {"witness": set(), "admission": set()} for label in stats
    }
    witnesses = []
    for row in rows:
        entry = stats[row["label"]]
        entry["proofs"] += 1
        segments = segment_proof(row["proof"], strict=False)
        results = check_steps([s.text for s in segments], row["problem"])
        for seg, result in zip(segments, results, strict=True):
            entry["steps"] += 1
            entry["read"] += bool(result.checks)
            entry["universal"] += any(c.check == "small_cases" for c in result.checks)
            entry["grounded"] += result.outcome == "grounded"
            if result.outcome == "refuted":
                entry["flagged"].append(f"{row['id']}:{seg.id}")
                witnesses.append((row["label"], f"{row['id']}:{seg.id}", seg.text, result))
                admitted = any(c.check == "admitted_gap" for c in result.checks)
                channels[row["label"]]["admission" if admitted else "witness"].add(row["id"])
    print(f"OPC: {len(rows)} proofs, machine checks only ({time.perf_counter() - started:.1f} s)")
    print(
        "  label      proofs  steps  with a claim read  universal  grounded  FLAWED  proofs flagged"
    )
    for label, e in stats.items():
        proofs = len({key.split(":")[0] for key in e["flagged"]})
        print(
            f"  {label:<9} {e['proofs']:>6} {e['steps']:>6} {e['read']:>8} "
            f"({100 * e['read'] / max(e['steps'], 1):4.1f} %) {e['universal']:>10} "
            f"{e['grounded']:>9} {len(e['flagged']):>7}  {_share(proofs, e['proofs'])}"
        )
    print("  proofs flagged by channel:  mathematical witness  admitted gap  either")
    for label, found in channels.items():
        total = stats[label]["proofs"]
        either = found["witness"] | found["admission"]
        print(
            f"  {label:<9} {_share(len(found['witness']), total):>33}  "
            f"{_share(len(found['admission']), total):>12}  {_share(len(either), total)}"
        )
    for label, key, text, result in witnesses:
        print(f"\n[{label}] {key}: {' '.join(text.split())[:300]}")
        print(f"    witness: {result.witness}")
    return 0 if not stats["correct"]["flagged"] else 1


def _share(count: int, total: int) -> str:
    return f"{count}/{total} ({100 * count / max(total, 1):.1f} %)"


def main(argv: list[str]) -> int:
    if argv[:1] == ["prmbench-grounding"]:
        return prmbench_grounding()
    if argv[:1] == ["opc-grounding"]:
        limit = int(argv[2]) if argv[1:2] == ["--limit"] and len(argv) > 2 else None
        return opc_grounding(limit)
    if argv[:1] in (["opc"], ["prmbench"]):
        from veristep.cli import main as cli_main

        return cli_main(["review", "--bench", argv[0], *argv[1:]])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
