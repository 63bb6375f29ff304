"""Batch throughput: steps graded per second per core on the STACK pairs, ``check --jsonl`` in
one process, on the local pool and on Ray, and ``veristep.grade`` from 8 threads; memory per
worker process (resident set, MB).

    python bench/batch.py [--limit N] [--workers 2] [--ray]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

STACK = Path(__file__).parent.parent / "tests/data/stack_equiv/stack_pairs.jsonl"


def _chains(limit: int) -> list[list[str]]:
    rows = [json.loads(line) for line in STACK.read_text().splitlines()[:limit]]
    return [row["states"] for row in rows]


def _cli_rate(chains: list[list[str]], extra: list[str]) -> tuple[float, float]:
    """Steps per second of ``check --jsonl`` with ``extra`` options, and its wall time."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "in.jsonl")
        source.write_text("".join(json.dumps({"states": c}) + "\n" for c in chains))
        argv = [sys.executable, "-m", "veristep.cli", "check", "--jsonl", str(source), *extra]
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False, timeout=3600)
        wall = time.perf_counter() - start
    steps = sum(len(c) - 1 for c in chains)
    return steps / wall, wall


def _grade_rate(chains: list[list[str]], workers: int) -> tuple[float, list[float]]:
    import multiprocessing

    from veristep.api import Grader

    with Grader(workers=workers) as grader:
        grader.grade(chains[0])  # warm
        start = time.perf_counter()
        with ThreadPoolExecutor(8) as threads:
            list(threads.map(grader.grade, chains))
        wall = time.perf_counter() - start
        rss = [_rss_mb(child.pid) for child in multiprocessing.active_children()]
    return sum(len(c) - 1 for c in chains) / wall, rss


def _rss_mb(pid: int | None) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=120)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ray", action="store_true")
    args = parser.parse_args()
    chains = _chains(args.limit)
    cores = os.cpu_count() or 1
    runs = {
        "check --jsonl, one process": [],
        f"--workers {args.workers}": ["--workers", str(args.workers)],
    }
    if args.ray:
        runs[f"--ray ({args.workers} CPUs)"] = ["--ray", "--workers", str(args.workers)]
    print(f"{len(chains)} STACK chains, {cores} cores")
    for name, extra in runs.items():
        rate, wall = _cli_rate(chains, extra)
        used = 1 if not extra else args.workers
        print(f"{name:32} {rate:7.1f} steps/s  {rate / used:6.1f} per core  ({wall:.1f} s)")
    rate, rss = _grade_rate(chains, args.workers)
    print(f"{'grade() from 8 threads':32} {rate:7.1f} steps/s  {rate / args.workers:6.1f} per core")
    if rss:
        print(f"worker memory: {min(rss):.0f}-{max(rss):.0f} MB resident ({len(rss)} processes)")


if __name__ == "__main__":
    main()
