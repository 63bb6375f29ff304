"""Batch throughput: steps graded per second per core on the STACK pairs, ``check --jsonl`` in
one process, on the local pool and on Ray, and ``veristep.grade`` from 8 threads; memory per
worker process (resident set, MB). Then the PRMBench slice: ``review --bench prmbench`` (the
review agent without a model: its machine checks on every step) the same three ways.

    python bench/batch.py [--limit N] [--prm-limit N] [--workers 2] [--ray]

The PRMBench items come from ``$VERISTEP_DATA_ROOT`` (the repository's slice when unset).
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

ROOT = Path(__file__).parent.parent
STACK = ROOT / "tests/data/stack_equiv/stack_pairs.jsonl"


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


def _prm_rate(limit: int | None, extra: list[str]) -> tuple[int, int, float]:
    """Items, steps and wall time of ``review --bench prmbench`` (the agent, no model)."""
    from veristep.review.bench import load_items

    items = load_items("prmbench", limit)
    steps = sum(len(item.segments()) for item in items)
    with tempfile.TemporaryDirectory() as folder:
        argv = [sys.executable, "-m", "veristep.cli", "review", "--bench", "prmbench", "--json",
                "--systems", "agent", "--out", folder, *extra]  # fmt: skip
        if limit is not None:
            argv += ["--limit", str(limit)]
        env = {**os.environ, "VERISTEP_DATA_DIR": folder}
        env.pop("VERISTEP_MODEL", None)
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True, timeout=3600, env=env)
        wall = time.perf_counter() - start
    return len(items), steps, wall


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
    parser.add_argument("--prm-limit", type=int, help="first N PRMBench items (default: all)")
    parser.add_argument("--ray", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("VERISTEP_DATA_ROOT", str(ROOT / "tests/data"))
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
        print(f"{name:40} {rate:7.1f} steps/s  {rate / used:6.1f} per core  ({wall:.1f} s)")
    rate, rss = _grade_rate(chains, args.workers)
    print(f"{'grade() from 8 threads':40} {rate:7.1f} steps/s  {rate / args.workers:6.1f} per core")
    if rss:
        print(f"worker memory: {min(rss):.0f}-{max(rss):.0f} MB resident ({len(rss)} processes)")
    for name, extra in runs.items():
        items, steps, wall = _prm_rate(args.prm_limit, extra)
        label = name.replace("check --jsonl", "review --bench prmbench")
        used = 1 if not extra else args.workers
        rate = steps / wall
        print(f"{label:40} {rate:7.1f} steps/s  {rate / used:6.1f} per core  "
              f"({items} items, {steps} steps, {wall:.1f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
