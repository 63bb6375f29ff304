"""Time to the first verdict of a trivial `veristep check`, start-up included.

Usage: python bench/check_latency.py [--runs N]

Each run is a fresh `veristep check "x + 1 = 2" "x = 1"` process, measured wall to wall, with
small CAS calls in-process (the default for the command) and with every call in the worker pool
(VERISTEP_INLINE_CAS=0). The goal is a median under 1.5 s on an idle 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMAND = ["check", "x + 1 = 2", "x = 1"]


def one_run(extra_env: dict[str, str]) -> float:
    veristep = Path(sys.executable).with_name("veristep")
    env = {**os.environ, **extra_env}
    start = time.perf_counter()
    done = subprocess.run([str(veristep), *COMMAND], env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or b"Grounded" not in done.stdout:
        raise SystemExit(f"unexpected result: rc {done.returncode}\n{done.stdout.decode()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    one_run({})  # warm the page cache and the bytecode
    for label, env in (
        ("in-process small calls", {}),
        ("worker pool only", {"VERISTEP_INLINE_CAS": "0"}),
    ):
        times = sorted(one_run(env) for _ in range(args.runs))
        print(f"{label:24}: median {statistics.median(times):.2f} s, "
              f"min {times[0]:.2f} s, max {times[-1]:.2f} s ({args.runs} runs)")  # fmt: skip


if __name__ == "__main__":
    main()
