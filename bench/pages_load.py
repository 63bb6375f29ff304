"""A trivial workspace action's latency while slow pages render, on a real `veristep serve`.

Usage: python bench/pages_load.py [--actions N] [--slow-pages K] [--out FILE]

All traffic goes to a server this script starts on 127.0.0.1 and stops at the end. It saves
K pages of eight plot blocks each whose function is slow to evaluate (`(10^6 + k)! · x`, a new
k for every page, so no view is served from the plot cache), then keeps K threads viewing
fresh slow pages while the main thread times N trivial workspace actions (start from `2x = 6`,
divide by 2: one graded step), one every --gap seconds so that they span the renders. The same
N actions are timed first on the idle server. The goal
(issue: pages hardening) is a p95 under 200 ms while three slow pages render.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def _call(base: str, path: str, body: dict[str, Any] | None = None, timeout: float = 300) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data,
                                     headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=timeout) as response:
        text = response.read().decode()
    return json.loads(text) if path.startswith("/api/") else text


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    from veristep.web.testing import free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERISTEP_")}
    env.update(VERISTEP_DATA_DIR=str(tmp / "data"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "veristep.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(tmp / "web.sqlite3")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            _call(base, "/api/health", timeout=2)
            return proc, base
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("serve exited before answering") from None
            time.sleep(0.3)
    raise SystemExit("serve did not answer within 120 s")


def trivial_action(base: str) -> float:
    """Start from 2x = 6 and divide by 2; the seconds the second request took."""
    view = _call(base, "/api/workspace", {"action": "start", "start": "2x = 6"})
    start = time.perf_counter()
    body = {"workspace": view["workspace"], "action": "apply", "command": "divide by 2"}
    view = _call(base, "/api/workspace", body)
    elapsed = time.perf_counter() - start
    if view["path"][-1]["tier"] != "grounded":
        raise SystemExit(f"unexpected verdict: {view['path'][-1]}")
    return elapsed


def slow_page(base: str, k: int) -> str:
    blocks = [{"kind": "plot", "data": {"expr": f"{1_000_000 + 8 * k + j}! x", "from": 0, "to": 1}}
              for j in range(8)]  # fmt: skip
    return _call(base, "/api/pages", {"title": f"slow {k}", "blocks": blocks})["id"]


def figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"n": len(times), "p50_ms": 1000 * statistics.median(times), "p95_ms": 1000 * p95,
            "max_ms": 1000 * ordered[-1]}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--slow-pages", type=int, default=3)
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between timed actions")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp))
        try:
            for _ in range(3):
                trivial_action(base)  # warm both lanes
            idle = [trivial_action(base) for _ in range(args.actions)]
            counter = itertools.count()
            pages = [slow_page(base, next(counter)) for _ in range(4 * args.slow_pages)]
            stop = threading.Event()
            views: list[float] = []
            pool = iter(pages)
            lock = threading.Lock()

            def render_slow_pages() -> None:
                while not stop.is_set():
                    with lock:
                        ident = next(pool, None)
                    if ident is None:  # out of fresh pages: make one more (cheap to save)
                        ident = slow_page(base, next(counter))
                    start = time.perf_counter()
                    _call(base, f"/pages/{ident}", timeout=600)
                    views.append(time.perf_counter() - start)

            threads = [threading.Thread(target=render_slow_pages, daemon=True)
                       for _ in range(args.slow_pages)]  # fmt: skip
            for t in threads:
                t.start()
            time.sleep(2.0)  # every slow page is rendering by now
            busy = []
            for _ in range(args.actions):
                busy.append(trivial_action(base))
                time.sleep(args.gap)
            stop.set()
            for t in threads:
                t.join(timeout=120)
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
    result = {
        "idle": figures(idle),
        "while_slow_pages_render": figures(busy),
        "slow_pages_concurrently": args.slow_pages,
        "slow_page_views": figures(views) if views else None,
        "cpus": os.cpu_count(),
    }
    print(json.dumps(result, indent=1))
    verdict = "met" if result["while_slow_pages_render"]["p95_ms"] < 200 else "NOT met"
    print(f"goal p95 < 200 ms while {args.slow_pages} slow pages render: {verdict}")
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
