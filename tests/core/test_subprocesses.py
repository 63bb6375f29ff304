"""run_with_deadline against real programs: deadlines, memory caps, process groups, bad input."""

from __future__ import annotations

import os
import sys
import time

import pytest

from veristep.core.subprocesses import run_with_deadline


def test_output_and_exit_code_are_reported() -> None:
    r = run_with_deadline(
        [sys.executable, "-c", "import sys; print('out'); print('err', file=sys.stderr); exit(3)"],
        timeout_s=20,
        memory_mb=1024,
    )
    assert (r.stdout, r.stderr, r.returncode, r.timed_out, r.ok) == (
        "out\n",
        "err\n",
        3,
        False,
        False,
    )
    assert r.ms > 0


def test_input_is_fed_to_stdin() -> None:
    r = run_with_deadline(["wc", "-l"], timeout_s=10, memory_mb=256, input="a\nb\nc\n")
    assert r.ok and r.stdout.strip() == "3"


def test_timeout_kills_within_deadline() -> None:
    start = time.perf_counter()
    r = run_with_deadline(["sleep", "30"], timeout_s=0.5, memory_mb=256)
    elapsed = time.perf_counter() - start
    assert r.timed_out and not r.ok and r.returncode < 0
    assert elapsed < 1.5


def test_timeout_kills_the_whole_process_group(tmp_path) -> None:
    # The shell starts a grandchild that writes its pid, then both sleep; the group kill must
    # take the grandchild too, not only the direct child.
    pidfile = tmp_path / "pid"
    script = f"sleep 30 & echo $! > {pidfile}; wait"
    r = run_with_deadline(["sh", "-c", script], timeout_s=0.5, memory_mb=256)
    assert r.timed_out
    pid = int(pidfile.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("grandchild survived the timeout")


def test_memory_cap_makes_allocation_fail() -> None:
    code = "b = bytearray(800 * 1024 * 1024); print('allocated')"
    capped = run_with_deadline([sys.executable, "-c", code], timeout_s=30, memory_mb=300)
    assert capped.returncode != 0 and "MemoryError" in capped.stderr
    free = run_with_deadline([sys.executable, "-c", code], timeout_s=30, memory_mb=None)
    assert free.ok and "allocated" in free.stdout


def test_arguments_are_not_reinterpreted_by_the_shim() -> None:
    args = ["$HOME", "a b", "'quoted'", ";", "*"]
    r = run_with_deadline(["printf", "%s\\n", *args], timeout_s=10, memory_mb=256)
    assert r.stdout.splitlines() == args


def test_missing_program_and_bad_budget_are_clear_errors() -> None:
    with pytest.raises(FileNotFoundError, match="no-such-prover"):
        run_with_deadline(["no-such-prover", "--x"], timeout_s=1, memory_mb=256)
    with pytest.raises(ValueError, match="timeout_s"):
        run_with_deadline(["true"], timeout_s=0, memory_mb=256)
    with pytest.raises(ValueError, match="memory_mb"):
        run_with_deadline(["true"], timeout_s=1, memory_mb=-5)


def test_a_kill_scope_stops_its_program_from_another_thread_and_starts_no_more() -> None:
    import threading

    from veristep.core.subprocesses import KillScope

    scope = KillScope()
    threading.Timer(0.3, scope.kill).start()
    start = time.monotonic()
    with scope.active():
        killed = run_with_deadline(["sleep", "30"], timeout_s=30, memory_mb=None)
        after = run_with_deadline(["echo", "late"], timeout_s=5, memory_mb=None)
    assert time.monotonic() - start < 5
    assert killed.cancelled and not killed.timed_out and not killed.ok
    assert after.cancelled and after.stdout == ""  # never started once the scope was killed


def test_a_program_outside_any_scope_is_not_touched_by_a_kill() -> None:
    from veristep.core.subprocesses import KillScope

    scope = KillScope()
    scope.kill()
    result = run_with_deadline(["echo", "free"], timeout_s=5, memory_mb=None)
    assert result.ok and result.stdout == "free\n" and not result.cancelled
