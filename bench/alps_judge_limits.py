"""How fast the chain judge's budgets stop a stalling submission (timings live here, not in tests).

Cases: one failing link to a full binary term of 31..511 nodes (ALPS's stall: a coarse link the
bridge search cannot close), and a 199-link submission of expensive-but-valid bridged links.

    python bench/alps_judge_limits.py
"""

from __future__ import annotations

import json
import time

from veristep.alps.judge import judge
from veristep.alps.judge.limits import LINK_WORK, SUBMISSION_WORK
from veristep.alps.terms import Op, Term, Var, show

LAW = "x = y ◇ (x ◇ z)"


def full_tree(depth: int) -> Term:
    return Var("a") if depth == 0 else Op(full_tree(depth - 1), full_tree(depth - 1))


def timed(submission: dict) -> dict:
    start = time.perf_counter()
    v = judge(LAW, submission)
    secs = time.perf_counter() - start
    return {"status": v.status, "secs": round(secs, 3), "message": v.message[-110:]}


def main() -> None:
    rows = []
    for depth in range(4, 10):
        big = show(full_tree(depth))
        rows.append(
            {"case": f"a = {2 ** (depth + 1) - 1}-node term", **timed({"chain": ["a", big, "b"]})}
        )
    big = show(full_tree(6))  # bridges down to `a` in three steps, at a real cost
    long_chain = ["a", *[big, "a"] * 99, "b"]
    rows.append({"case": "199 links, bridged 127-node terms", **timed({"chain": long_chain})})
    print(json.dumps({"link_work": LINK_WORK, "submission_work": SUBMISSION_WORK}))
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
