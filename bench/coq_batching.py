"""Batched validation: K candidate proofs in one coqtop session vs K separate coqc runs.

Both sides check the same K candidates (cheap tactics, most failing) for one miniF2F-style real
statement and must agree on which succeed. CPU time is the children's user+sys time
(``RUSAGE_CHILDREN``), so it counts Coq's work and not Python's. Usage:

    python bench/coq_batching.py --k 20 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path

from veristep.core.settings import Settings
from veristep.core.subprocesses import run_with_deadline
from veristep.formal.backends.base import Theorem
from veristep.formal.backends.coq import TACTIC_PRELUDE, CoqBackend

THEOREM = Theorem(
    "bt",
    "Require Import Reals.\nOpen Scope R_scope.",
    "Theorem bt : forall x y : R, x + 2 * y = 4 -> 3 * x - y = 5 -> x = 2.",
)
TACTICS = [
    "intros; lra.",
    "intros; lia.",
    "intros; auto.",
    "intros; easy.",
    "intros; nra.",
    "intros; congruence.",
    "intros; tauto.",
    "intros; reflexivity.",
    "intros; field.",
    "intros; subst; lra.",
]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def batched(candidates: list[str]) -> tuple[float, float, list[bool]]:
    cpu, wall = _children_cpu(), time.monotonic()
    backend = CoqBackend(Settings().replace(coq_tactic_timeout_s=3))
    results = [a.complete for a in backend.check_batch(THEOREM, candidates)]
    backend.close()  # the session is reaped here, so its CPU time is counted
    return _children_cpu() - cpu, time.monotonic() - wall, results


def separate(candidates: list[str]) -> tuple[float, float, list[bool]]:
    cpu, wall = _children_cpu(), time.monotonic()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, proof in enumerate(candidates):
            text = (
                f"{THEOREM.header}\n{TACTIC_PRELUDE}\nSet Default Timeout 3.\n"
                f"{THEOREM.statement}\nProof.\n{proof}\nQed.\n"
            )
            path = Path(tmp) / f"C{i}.v"
            path.write_text(text)
            run = run_with_deadline(["coqc", "-q", path.name], 60, 4096, cwd=tmp)
            results.append(run.returncode == 0 and "Error" not in run.stdout + run.stderr)
    return _children_cpu() - cpu, time.monotonic() - wall, results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--k", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    candidates = [TACTICS[i % len(TACTICS)] for i in range(args.k)]
    rows = []
    for _ in range(args.repeat):
        b_cpu, b_wall, b_res = batched(candidates)
        s_cpu, s_wall, s_res = separate(candidates)
        assert b_res == s_res, "batched and separate checks disagree"
        rows.append((b_cpu, b_wall, s_cpu, s_wall))
    best = min(rows, key=lambda r: r[0])
    summary = {
        "k": args.k,
        "solved": sum(b_res),
        "batched_cpu_s": round(min(r[0] for r in rows), 2),
        "batched_wall_s": round(min(r[1] for r in rows), 2),
        "coqc_cpu_s": round(min(r[2] for r in rows), 2),
        "coqc_wall_s": round(min(r[3] for r in rows), 2),
        "cpu_saving_x": round(min(r[2] for r in rows) / max(best[0], 1e-3), 1),
        "wall_saving_x": round(min(r[3] for r in rows) / max(min(r[1] for r in rows), 1e-3), 1),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
