"""Benchmark of the next-step game's distractors: how often the cascade refutes each wrong move.

    python bench/workspace_distractors.py [--pairs bench/derive_syllabus.jsonl] [--limit N]
        [--every K] [--out bench/results/workspace_distractors.json]

Each pair is derived by the offline planner; every grounded or verified step becomes a next-step
exercise, and every mistake-family candidate for it is graded by the grounding cascade. Reported:
candidates refuted (the generator's raw rate, per family), candidates graded plausible/unchecked
(held back: no witness to show), and candidates graded verified or better (correct moves that a
family produced by accident: never offered). Offered distractors are refuted by construction.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default=str(HERE / "derive_syllabus.jsonl"))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--out", default=str(HERE / "results" / "workspace_distractors.json"))
    args = parser.parse_args()

    from veristep.core.settings import Settings
    from veristep.propose.completion import derive
    from veristep.workspace.games import exercises_from_derivation

    settings = Settings.from_env(os.environ)
    pairs = [json.loads(ln) for ln in Path(args.pairs).read_text().splitlines() if ln.strip()]
    pairs = pairs[:: args.every][: args.limit]
    by_family: dict[str, Counter[str]] = {}
    examples: list[dict[str, object]] = []
    steps = 0
    began = time.perf_counter()
    for n, pair in enumerate(pairs, 1):
        derivation = derive(pair["start"], pair["target"], settings=settings).to_json()
        for ex in exercises_from_derivation(derivation, settings, distractors=10):
            steps += 1
            for c in ex.choices:
                if not c.correct:
                    by_family.setdefault(c.family or "?", Counter())["refuted"] += 1
            for r in ex.rejected:
                by_family.setdefault(r["family"], Counter())[r["tier"]] += 1
                examples.append({"state": ex.state, **r})
        print(f"\r{n}/{len(pairs)} pairs, {steps} exercises", end="", file=sys.stderr)
    print(file=sys.stderr)
    total = Counter()
    for counts in by_family.values():
        total.update(counts)
    n_all = sum(total.values())
    strong = total["verified"] + total["grounded"]
    summary = {
        "pairs": len(pairs),
        "exercises": steps,
        "candidates": n_all,
        "refuted": total["refuted"],
        "refuted_rate": round(total["refuted"] / n_all, 4) if n_all else None,
        "graded_verified_or_better": strong,
        "held_back_undecided": n_all - total["refuted"] - strong,
        "offered_refuted_rate": 1.0 if total["refuted"] else None,
        "by_family": {f: dict(c) for f, c in sorted(by_family.items())},
        "seconds": round(time.perf_counter() - began, 1),
        "not_refuted_examples": examples[:30],
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "not_refuted_examples"}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
