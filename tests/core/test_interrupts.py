"""Ctrl-C, SIGTERM and kill -9: long commands stop, say so, and leave no child process behind.

Real processes throughout: ``veristep check`` with a busy CAS worker, a ProcessPoolExecutor of
sleeping tasks, and ``sleep`` run by ``run_with_deadline`` in its own session (as E is).
Waits are polls with generous bounds: they detect a hang or a leftover, they time nothing.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from veristep.core.interrupts import ignore_interrupts, killing_pool

BUSY = ("x = (a+b+c+d+1)^{30}", "x = (a+b+c+d+2)^{30}")  # keeps a CAS worker busy for seconds
ENV = {"VERISTEP_STEP_TIMEOUT": "60", "VERISTEP_CAS_TIMEOUT": "40", "VERISTEP_WORKERS": "1"}


def _gone(pid: int, group: bool, within_s: float = 15.0) -> bool:
    """Poll until the process (or its whole group) no longer exists."""
    end = time.monotonic() + within_s
    while time.monotonic() < end:
        try:
            (os.killpg if group else os.kill)(pid, 0)
        except ProcessLookupError:
            return True
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # reap our own child so it stops existing
        time.sleep(0.2)
    return False


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def _start_check(tmp_path: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERISTEP_")}
    env.update(ENV, VERISTEP_DATA_DIR=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "veristep.cli", "check", *BUSY],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own group: the test can see every process it leaves
    )
    end = time.monotonic() + 60
    while not _children(proc.pid) and time.monotonic() < end:  # the forkserver and workers
        time.sleep(0.2)
    time.sleep(3)  # let the worker start on the expansion
    return proc


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_check_stops_on_a_signal_says_so_and_leaves_no_worker(tmp_path: Path, sig) -> None:
    proc = _start_check(tmp_path)
    assert proc.poll() is None, "the check ended before it could be interrupted"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    text = err.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text and len(text.strip().splitlines()) == 1, text
    assert text.startswith("veristep check: ") and ("interrupted" in text or "SIGTERM" in text)
    assert _gone(proc.pid, group=True), "a CAS worker outlived the interrupted check"


def test_killed_check_leaves_no_worker_and_no_broken_pipe_noise(tmp_path: Path) -> None:
    proc = _start_check(tmp_path)
    proc.kill()  # kill -9: no cleanup code runs in the parent at all
    _, err = proc.communicate(timeout=30)
    assert _gone(proc.pid, group=True), "a CAS worker outlived kill -9 of its check"
    assert "BrokenPipe" not in err.decode()


def _sleep_forever(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_killing_pool_kills_workers_instead_of_draining_the_queue() -> None:
    executor = ProcessPoolExecutor(max_workers=2, initializer=ignore_interrupts)
    with pytest.raises(KeyboardInterrupt), killing_pool(executor) as pool:
        futures = [pool.submit(_sleep_forever, 300) for _ in range(6)]
        time.sleep(1)  # let the workers start their first tasks
        processes = list(pool._processes.values())
        raise KeyboardInterrupt
    # The pool's own manager thread reaps the killed workers and fails the tasks already
    # handed to the call queue (those cannot be cancelled) a moment later, in the background;
    # the promise is that all of it is over within seconds, not after a 300 s task.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (
        any(p.is_alive() for p in processes)
        or not all(f.cancelled() or f.done() for f in futures[2:])
    ):
        time.sleep(0.05)
    assert processes and all(not p.is_alive() for p in processes)
    assert all(f.cancelled() or f.done() for f in futures[2:])


def test_killing_pool_is_over_when_it_reraises() -> None:
    # The pool's manager thread closes its wake-up pipe as it ends; still running at the
    # interpreter's exit, it raced the exit handler that writes to that pipe, and an interrupted
    # command printed an "Exception ignored … Bad file descriptor" traceback (about 1 run in 15).
    executor = ProcessPoolExecutor(max_workers=2, initializer=ignore_interrupts)
    with pytest.raises(KeyboardInterrupt), killing_pool(executor) as pool:
        futures = [pool.submit(_sleep_forever, 300) for _ in range(6)]
        time.sleep(1)
        manager = pool._executor_manager_thread
        raise KeyboardInterrupt
    assert manager is not None and not manager.is_alive()
    assert all(f.done() for f in futures)  # failed or cancelled, none left waiting


def test_prover_in_its_own_session_dies_with_a_killed_parent(tmp_path: Path) -> None:
    """E runs in a session of its own (so our timeout reaches its helpers); kill -9 of the
    process that started it, or of that process's group, must still take it down."""
    code = (
        "from veristep.core.subprocesses import run_with_deadline\n"
        "run_with_deadline(['sleep', '300'], timeout_s=600, memory_mb=None)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    end = time.monotonic() + 60
    while not _children(parent.pid) and time.monotonic() < end:
        time.sleep(0.2)
    prover = _children(parent.pid)
    assert prover, "the program did not start"
    os.killpg(parent.pid, signal.SIGKILL)  # the "group kill" of the issue
    parent.wait(timeout=30)
    assert _gone(prover[0], group=False), "the program outlived its killed parent"


def _screened(db: Path) -> int:
    """Laws the screening has committed so far (0 while the database is not there yet)."""
    if not db.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)) as conn:
            return int(conn.execute("SELECT count(*) FROM laws").fetchone()[0])
    except sqlite3.Error:  # created but not yet initialised, or locked for a moment
        return 0


def _distinct_laws(leaves: int, count: int) -> list[str]:
    """``count`` laws x = t, t a product of ``leaves`` variables, no two equal up to renaming."""
    laws: list[str] = []
    for shape in _shapes(leaves):
        for names in itertools.product("yzwuvx", repeat=leaves):
            used = list(dict.fromkeys(("x", *names)))  # variables in order of first appearance
            if used == ["x", "y", "z", "w", "u", "v"][: len(used)]:  # the renaming's canonical form
                laws.append("x = " + shape.format(*names))
                if len(laws) == count:
                    return laws
    return laws


def _shapes(leaves: int) -> list[str]:
    """Every bracketing of a product of ``leaves`` factors, as a format string."""
    if leaves == 1:
        return ["{}"]
    return [
        f"({left}) ◇ ({right})".replace("({})", "{}")
        for k in range(1, leaves)
        for left in _shapes(k)
        for right in _shapes(leaves - k)
    ]


@pytest.mark.skipif(shutil.which("eprover") is None, reason="E prover (Debian: eprover) missing")
def test_ctrl_c_stops_alps_screen_saves_and_says_how_to_resume(tmp_path: Path) -> None:
    # Enough distinct laws (a minute of screening here) that it is still running when it is
    # interrupted, on any machine: laws equal up to renaming are screened once, so 3 shapes of 4
    # leaves (156 laws, under 2 s) could end before the Ctrl-C came.
    laws = _distinct_laws(leaves=5, count=800)
    (tmp_path / "laws.txt").write_text("\n".join(laws) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERISTEP_")}
    env["VERISTEP_DATA_DIR"] = str(tmp_path / "data")
    argv = ["alps", "screen", "laws.txt", "--out", "out.jsonl", "--workers", "2", "--no-progress"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "veristep.cli", *argv], cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while _screened(tmp_path / "out.sqlite") == 0 and time.monotonic() < deadline:
        time.sleep(0.5)  # interrupt only once results are being saved
    assert proc.poll() is None, "the screening ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole foreground group
    try:
        _, err = proc.communicate(timeout=30)
    finally:  # a failed run must not leave the screening behind for the rest of the suite
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    text = err.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text and "resume" in text and "out.sqlite" in text, text
    assert _gone(proc.pid, group=True), "a screening worker or a prover outlived Ctrl-C"
    # --out holds the laws finished before the interrupt, one JSON object a line
    exported = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert "out.jsonl" in text and 0 < len(exported) < len(laws), text
    assert all(json.loads(line)["law"] in laws for line in exported)


@pytest.mark.skipif(shutil.which("coqtop") is None, reason="coqtop (Debian: coq) missing")
def test_coqtop_session_dies_with_a_killed_parent(tmp_path: Path) -> None:
    """A proof search keeps coqtop open in its own session; kill -9 of the search's group must
    take coqtop down too, also while it computes (then it does not notice its stdin close)."""
    code = (
        "import time\n"
        "from veristep.formal.backends.coqtop import CoqtopSession\n"
        "session = CoqtopSession(tactic_timeout_s=300)\n"
        "session.start()\n"
        "busy = b'Require Import NArith. '\n"
        "busy += b'Eval vm_compute in (N.iter 100000000000%N (fun n => n) 0%N).\\n'\n"
        "session._proc.stdin.write(busy)\n"  # minutes of work in constant memory
        "session._proc.stdin.flush()\n"
        "time.sleep(1)\n"
        "print('ready', flush=True)\n"
        "time.sleep(300)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              start_new_session=True)  # fmt: skip
    assert parent.stdout is not None and parent.stdout.readline().strip() == b"ready"
    coqtop = _children(parent.pid)
    assert coqtop, "coqtop did not start"
    os.killpg(parent.pid, signal.SIGKILL)
    parent.wait(timeout=30)
    # well inside the 300 s its computation would take, and its tactic timeout
    assert _gone(coqtop[0], group=False, within_s=5), "coqtop outlived its killed parent"


def test_an_interrupted_program_ends_even_when_an_exit_handler_hangs() -> None:
    """After Ctrl-C the finished work is saved and the message printed; a library's exit handler
    (concurrent.futures joins its pool's manager thread) must not keep the program alive."""
    code = (
        "import atexit, sys, threading\n"
        "from veristep.core.interrupts import exit_soon\n"
        "atexit.register(threading.Event().wait)  # an exit handler that never returns\n"
        "exit_soon(130, grace_s=1)\n"
        "sys.exit(130)\n"
    )
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], timeout=60, check=False)
    assert done.returncode == 130 and time.monotonic() - began < 30
