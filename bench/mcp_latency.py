"""Latency per MCP tool on a warm ``veristep mcp`` server, measured by the official SDK client.

The server runs over stdio in a subprocess, as a desktop client launches it. Each tool is
called once to warm it (SymPy workers, coqtop, the lemma index), then ``--repeat`` times; the
figures are client-side round trips (JSON-RPC framing included), p50 and p95 in milliseconds.
Tools that compute get fresh maths on every call (a new 3-step chain for ``check``);
``check_same`` repeats one chain, to show what the workers' caches save.

    python bench/mcp_latency.py                 # algebra, ALPS and review tools
    python bench/mcp_latency.py --coq           # also the Coq session tools (needs coqtop)
    python bench/mcp_latency.py --repeat 50 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters


def three_steps(i: int) -> list[str]:
    """A fresh 3-step chain per call (no cache anywhere can answer it from a previous one)."""
    a, b, c = 2 + i % 7, 3 + i, 1 + i % 5
    return [f"{a}x + {b} = {a * c + b}", f"{a}x = {a * c}", f"x = {c}", f"x - {c} = 0"]


# (tool, arguments for the i-th call): fresh maths each time where the tool computes something.
CALLS: list[tuple[str, Any]] = [
    ("check", lambda i: {"states": three_steps(i)}),
    ("check_same", lambda i: {"states": three_steps(0)}),
    ("parse", lambda i: {"latex": f"x = \\frac{{-b \\pm \\sqrt{{b^2-{i + 4}ac}}}}{{2a}}"}),
    (
        "apply",
        lambda i: {"state": f"2x + {i + 3} = 7", "operation": f"subtract {i + 3} from both sides"},
    ),
    ("next_step", lambda i: {"state": f"3x + {i + 1} = {i + 10}"}),
    ("derive", lambda i: {"start": f"2x + {i + 3} = {i + 7}", "target": "x = 2"}),
    ("alps_id", lambda i: {"law": "x = y ◇ (x ◇ z)"}),
    ("alps_screen", lambda i: {"law": "x = x ◇ y"}),
    ("alps_judge", lambda i: {"law": "x = y ◇ z", "submission": '{"chain": ["a", "a ◇ a", "b"]}'}),
    ("review_check", lambda i: {"proof": f"We have $2 + {i} = {i + 2}$. Hence $3 \\cdot 3 = 9$."}),
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def timed(client: Client, name: str, args: dict[str, Any]) -> float:
    start = time.perf_counter()
    result = await client.call_tool(name.removesuffix("_same"), args)
    ms = (time.perf_counter() - start) * 1000
    if result.is_error:
        raise SystemExit(f"{name} failed: {result.content[0].text}")
    return ms


async def coq_rounds(client: Client, repeat: int) -> dict[str, list[float]]:
    """coq_run/coq_try/coq_back/coq_goals in one open session (the agent's inner loop)."""
    opened = await client.call_tool("coq_open", {"name": "mathd_algebra_412"})
    if opened.is_error:
        raise SystemExit(f"coq_open failed: {opened.content[0].text}")
    sid = opened.structured_content["session"]
    out: dict[str, list[float]] = {"coq_run": [], "coq_back": [], "coq_try": [], "coq_goals": []}
    for _ in range(repeat + 1):  # the first round warms the session
        for name, args in (
            ("coq_run", {"session": sid, "tactic": "intros x y h0 h1."}),
            ("coq_try", {"session": sid, "tactics": ["lia.", "lra.", "nra.", "ring."]}),
            ("coq_goals", {"session": sid}),
            ("coq_back", {"session": sid}),
        ):
            out[name].append(await timed(client, name, args))
    return {k: v[1:] for k, v in out.items()}


async def measure(repeat: int, coq: bool) -> dict[str, dict[str, float]]:
    data_dir = tempfile.mkdtemp(prefix="veristep-mcp-bench-")
    env = {**os.environ, "VERISTEP_DATA_DIR": data_dir}
    # The Coq rounds open one miniF2F-rocq theorem; the repository's slice holds it.
    env.setdefault("VERISTEP_DATA_ROOT", str(Path(__file__).parents[1] / "tests" / "data"))
    veristep = str(Path(sys.executable).with_name("veristep"))
    params = StdioServerParameters(command=veristep, args=["mcp"], env=env)
    samples: dict[str, list[float]] = {}
    async with Client(params) as client:
        for name, make in CALLS:
            await timed(client, name, make(10_000))  # warm
            samples[name] = [await timed(client, name, make(i)) for i in range(repeat)]
        if coq:
            samples.update(await coq_rounds(client, repeat))
    return {
        name: {
            "p50_ms": round(statistics.median(v), 1),
            "p95_ms": round(percentile(v, 0.95), 1),
            "n": len(v),
        }
        for name, v in samples.items()
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--repeat", type=int, default=20, help="timed calls per tool (after a warm one)"
    )
    ap.add_argument("--coq", action="store_true", help="also the Coq session tools")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    figures = anyio.run(measure, args.repeat, args.coq)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{'tool':<14}{'p50 ms':>10}{'p95 ms':>10}{'n':>5}")
    for name, row in figures.items():
        print(f"{name:<14}{row['p50_ms']:>10}{row['p95_ms']:>10}{row['n']:>5}")


if __name__ == "__main__":
    main()
