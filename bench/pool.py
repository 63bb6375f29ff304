"""Measure the CAS pool: per-call overhead, recovery after a kill, cold start, per start method.

    python bench/pool.py [--calls 300] [--kills 5]

Prints one JSON object per start method. Short by design (well under a minute on two cores).
"""

from __future__ import annotations

import argparse
import json
import operator
import statistics
import time

import sympy

from veristep.core.pool import CasPool


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(start_method: str, calls: int, kills: int) -> dict[str, object]:
    start = time.perf_counter()
    with CasPool(workers=1, start_method=start_method) as pool:
        pool.call(operator.add, 1, 1, timeout_s=60)
        cold_ms = (time.perf_counter() - start) * 1000
        trivial = [pool.call(operator.add, 1, 1, timeout_s=10).ms for _ in range(calls)]
        x = sympy.Symbol("x")
        expr = (x + 1) ** 5
        sympy_ms = [pool.call(sympy.expand, expr, timeout_s=10).ms for _ in range(calls // 3)]
        recovery, late = [], []
        for _ in range(kills):
            result = pool.call(time.sleep, 30, timeout_s=0.2)
            assert result.status == "timeout"
            late.append(result.ms - 200)
            t0 = time.perf_counter()
            assert pool.call(operator.add, 1, 1, timeout_s=60).ok
            recovery.append((time.perf_counter() - t0) * 1000)
    return {
        "start_method": start_method,
        "cold_start_ms": round(cold_ms, 1),
        "overhead_ms_median": round(statistics.median(trivial), 3),
        "overhead_ms_p95": round(_percentile(trivial, 0.95), 3),
        "expand_small_ms_median": round(statistics.median(sympy_ms), 3),
        "timeout_reported_ms_after_deadline_median": round(statistics.median(late), 1),
        "recovery_after_kill_ms_median": round(statistics.median(recovery), 1),
        "recovery_after_kill_ms_max": round(max(recovery), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--methods", default="forkserver,spawn")
    args = parser.parse_args()
    for method in args.methods.split(","):
        print(json.dumps(measure(method, args.calls, args.kills)))


if __name__ == "__main__":
    main()
