"""Re-judge ALPS's recorded LLM construction submissions (``alps_dev/llm_runs``) with our judge.

Each recorded attempt carries the proposed E and ALPS's two booleans (Vampire 5.0.1): we run
the construction channel on the same E and compare. Parse-error rounds keep only the message,
which quotes the offending equation: that equation alone is re-submitted and the message
compared. The o3 construction file and the chain-channel file record final feedback only, no
submissions, so they cannot be re-judged (counted as such).

    python bench/alps_rejudge.py --timeout 10 --workers 2 --out rejudge.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from veristep.alps.judge import JudgeConfig, judge
from veristep.alps.provers import EProver
from veristep.core.datasets import require_shared_data


def cases(run_dir: Path) -> tuple[list[dict], Counter]:
    out, skipped = [], Counter()
    for path in sorted(run_dir.glob("llm_construct_*.jsonl")):
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            rec = json.loads(line)
            if "attempts" not in rec:
                skipped[path.name] += 1
                continue
            for att in rec["attempts"]:
                base = {
                    "file": path.name,
                    "line": line_no,
                    "round": att["round"],
                    "law": rec["law"],
                }
                if "E" in att:
                    out.append(
                        {**base, "E": att["E"], "corr": att["corr"], "nonvac": att["nonvac"]}
                    )
                else:
                    quoted = re.match(r"equation '(.*?)' ", att["parse_error"])
                    out.append({**base, "E": [quoted.group(1)], "message": att["parse_error"]})
    return out, skipped


def rejudge(case: dict, timeout: float) -> dict:
    cfg = JudgeConfig(prover=EProver("auto"), timeout_s=timeout, memory_mb=2048)
    v = judge(case["law"], {"E": case["E"]}, cfg)
    if "message" in case:
        want = case["message"].split(":")[0]
        return {**case, "got": v.message, "match": v.message.split(":")[0] == want}
    checks = {c["name"]: c for c in v.certificate.get("checks", [])}
    got = (checks["correctness"]["passed"], checks["nonvacuity"]["passed"])
    return {
        **case,
        "got_corr": got[0],
        "got_nonvac": got[1],
        "corr_status": checks["correctness"]["status"],
        "nonvac_method": checks["nonvacuity"]["method"],
        "nonvac_status": checks["nonvacuity"]["status"],
        "match": got == (case["corr"], case["nonvac"]),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    todo, skipped = cases(require_shared_data("alps_dev", "llm_runs"))
    todo = todo[: args.limit] if args.limit else todo
    with ProcessPoolExecutor(args.workers) as pool, open(args.out, "w", encoding="utf-8") as fh:
        results = []
        for res in pool.map(rejudge, todo, [args.timeout] * len(todo)):
            fh.write(json.dumps(res, ensure_ascii=False) + "\n")
            results.append(res)
    kinds = Counter()
    for r in results:
        if r["match"]:
            kinds["match"] += 1
        elif "message" in r:
            kinds["message differs"] += 1
        else:
            kinds[
                f"recorded corr={r['corr']},nonvac={r['nonvac']} → ours "
                f"corr={r['got_corr']},nonvac={r['got_nonvac']}"
            ] += 1
    summary = {"rejudged": len(results), "not_rejudgeable_records": dict(skipped), **kinds}
    print(json.dumps(summary, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
