"""Benchmark of the next-step game's distractors: how often the cascade refutes each wrong move.

    python bench/workspace_distractors.py [--pairs bench/derive_syllabus.jsonl] [--limit N]
        [--every K] [--out bench/results/workspace_distractors.json] [--name-slips]

Each pair is derived by the offline planner; every grounded or verified step becomes a next-step
exercise, and every mistake-family candidate for it is graded by the grounding cascade. Reported,
over all candidates (the generator's raw output, per family): refuted (✗, with a witness);
losing a solution (🔹 narrows, the lost value named: docs/design.md grades a lost root so, never ✗);
decided wrong, the sum of the two; graded verified or better (a correct move a family produced by
accident, never offered); undecided (never offered). Offered distractors are decided wrong by
construction, which the run checks.

With ``--name-slips`` the slip namer (workspace.slips) runs backwards on every offered distractor,
told only the previous line and the wrong one (the planner supplies the right moves), and is
scored on naming the family that produced it; it also runs on every correct next line and on
every candidate the cascade graded verified or better, where it must name nothing.
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
    parser.add_argument(
        "--name-slips",
        action="store_true",
        help="also score the backward slip namer on every distractor",
    )
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
    slips = SlipScore()
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
            if args.name_slips:
                slips.score(ex, settings)
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
    if args.name_slips:
        summary["slip_namer"] = slips.summary()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    hidden = ("not_offered_examples",)
    shown = {k: v for k, v in summary.items() if k not in hidden}
    if "slip_namer" in shown:
        shown["slip_namer"] = {k: v for k, v in summary["slip_namer"].items()
                               if k not in ("confusions", "blamed_examples")}  # fmt: skip
    print(json.dumps(shown, indent=2))
    return 0


class SlipScore:
    """The slip namer against the families that made the distractors, and on correct lines.

    Two modes: told the exercise's expected line (as the next-step game knows it), and told
    nothing but the two lines (as the step checker: the planner supplies the right moves)."""

    MODES = ("given_expected", "planner_only")

    def __init__(self) -> None:
        self.named = {m: Counter() for m in self.MODES}  # (family, right|other|nothing)
        self.confusions: dict[str, list[dict[str, object]]] = {m: [] for m in self.MODES}
        self.correct_lines = 0
        self.blamed_correct: list[dict[str, object]] = []
        self.seconds = 0.0

    def score(self, ex, settings) -> None:
        from veristep.workspace.slips import name_slip

        began = time.perf_counter()
        for c in ex.choices:
            if c.correct:
                self._correct(ex.state, c.latex, settings)
                continue
            for mode, told in zip(self.MODES, ([ex.expected], None), strict=True):
                slip = name_slip(ex.state, c.latex, settings, correct=told)
                got = slip.family if slip else None
                outcome = "right" if got == c.family else "nothing" if got is None else "other"
                self.named[mode][(c.family, outcome)] += 1
                if outcome != "right":
                    self.confusions[mode].append({"state": ex.state, "latex": c.latex,
                                                  "family": c.family, "named": got})  # fmt: skip
        for r in ex.rejected:
            if r["tier"] in ("verified", "grounded"):  # a correct move a family made by accident
                self._correct(ex.state, r["latex"], settings)
        self.seconds += time.perf_counter() - began

    def _correct(self, state: str, latex: str, settings) -> None:
        from veristep.workspace.slips import name_slip

        self.correct_lines += 1
        for told in (None, [latex]):
            slip = name_slip(state, latex, settings, correct=told)
            if slip is not None:
                self.blamed_correct.append({"state": state, "latex": latex, "named": slip.family})

    def summary(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for mode in self.MODES:
            named = self.named[mode]
            total = sum(named.values())
            right = sum(n for (_, o), n in named.items() if o == "right")
            families: dict[str, dict[str, int]] = {}
            for (family, outcome), n in sorted(named.items()):
                families.setdefault(family, {})[outcome] = n
            out[mode] = {
                "distractors": total,
                "named_right": right,
                "named_right_rate": round(right / total, 4) if total else None,
                "by_family": families,
            }
        out.update({
            "correct_lines": self.correct_lines,
            "correct_lines_blamed": len(self.blamed_correct),
            "blamed_examples": self.blamed_correct[:20],
            "confusions": {m: c[:60] for m, c in self.confusions.items()},
            "seconds": round(self.seconds, 1),
        })  # fmt: skip
        return out


if __name__ == "__main__":
    sys.exit(main())
