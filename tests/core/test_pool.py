"""The killable CAS pool against real SymPy work: explosions, memory bombs, crashes, threads."""

from __future__ import annotations

import operator
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sympy
from sympy import sqrt

from veristep.core.pool import CasPool, CasResult, run_cas, shared_pool
from veristep.core.settings import Settings

x = sympy.Symbol("x")
DEADLINE_S = 1.5


@pytest.fixture(scope="module")
def pool():
    with CasPool(workers=2, memory_mb=1024) as p:
        yield p


def _nested_radical():
    s = sum(sqrt(p) for p in (2, 3, 5, 7, 11, 13, 17))
    return sqrt(s) * sqrt(s + 1) - sqrt(s**2 + s)


def _wait_dead(pid: int) -> None:
    """Until the kernel has closed the process's files (zombie or gone), at most 5 s."""
    for _ in range(100):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except (FileNotFoundError, ProcessLookupError):  # gone, or reaped between open and read
            return
        if stat.rsplit(")", 1)[1].split()[0] in ("Z", "X"):
            return
        time.sleep(0.05)
    pytest.fail(f"process {pid} did not die")


def assert_serves(pool: CasPool) -> None:
    r = pool.call(sympy.expand, (x + 1) ** 3, timeout_s=10)
    assert r.status == "ok" and r.value == x**3 + 3 * x**2 + 3 * x + 1


@pytest.mark.parametrize(
    ("fn", "arg"),
    [
        (sympy.expand, (x + 1) ** (10**6)),
        (sympy.factorial, sympy.Integer(10**7)),
        (sympy.simplify, _nested_radical()),
    ],
    ids=["expand-power", "factorial", "nested-radical-simplify"],
)
def test_explosions_time_out_within_deadline_and_pool_keeps_serving(pool, fn, arg) -> None:
    start = time.perf_counter()
    r = pool.call(fn, arg, timeout_s=DEADLINE_S)
    elapsed = time.perf_counter() - start
    assert r.status == "timeout" and r.value is None and "killed" in r.error
    assert elapsed < DEADLINE_S + 1.0
    assert_serves(pool)


def test_memory_bomb_reports_memory(pool) -> None:
    r = pool.call(bytearray, 3 * 1024**3, timeout_s=10)
    assert r.status == "memory" and r.value is None and "MemoryError" in r.error
    assert_serves(pool)


def test_exception_in_worker_is_an_error_with_its_message(pool) -> None:
    r = pool.call(operator.truediv, 1, 0, timeout_s=10)
    assert r == CasResult("error", None, "ZeroDivisionError: division by zero", r.ms)
    r = pool.call(sympy.sympify, "x +* 2", timeout_s=10)
    assert r.status == "error" and r.error.startswith("SympifyError")


def test_system_exit_in_call_does_not_end_the_worker() -> None:
    with CasPool(workers=1) as p:
        pid = p.call(os.getpid, timeout_s=10).value
        r = p.call(sys.exit, 3, timeout_s=10)
        assert (r.status, r.error) == ("error", "SystemExit: 3")
        assert p.call(os.getpid, timeout_s=10).value == pid


def test_unpicklable_result_is_an_error_not_a_crash(pool) -> None:
    r = pool.call(threading.Lock, timeout_s=10)
    assert r.status == "error" and "could not be sent back" in r.error
    assert_serves(pool)


def test_sympy_values_round_trip(pool) -> None:
    r = pool.call(sympy.solveset, x**2 - 4, x, sympy.S.Reals, timeout_s=10)
    assert r.ok and r.value == sympy.FiniteSet(-2, 2)


def test_idle_worker_killed_externally_is_replaced() -> None:
    with CasPool(workers=1) as p:
        pid = p.call(os.getpid, timeout_s=10).value
        os.kill(pid, signal.SIGKILL)
        _wait_dead(pid)
        r = p.call(os.getpid, timeout_s=10)
        assert r.ok and r.value != pid


def test_busy_worker_killed_externally_reports_crashed() -> None:
    with CasPool(workers=1) as p:
        pid = p.call(os.getpid, timeout_s=10).value
        threading.Timer(0.3, os.kill, (pid, signal.SIGKILL)).start()
        start = time.perf_counter()
        r = p.call(time.sleep, 20, timeout_s=30)
        assert r.status == "crashed" and time.perf_counter() - start < 5
        assert_serves(p)


def test_concurrent_calls_from_threads_run_in_parallel_and_correctly(pool) -> None:
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=4) as ex:
        sleeps = [ex.submit(pool.call, time.sleep, 1.0, timeout_s=10) for _ in range(4)]
        factored = [ex.submit(pool.call, sympy.factor, x**2 - k**2, timeout_s=10) for k in range(8)]
    assert all(f.result().ok for f in sleeps)
    for k, f in enumerate(factored):
        assert f.result().value == sympy.factor(x**2 - k**2)
    # Four one-second sleeps on two workers: about 2 s in parallel, 4 s if serialised.
    assert time.perf_counter() - start < 3.5


def test_workers_are_recycled_after_max_tasks() -> None:
    with CasPool(workers=1, max_tasks_per_worker=3) as p:
        pids = [p.call(os.getpid, timeout_s=10).value for _ in range(6)]
    assert pids[0] == pids[1] == pids[2] != pids[3] == pids[4] == pids[5]


def test_calls_one_at_a_time_stay_on_the_warm_worker_and_a_fresh_one_waits() -> None:
    with CasPool(workers=2) as p:
        warm = {p.call(os.getpid, timeout_s=10).value for _ in range(5)}
        assert len(warm) == 1  # its SymPy cache serves every call of a sequential run
        (pid,) = warm
        assert p.call(time.sleep, 5, timeout_s=0.3).status == "timeout"  # kills the warm one
        time.sleep(0.5)  # its replacement is started in the background
        other = p.call(os.getpid, timeout_s=10).value
        assert other != pid
        # The worker that had been idle all along is used again: the replacement waits behind it.
        assert p.call(os.getpid, timeout_s=10).value == other


def test_bad_calls_are_clear_errors(pool) -> None:
    with pytest.raises(TypeError, match="module-level function"):
        pool.call(lambda: 1, timeout_s=1)
    with pytest.raises(ValueError, match="timeout_s"):
        pool.call(os.getpid, timeout_s=0)
    with pytest.raises(ValueError, match="unsafe"):
        CasPool(start_method="fork")


def test_closed_pool_refuses_calls() -> None:
    p = CasPool(workers=1)
    p.close()
    with pytest.raises(RuntimeError, match="closed"):
        p.call(os.getpid, timeout_s=1)


def test_script_without_main_guard_runs_once(tmp_path) -> None:
    # Workers never import the caller's main script, so its top level runs once, in the parent.
    script = tmp_path / "unguarded.py"
    script.write_text(
        textwrap.dedent(
            """
            import operator
            from veristep.core.pool import CasPool
            print("top level ran")
            print(CasPool(workers=1).call(operator.add, 1, 2, timeout_s=5).value)
            """
        )
    )
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n") == ["top level ran", "3", ""]


def test_run_cas_uses_the_shared_pool_and_settings_deadline() -> None:
    settings = Settings().replace(pool_workers=1, cas_timeout_s=0.5)
    assert shared_pool(settings) is shared_pool(settings)
    assert run_cas(operator.mul, 6, 7, settings=settings).value == 42
    start = time.perf_counter()
    assert run_cas(time.sleep, 10, settings=settings).status == "timeout"
    assert time.perf_counter() - start < 1.5
    assert run_cas(time.sleep, 0.6, settings=settings, timeout_s=5).ok


def test_spawn_start_method_serves_and_recovers() -> None:
    with CasPool(workers=1, start_method="spawn") as p:
        assert p.call(sympy.factor, x**2 - 1, timeout_s=60).value == (x - 1) * (x + 1)
        assert p.call(time.sleep, 10, timeout_s=0.3).status == "timeout"
        assert_serves(p)


def test_the_forkserver_imports_the_modules_its_caller_names(tmp_path) -> None:
    # A fresh process: the forkserver is started once per process, by its first pool.
    script = tmp_path / "preloaded.py"
    script.write_text(
        textwrap.dedent(
            """
            from veristep.core.pool import CasPool

            LOADED = "'veristep.grounding.cascade' in __import__('sys').modules"
            if __name__ == "__main__":
                with CasPool(workers=1, server_preload=["veristep.grounding.cascade"]) as p:
                    print(p.call(eval, LOADED, timeout_s=30).value)
            """
        )
    )
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert proc.stdout.strip() == "True", proc.stderr


def test_the_pool_itself_names_no_module_above_the_ground_floor() -> None:
    import veristep.core._cas_warmup as warmup
    import veristep.core.pool as pool_module

    for module in (pool_module, warmup):
        assert "veristep.grounding" not in Path(module.__file__).read_text()


def test_a_call_that_leaves_sympy_unevaluated_does_not_poison_the_next_one():
    # A call cut short inside `with evaluate(False)` can leave SymPy's switch off for the rest of
    # the worker's life; the worker puts it back after every call.
    switch = "__import__('sympy').core.parameters.global_parameters"
    with CasPool(workers=1, memory_mb=1024) as one:
        switch_off_and_fail = f"{switch}.__setattr__('evaluate', False) or 1 / 0"
        cut_short = one.call(eval, switch_off_and_fail, timeout_s=10)
        assert cut_short.status == "error" and "ZeroDivisionError" in (cut_short.error or "")
        after = one.call(eval, f"{switch}.evaluate", timeout_s=10)
        assert after.status == "ok" and after.value is True
        product = one.call(eval, "str(__import__('sympy').Mul(1, 1))", timeout_s=10)
        assert product.value == "1"
