"""Benchmark of the next-step game's distractors: how often the cascade refutes each wrong move.

    python bench/workspace_distractors.py [--pairs bench/derive_syllabus.jsonl] [--limit N]
        [--every K] [--out bench/results/workspace_distractors.json]

Each pair is derived by the offline planner; every grounded or verified step becomes a next-step
exercise, and every mistake-family candidate for it is graded by the grounding cascade. Reported,
over all candidates (the generator's raw output, per family): refuted (✗, with a witness);
losing a solution (🔹 narrows, the lost value named: DESIGN.md grades a lost root so, never ✗);
decided wrong, the sum of the two; graded verified or better (a correct move a family produced by
accident, never offered); undecided (never offered). Offered distractors are decided wrong by
construction, which the run checks.
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
    offered = Counter()
    steps = 0
    began = time.perf_counter()
    for n, pair in enumerate(pairs, 1):
        derivation = derive(pair["start"], pair["target"], settings=settings).to_json()
        for ex in exercises_from_derivation(derivation, settings, distractors=10):
            steps += 1
            for c in ex.choices:
                if not c.correct:
                    grade = "refuted" if c.tier == "refuted" else "loses_a_solution"
                    by_family.setdefault(c.family or "?", Counter())[grade] += 1
                    offered[c.tier] += 1
                    if grade != "refuted":
                        examples.append({"state": ex.state, "family": c.family,
                                         "latex": c.latex, "tier": c.tier,
                                         "relation": "narrows"})  # fmt: skip
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
    wrong = total["refuted"] + total["loses_a_solution"]

    def rate(k: int, n: int) -> float | None:
        return round(k / n, 4) if n else None

    without_lost = Counter()
    for family, counts in by_family.items():
        if family != "lost_root":
            without_lost.update(counts)
    summary = {
        "pairs": len(pairs),
        "exercises": steps,
        "candidates": n_all,
        "refuted": total["refuted"],
        "refuted_rate": rate(total["refuted"], n_all),
        "refuted_rate_without_lost_root": rate(without_lost["refuted"], sum(without_lost.values())),
        "loses_a_solution": total["loses_a_solution"],
        "decided_wrong_rate": rate(wrong, n_all),
        "graded_verified_or_better": strong,
        "held_back_undecided": n_all - wrong - strong,
        "offered": dict(offered),
        "by_family": {f: dict(c) for f, c in sorted(by_family.items())},
        "seconds": round(time.perf_counter() - began, 1),
        "not_offered_examples": examples,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "not_offered_examples"}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
