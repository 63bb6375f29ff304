"""Benchmark of the symbolic planner on bench/derive_pairs.jsonl.

    python bench/derive.py [--pairs bench/derive_pairs.jsonl] [--out results.jsonl]
                           [--category C] [--limit N] [--proposer symbolic]

Success for a pair: the endpoint is reached and every step is grounded or verified, with a
non-empty operation and justification on every step. The run is resumable: ids already in --out
are skipped, so an interrupted run continues where it stopped. Prints the reach rate, failures by
category, the median number of steps on equation solving and the median time per derivation.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
EQUATION_CATEGORIES = {
    "linear", "quadratic", "rational", "radical", "absolute", "exponential", "logarithmic",
}  # fmt: skip


def run_pair(pair: dict[str, Any], proposer: str, settings: Any) -> dict[str, Any]:
    from veristep.core.errors import InputError
    from veristep.core.tiers import Tier
    from veristep.propose import derive

    began = time.monotonic()
    try:
        d = derive(pair["start"], pair["target"], settings=settings, proposer=proposer)
    except InputError as err:
        ms = (time.monotonic() - began) * 1000
        return {**pair, "ok": False, "failure": "input error", "detail": err.one_line(), "ms": ms}
    ms = (time.monotonic() - began) * 1000
    weak = [s.index for s in d.steps if s.tier < Tier.VERIFIED]
    wordless = [s.index for s in d.steps if not (s.operation and s.justification)]
    failure = None
    if not d.steps:
        failure = "no steps"
    elif not d.endpoint.reached:
        failure = "endpoint not reached"
    elif weak:
        failure = "weak step: " + ", ".join(d.steps[i - 1].tier.name_lower for i in weak)
    elif wordless:
        failure = "missing words"
    return {
        **pair,
        "ok": failure is None,
        "failure": failure,
        "steps": len(d.steps),
        "tiers": "".join(s.tier.icon for s in d.steps),
        "operations": [s.operation for s in d.steps],
        "tier": d.confidence.tier.name_lower,
        "attempts": d.proposer.get("attempts"),
        "note": d.proposer.get("note"),
        "ms": ms,
    }


def summarise(rows: list[dict[str, Any]]) -> str:
    ok = [r for r in rows if r["ok"]]
    lines = [f"reached with every step grounded or verified: {len(ok)}/{len(rows)} "
             f"({100 * len(ok) / max(1, len(rows)):.1f} %)"]  # fmt: skip
    by_cat: dict[str, list[bool]] = {}
    for r in rows:
        by_cat.setdefault(r["category"], []).append(r["ok"])
    for cat, oks in sorted(by_cat.items()):
        lines.append(f"  {cat:<12} {sum(oks)}/{len(oks)}")
    failures = Counter(r["failure"] for r in rows if not r["ok"])
    if failures:
        lines.append("failures:")
        lines += [f"  {n} × {why}" for why, n in failures.most_common()]
        lines += [f"    {r['id']}: {r['start']}  →  {r['target']}  ({r['failure']})"
                  for r in rows if not r["ok"]]  # fmt: skip
    shortcut = [r for r in ok if {"solve for x", "write in the requested form"}
                & set(r.get("operations") or [])]  # fmt: skip
    lines.append(f"successes using a one-step CAS solve or a final rewrite into the target's "
                 f"form: {len(shortcut)}")  # fmt: skip
    eq_steps = [r["steps"] for r in ok if r["category"] in EQUATION_CATEGORIES]
    if eq_steps:
        lines.append(f"median steps on equation solving: {statistics.median(eq_steps)}")
    lines.append(f"median time per derivation: {statistics.median(r['ms'] for r in rows):.0f} ms")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=HERE / "derive_pairs.jsonl")
    parser.add_argument("--out", type=Path, default=None, help="results JSONL (resumable)")
    parser.add_argument("--category")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--proposer", default="symbolic")
    args = parser.parse_args(argv)

    from rich.progress import track

    from veristep.core.settings import Settings

    pairs = [json.loads(line) for line in args.pairs.read_text().splitlines() if line.strip()]
    if args.category:
        pairs = [p for p in pairs if p["category"] == args.category]
    pairs = pairs[: args.limit] if args.limit else pairs
    done: dict[str, dict[str, Any]] = {}
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[row["id"]] = row
    settings = Settings()
    rows = []
    out = args.out.open("a") if args.out else None
    for pair in track(pairs, description="derive", console=None, transient=True):
        if pair["id"] in done:
            rows.append(done[pair["id"]])
            continue
        row = run_pair(pair, args.proposer, settings)
        rows.append(row)
        if out:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            out.flush()
    if out:
        out.close()
    print(summarise(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
