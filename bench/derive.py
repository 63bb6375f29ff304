"""Benchmark of the symbolic planner on a file of derivation pairs.

    python bench/derive.py [--pairs bench/derive_syllabus.jsonl] [--out results.jsonl]
                           [--category C] [--limit N] [--every K] [--proposer symbolic] [--cli]
                           [--no-target] [--split tuned|held_out|all] [--kind K] [--batch B]

A pair counts as a derivation when all four hold: the endpoint is the target as written
(``endpoint.reached``), there are at least two steps, every step is grounded or verified (with an
operation and a justification), and no step is the planner's labelled last resort (a one-step
solve by the computer algebra system). The per-topic table shows each criterion separately.

A record may carry ``"split": "held_out"``: those tasks were written from exercise lists and are
not looked at or run while the planner is tuned (``--split tuned``); the report gives the tuned
and held-out parts per topic, and per ``kind`` where records name one. ``"batch"`` names the day a
group of held-out tasks was written (``--batch 2026-12-05``): a batch's first run is its blind
figure, reported before any change is made for it.

``--cli`` runs every pair as its own ``veristep derive --json`` process and times the whole
command (start-up included): that is the wall time a user waits; the report gives its median and
p90 and splits it into start-up, planning and grading (read from each command's JSON). Without it
the pairs run in one process (faster for a full sweep). ``--every K`` takes every K-th pair, a
sample spread over the topics. The run is resumable: ids already in --out are skipped.

``--no-target`` removes every target: each start is derived to the finished form of the goal it
implies (solve, carry out, simplify), and the stated answer is compared with the removed target
by the grounding engine. Categories whose goal lives only in the target (factored or expanded
form, identities, "make r the subject") are reported apart; every 4th task is the part that was
looked at while building, the rest is held out.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LAST_RESORT = "computer algebra system"  # the wording of the planner's labelled one-step solve


def _row(pair: dict[str, Any], d: dict[str, Any], ms: float) -> dict[str, Any]:
    """Score one derivation (its JSON document) on the four criteria."""
    steps = d["steps"]
    strong = all(s["tier"] in ("grounded", "verified") for s in steps)
    worded = all(s.get("operation") and s.get("justification") for s in steps)
    jump = any(LAST_RESORT in (s.get("justification") or "") for s in steps)
    row = {
        **pair,
        "reached": bool(d["endpoint"]["reached"]),
        "multi": len(steps) >= 2,
        "strong": bool(steps) and strong and worded,
        "no_jump": not jump,
        "steps": len(steps),
        "tiers": "".join(s["tier"][0] for s in steps),
        "operations": [s.get("operation") for s in steps],
        "tier": d["confidence"]["tier"],
        "note": d["proposer"].get("note"),
        "ms": ms,
    }
    row["ok"] = row["reached"] and row["multi"] and row["strong"] and row["no_jump"]
    return row


def _failed(pair: dict[str, Any], detail: str, ms: float) -> dict[str, Any]:
    flags = {"reached": False, "multi": False, "strong": False, "no_jump": True, "ok": False}
    return {**pair, **flags, "steps": 0, "tiers": "", "note": detail, "ms": ms}


def run_pair(pair: dict[str, Any], proposer: str, settings: Any) -> dict[str, Any]:
    """One pair in this process."""
    from veristep.core.errors import InputError
    from veristep.propose import derive

    began = time.monotonic()
    try:
        d = derive(pair["start"], pair["target"], settings=settings, proposer=proposer)
    except InputError as err:
        return _failed(pair, "input error: " + err.one_line(), _ms(began))
    return _row(pair, d.to_json(), _ms(began))


def run_pair_cli(pair: dict[str, Any], proposer: str) -> dict[str, Any]:
    """One pair as its own ``veristep derive --json`` command, timed from outside."""
    exe = Path(sys.executable).with_name("veristep")
    cmd = [str(exe), "derive", pair["start"], pair["target"], "--proposer", proposer, "--json"]
    began = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    ms = _ms(began)
    if done.returncode != 0:
        return _failed(pair, f"exit {done.returncode}: {done.stderr.strip()[-200:]}", ms)
    d = json.loads(done.stdout)
    return {**_row(pair, d, ms), **_cli_parts(d)}


def _cli_parts(d: dict[str, Any]) -> dict[str, float]:
    """Where one command's time went, from its own JSON: the drafts (planning and grading, in the
    command's process) and, within them, the steps' grading; the rest of the wall time is start-up
    (interpreter, imports, the CAS workers' start) and writing the answer."""
    drafts = sum(h.get("ms") or 0.0 for h in d["proposer"].get("history") or [])
    return {"drafts_ms": drafts, "grading_ms": sum(s.get("ms") or 0.0 for s in d["steps"])}


def cli_breakdown(rows: list[dict[str, Any]]) -> list[str]:
    """Median and p90 of each part of a command's wall time (``--cli`` rows only)."""
    rows = [r for r in rows if "drafts_ms" in r]
    if not rows:
        return []
    parts = {
        "wall (the whole command)": [r["ms"] for r in rows],
        "start-up + workers + output": [r["ms"] - r["drafts_ms"] for r in rows],
        "drafts (planning + grading)": [r["drafts_ms"] for r in rows],
        "  of which grading the steps": [r["grading_ms"] for r in rows],
    }
    lines = [f"per command, over {len(rows)} commands (median · p90):"]
    for name, values in parts.items():
        lines.append(f"  {name:<30} {_median_p90(values)}")
    return lines


def _median_p90(values_ms: list[float]) -> str:
    ordered = sorted(values_ms)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered) / 1000:5.2f} s · {p90 / 1000:5.2f} s"


def _ms(began: float) -> float:
    return (time.monotonic() - began) * 1000.0


def _pct(n: int, total: int) -> str:
    return f"{100 * n / max(1, total):5.1f} %"


def split_of(pair: dict[str, Any]) -> str:
    """A task's part: ``held_out`` (never looked at or run while tuning) or ``tuned``; records
    written before the split existed count as tuned."""
    return pair.get("split", "tuned")


def topic_table(rows: list[dict[str, Any]]) -> list[str]:
    """One line per topic: each criterion's count, then the derivations that meet all four."""
    head = f"  {'topic':<16}{'n':>4}{'reached':>9}{'≥2 steps':>10}{'strong':>8}"
    head += f"{'no jump':>9}{'derived':>9}{'rate':>9}"
    lines = [head]
    by_topic: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_topic.setdefault(r["category"], []).append(r)
    for topic, rs in [*sorted(by_topic.items()), ("ALL", rows)]:
        counts = [sum(r[k] for r in rs) for k in ("reached", "multi", "strong", "no_jump", "ok")]
        cells = "".join(f"{c:>{w}}" for c, w in zip(counts, (9, 10, 8, 9, 9), strict=True))
        lines.append(f"  {topic:<16}{len(rs):>4}{cells}{_pct(counts[-1], len(rs)):>9}")
    return lines


def _kind_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Per kind: derived out of n in the tuned part and in the held-out part."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_kind.setdefault(r["kind"], []).append(r)
    lines = []
    for kind, rs in sorted(by_kind.items()):
        cells = []
        for split in ("tuned", "held_out"):
            part = [r for r in rs if split_of(r) == split]
            cells.append(f"{sum(r['ok'] for r in part)}/{len(part)}")
        lines.append(f"  {kind:<26}{cells[0]:>7}{cells[1]:>7}")
    return lines


def summarise(rows: list[dict[str, Any]]) -> str:
    ok = [r for r in rows if r["ok"]]
    lines = [
        f"derivations (reached as written, ≥ 2 steps, every step grounded or verified, "
        f"no last-resort jump): {len(ok)}/{len(rows)} ({_pct(len(ok), len(rows)).strip()})"
    ]
    lines += topic_table(rows)
    for split in ("tuned", "held_out"):
        part = [r for r in rows if split_of(r) == split]
        if part and len(part) < len(rows):
            lines.append(f"{split.replace('_', '-')} part:")
            lines += topic_table(part)
    kinds = [r for r in rows if r.get("kind")]
    if kinds:
        lines.append("by kind of task (tuned · held-out):")
        lines += _kind_lines(kinds)
    lines.append("not derived:")
    for r in rows:
        if not r["ok"]:
            why = [k for k in ("reached", "multi", "strong", "no_jump") if not r[k]]
            lines.append(
                f"  {r['id']}: {r['start']}  →  {r['target']}  "
                f"(missing: {', '.join(why)}; {r['tiers'] or 'no steps'})"
            )
    times = sorted(r["ms"] for r in rows)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    lines.append(
        f"wall per derivation: median {statistics.median(times) / 1000:.2f} s, "
        f"p90 {p90 / 1000:.2f} s over {len(times)}"
    )
    lines += cli_breakdown(rows)
    return "\n".join(lines)


# Goal-only mode (--no-target): the categories whose start implies its goal (a statement is
# solved, a derivative/integral/limit/sum is carried out, a computation is simplified). For the
# others (write in factored or expanded form, prove an identity, make r the subject) the goal
# lives only in the target, so their rate is reported apart.
GOAL_IMPLIED = frozenset({
    "inequality", "system", "trig_equation", "explog", "radical_abs", "integral", "limit",
    "differentiation", "equation", "arithmetic", "linear", "quadratic", "rational", "radical",
    "absolute", "exponential", "logarithmic", "derivative", "sum",
})  # fmt: skip


def dev_part(index: int) -> bool:
    """The tasks looked at while building goal-only mode (every 4th); the rest are held out."""
    return index % 4 == 0


def run_goal_only(pair: dict[str, Any], settings: Any) -> dict[str, Any]:
    """One task with its target removed: the finished form reached, the answer stated, and
    whether the stated answer equals the removed target (judged by the grounding engine)."""
    from veristep.core.errors import InputError
    from veristep.grounding.chain import endpoint
    from veristep.grounding.decision import Context
    from veristep.propose import derive

    began = time.monotonic()
    row = {**pair, "implied": pair["category"] in GOAL_IMPLIED}
    try:
        d = derive(pair["start"], None, settings=settings)
    except InputError as err:
        return {**row, "reached": False, "stated": False, "equal": False, "goal": None,
                "note": "input error: " + err.one_line(), "ms": _ms(began)}  # fmt: skip
    last = d.states[-1].latex
    stated = bool(d.answer and d.answer.get("stated"))
    equal = False
    if stated:
        judged = endpoint(last, pair["target"], Context(settings=settings))
        equal = judged.reached or judged.math_correct
    return {
        **row,
        "goal": d.goal,
        "reached": bool(d.endpoint.reached),
        "stated": stated,
        "equal": bool(equal),
        "tier": d.confidence.tier.name_lower,
        "answer": (d.answer or {}).get("sentence"),
        "last": last,
        "steps": len(d.steps),
        "note": d.proposer.get("note"),
        "ms": _ms(began),
    }


def summarise_goal_only(rows: list[dict[str, Any]], show_held_out: bool = False) -> str:
    lines = ["goal-only tasks (targets removed): finished form reached · answer stated "
             "(verified or better) · stated answer equals the removed target"]  # fmt: skip
    groups = [
        ("goal implied, all", [r for r in rows if r["implied"]]),
        ("goal implied, dev part", [r for r in rows if r["implied"] and r["dev"]]),
        ("goal implied, held out", [r for r in rows if r["implied"] and not r["dev"]]),
        ("goal not implied", [r for r in rows if not r["implied"]]),
    ]
    for name, rs in groups:
        n = len(rs)
        reached = sum(r["reached"] for r in rs)
        stated = sum(r["stated"] for r in rs)
        equal = sum(r["equal"] for r in rs)
        lines.append(
            f"  {name:<24} n={n:<4} reached {reached:>4} ({_pct(reached, n).strip()})"
            f"  stated {stated:>4}  equal {equal:>4} ({_pct(equal, n).strip()})"
        )
    by_topic: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_topic.setdefault(r["category"], []).append(r)
    for topic, rs in sorted(by_topic.items()):
        mark = "" if rs[0]["implied"] else "  (goal not implied)"
        lines.append(f"    {topic:<16} {sum(r['equal'] for r in rs):>3}/{len(rs):<3}{mark}")
    lines.append("not equal to the target (goal implied; held-out ones with --show-held-out):")
    for r in rows:
        if r["implied"] and not r["equal"] and (r["dev"] or show_held_out):
            part = "dev" if r["dev"] else "held-out"
            lines.append(f"  [{part}] {r['id']}: {r['start']}  →  {r.get('last')}  "
                         f"(target {r['target']}; {r.get('tier')}; {r.get('note')})")  # fmt: skip
    times = sorted(r["ms"] for r in rows)
    if times:
        lines.append(f"wall per task: median {statistics.median(times) / 1000:.2f} s, "
                     f"max {times[-1] / 1000:.2f} s over {len(times)}")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=HERE / "derive_syllabus.jsonl")
    parser.add_argument("--out", type=Path, default=None, help="results JSONL (resumable)")
    parser.add_argument("--category")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--every", type=int, default=1, help="take every K-th pair")
    parser.add_argument("--split", choices=("tuned", "held_out", "all"), default="all",
                        help="only the tuned part, only the held-out part, or both")  # fmt: skip
    parser.add_argument("--kind", help="only the tasks of this kind (the record's 'kind')")
    parser.add_argument("--batch", help="only the tasks written together as this batch (a date)")
    parser.add_argument("--proposer", default="symbolic")
    parser.add_argument("--cli", action="store_true", help="time each pair as a CLI command")
    parser.add_argument("--no-target", action="store_true",
                        help="goal-only: remove each target, derive to the finished form and "
                        "compare the stated answer with the removed target")  # fmt: skip
    parser.add_argument("--show-held-out", action="store_true",
                        help="--no-target: list the held-out failures too")  # fmt: skip
    args = parser.parse_args(argv)
    if args.no_target and (args.cli or args.proposer != "symbolic"):
        parser.error("--no-target runs the symbolic planner in this process")

    pairs = [json.loads(line) for line in args.pairs.read_text().splitlines() if line.strip()]
    for index, pair in enumerate(pairs):
        pair["dev"] = dev_part(index)
    if args.category:
        pairs = [p for p in pairs if p["category"] == args.category]
    if args.kind:
        pairs = [p for p in pairs if p.get("kind") == args.kind]
    if args.batch:
        pairs = [p for p in pairs if p.get("batch") == args.batch]
    if args.split != "all":
        pairs = [p for p in pairs if split_of(p) == args.split]
    pairs = pairs[:: args.every]
    pairs = pairs[: args.limit] if args.limit else pairs
    done: dict[str, dict[str, Any]] = {}
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[row["id"]] = row
    settings = None
    if not args.cli:
        from veristep.core.settings import Settings

        settings = Settings()
    rows = []
    out = args.out.open("a") if args.out else None
    for i, pair in enumerate(pairs, 1):
        if pair["id"] in done:
            rows.append(done[pair["id"]])
            continue
        if args.no_target:
            row = run_goal_only(pair, settings)
            row["ok"], row["tiers"] = row["equal"], row.get("tier", "")
        elif args.cli:
            row = run_pair_cli(pair, args.proposer)
        else:
            row = run_pair(pair, args.proposer, settings)
        rows.append(row)
        print(
            f"[{i}/{len(pairs)}] {row['id']}: {'ok' if row['ok'] else '--'} "
            f"{row['tiers']} {row['ms'] / 1000:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        if out:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            out.flush()
    if out:
        out.close()
    if args.no_target:
        print(summarise_goal_only(rows, args.show_held_out))
    else:
        print(summarise(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
