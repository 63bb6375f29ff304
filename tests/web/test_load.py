"""Load on a real ``veristep serve`` (127.0.0.1 only, bounded): slow work never starves fast work.

Eight slow or exploding checks run at once while cheap checks and health probes keep coming;
every cheap one must be answered while the slow ones are still running (no queueing behind
them), the server must stay reachable throughout, close a connection whose headers stall, and
exit promptly on SIGTERM. The figures (latencies, the SIGTERM exit) are printed with ``-s``; the
bounds asserted are starvation and hang detectors, far above the measured values.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from veristep.core.subprocesses import process_group_gone

SLOW = [  # heavy expansions: each step spends seconds in the CAS workers
    [f"x = (a+b+c+d+{k})^{{30}}" for k in range(1, 7)],
    [f"y = (p+q+r+s+{k})^{{28}} - (p+q+r+s)^{{28}}" for k in range(1, 7)],
]
EXPLODING = [  # the inputs: each froze the whole server once
    ["y = 9^{9^{9}}", "y = 9^{387420489}"],
    ["y = 1.5 \\times 10^{999999999}", "y = 0"],
    ["y = 10^{999999999}", "y = 0"],
]
CHEAP = ["x + 1 = 2", "x = 1"]
BACKGROUND = 8  # concurrent slow/exploding requests
STARVED_S = 60.0  # a cheap request this slow means it queued behind the slow ones
HANG_S = 10.0  # SIGTERM or a probe past this: the server hangs


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(base: str, path: str, body: dict[str, Any], timeout: float) -> tuple[int, float]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"content-type": "application/json"}
    )
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    return status, time.monotonic() - start


def _get(base: str, path: str, timeout: float) -> tuple[int, float]:
    start = time.monotonic()
    with urllib.request.urlopen(base + path, timeout=timeout) as response:
        response.read()
        return response.status, time.monotonic() - start


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``veristep serve`` on a free 127.0.0.1 port with small budgets, answering health."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERISTEP_")}
    env.update(
        VERISTEP_DATA_DIR=str(tmp / "data"),
        VERISTEP_STEP_TIMEOUT="6",
        VERISTEP_CAS_TIMEOUT="3",
        VERISTEP_WORKERS="2",
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "veristep.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(tmp / "web.sqlite3")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 120
    while time.monotonic() < end:
        try:
            _get(base, "/api/health", timeout=2)
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"serve exited: {proc.stderr.read().decode()[-2000:]}")
            time.sleep(0.3)
    else:
        pytest.fail("serve did not answer /api/health within 120 s")
    _post(base, "/api/check", {"states": CHEAP}, timeout=120)  # warm both lanes' workers
    return proc, base


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc, base = start_server(tmp_path_factory.mktemp("load"))
    yield proc, base
    stop_server(proc)


def test_cheap_checks_keep_answering_while_slow_ones_run(server) -> None:
    _, base = server
    slow_done: list[float] = []
    inputs = (SLOW + EXPLODING) * 2

    def slow(states: list[str]) -> None:
        _post(base, "/api/check", {"states": states}, timeout=600)
        slow_done.append(time.monotonic())

    threads = [threading.Thread(target=slow, args=(s,), daemon=True) for s in inputs[:BACKGROUND]]
    for t in threads:
        t.start()
    time.sleep(3)  # every slow request is in the CAS pool by now
    cheap, health = [], []
    for _ in range(5):
        status, seconds = _post(base, "/api/check", {"states": CHEAP}, timeout=120)
        assert status == 200
        cheap.append(seconds)
        health.append(_get(base, "/api/health", timeout=HANG_S)[1])
    cheap_end, done_by_then = time.monotonic(), len(slow_done)
    for t in threads:
        t.join(timeout=600)
    shown = [round(c, 3) for c in cheap], [round(h, 3) for h in health], len(slow_done)
    print("\ncheap check s: {}; health s: {}; slow requests done by then: {}".format(*shown))
    assert max(cheap) < STARVED_S, cheap
    # Fairness, not speed: the cheap checks did not wait for the slow ones to finish.
    assert done_by_then < BACKGROUND, (cheap, slow_done, cheap_end)


def test_a_request_whose_headers_stall_is_closed(server) -> None:
    _, base = server
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        start = time.monotonic()
        assert sock.recv(1024) == b""  # closed by the server, not by our 60 s socket timeout
        print(f"\nstalled headers closed after {time.monotonic() - start:.1f} s")


def test_server_exits_promptly_on_sigterm_mid_request(tmp_path: Path) -> None:
    proc, base = start_server(tmp_path)
    try:
        _sigterm_while_busy(proc, base)
    finally:
        stop_server(proc)


def _sigterm_while_busy(proc: subprocess.Popen[bytes], base: str) -> None:
    busy = threading.Thread(
        target=lambda: _post(base, "/api/check", {"states": SLOW[0]}, timeout=120), daemon=True
    )
    busy.start()
    time.sleep(2)
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    took = time.monotonic() - start
    print(f"\nserve exited {took:.2f} s after SIGTERM (code {proc.returncode})")
    assert took < HANG_S
    if not process_group_gone(proc.pid):
        left = subprocess.run(["ps", "-o", "pid,etime,args", "-g", str(proc.pid)],
                              capture_output=True, text=True).stdout  # fmt: skip
        pytest.fail(f"a process of the server outlived it:\n{left}")
    with pytest.raises(OSError):
        _get(base, "/api/health", timeout=5)
