"""Time to build the next-step exercises of a saved derivation, as the practice page asks for them.

Usage: python bench/exercises.py [--start S] [--target T]

Derives START → TARGET offline (the quadratic formula by default), saves it through the web API
(in-process client, a fresh data folder), then times what /play?d=… does: the list of steps to
practise, the first exercise (what a learner waits for), each later one, and the same exercise
asked again (served from memory). The page builds the next exercise while the current one is
played and the rest are built behind it in order, so a learner who spends --think seconds on
each exercise waits mostly for the first.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

QUADRATIC = ("a x^2 + b x + c = 0", "x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}")


def main() -> None:
    from fastapi.testclient import TestClient

    from veristep.core.settings import Settings
    from veristep.web.app import create_app

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--start", default=QUADRATIC[0])
    parser.add_argument("--target", default=QUADRATIC[1])
    parser.add_argument("--think", type=float, default=8.0, help="seconds spent on each exercise")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings().replace(data_dir=Path(tmp)), Path(tmp) / "web.sqlite3")
        with TestClient(app) as client:
            made = client.post("/api/derive", json={"start": args.start, "target": args.target})
            ident = made.json()["id"]
            if ident is None:
                raise SystemExit(f"the derivation was not saved: {made.json().get('not_saved')}")
            t0 = time.perf_counter()
            steps = client.get(f"/api/derivations/{ident}/exercise-steps").json()["steps"]
            listed = time.perf_counter() - t0
            times = []
            for k in steps:
                t = time.perf_counter()
                ex = client.get(f"/api/derivations/{ident}/exercises/{k}")
                assert ex.status_code == 200, ex.text
                times.append(time.perf_counter() - t)
                time.sleep(args.think)  # meanwhile the next exercises are built behind
            t = time.perf_counter()
            client.get(f"/api/derivations/{ident}/exercises/{steps[0]}")
            again = time.perf_counter() - t
    print(f"derivation: {args.start}  →  {args.target}")
    print(f"steps to practise: {len(steps)}, listed in {1000 * listed:.0f} ms")
    print(f"a learner spending {args.think:g} s on each exercise waits:")
    print(f"  for the first: {times[0]:.2f} s")
    later = times[1:] or [0.0]
    print(f"  for each later one: median {statistics.median(later):.2f} s, max {max(later):.2f} s")
    print(f"  in all: {sum(times):.1f} s")
    print(f"an exercise asked again: {1000 * again:.1f} ms")


if __name__ == "__main__":
    main()
