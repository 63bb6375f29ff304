"""Time to the first streamed finding on the review page, for OPC proofs (no model).

The app is served on 127.0.0.1 (uvicorn, as ``veristep serve``); each proof is POSTed to
``/api/review/stream`` as the page does, and the clock runs from the request to the first
``step`` event (the first machine finding the page can show), and on to the final ``done``.
With ``--browser`` the clock runs in Chromium instead, from the click on Review to the first
finding in the page's list.

    python bench/review_first_finding.py                 # 20 OPC proofs, HTTP
    python bench/review_first_finding.py --limit 5 --browser

Needs the OPC slice (``VERISTEP_DATA_ROOT`` pointing at the corpora, or ``tests/data``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from veristep.core.datasets import require_shared_data
from veristep.core.settings import Settings
from veristep.web.app import create_app
from veristep.web.research_routes import PROOF_CHARS
from veristep.web.testing import live_server


def opc_proofs(limit: int) -> list[dict]:
    path = require_shared_data("opc_judge_test", "opc_judge_test.jsonl")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    fits = [r for r in rows if len(r["proof"]) <= PROOF_CHARS and len(r["problem"]) <= 4_000]
    return fits[:limit]


def over_http(url: str, row: dict) -> tuple[float, float, int]:
    import httpx

    body = {"proof": row["proof"], "problem": row["problem"], "save": False}
    started, first, steps = time.perf_counter(), None, 0
    with (
        httpx.Client(timeout=600) as client,
        client.stream("POST", url + "/api/review/stream", json=body) as r,
    ):
        for line in r.iter_lines():
            if line.startswith("event: step"):
                steps += 1
                first = first or time.perf_counter() - started
            if line.startswith("event: done") or line.startswith("event: error"):
                break
    total = time.perf_counter() - started
    return (first if first is not None else float("nan")), total, steps


def in_browser(url: str, rows: list[dict]) -> list[tuple[float, float, int]]:
    from playwright.sync_api import sync_playwright

    from veristep.web.testing import launch_chromium

    out = []
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        page = browser.new_page()
        for row in rows:
            page.goto(url + "/review")
            page.fill("#review-problem", row["problem"])
            page.fill("#review-proof", row["proof"])
            started = time.perf_counter()
            page.click("#review-form button[type=submit]")
            page.wait_for_selector("#review-steps > li", timeout=600_000)
            first = time.perf_counter() - started
            page.wait_for_selector(
                "body[data-review=done], body[data-review=error]", timeout=600_000
            )
            total = time.perf_counter() - started
            out.append((first, total, page.locator("#review-steps li[data-step]").count()))
        browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--browser", action="store_true", help="time it in Chromium, click to list")
    args = ap.parse_args()
    rows = opc_proofs(args.limit)
    tmp = Path(tempfile.mkdtemp())
    settings = Settings().replace(data_dir=tmp, web_request_timeout_s=600.0)
    app = create_app(settings, tmp / "web.sqlite3")
    with live_server(app) as url:
        over_http(url, rows[0])  # warm the CAS workers once, as a running server has them
        results = in_browser(url, rows) if args.browser else [over_http(url, r) for r in rows]
    for row, (first, total, steps) in zip(rows, results, strict=True):
        print(f"{row['id']}: first finding {first:.2f} s, done {total:.2f} s, {steps} steps")
    firsts = sorted(r[0] for r in results)
    totals = sorted(r[1] for r in results)
    print(
        f"{len(rows)} OPC proofs ({'browser' if args.browser else 'HTTP'}): first finding "
        f"median {statistics.median(firsts):.2f} s, max {firsts[-1]:.2f} s; whole review "
        f"median {statistics.median(totals):.2f} s, max {totals[-1]:.2f} s"
    )


if __name__ == "__main__":
    main()
