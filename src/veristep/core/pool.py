"""A warm pool of killable worker processes for every SymPy call that can be slow.

Threads cannot stop SymPy: big-integer arithmetic runs in C and ignores every Python-level timeout.
A process can be killed, so each call runs in a worker process; past its deadline the worker is
killed and replaced, and the call reports ``"timeout"`` — never a value.

Workers come from a **forkserver** that has SymPy preloaded: forking from a single-threaded server
is safe even when the parent is multi-threaded (uvicorn), and a replacement worker is ready in
milliseconds instead of re-importing SymPy. Workers are started without the parent's main
script (``core.mainless``): a script without an ``if __name__ == "__main__":`` guard runs once,
and one piped on stdin works. A worker that dies during start-up raises
:class:`WorkerStartError` instead of letting every call fail quietly.

``fn`` must be importable by reference (a module-level function; builtins and SymPy functions
qualify), and its arguments and result picklable (SymPy expressions are).

>>> import operator
>>> with CasPool(workers=1) as pool:
...     pool.call(operator.add, 2, 3, timeout_s=10).value
5
"""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import multiprocessing
import pickle
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from veristep.core import _cas_worker
from veristep.core.errors import VeristepError
from veristep.core.mainless import no_main_reimport

if TYPE_CHECKING:
    from veristep.core.settings import Settings

Status = Literal["ok", "timeout", "memory", "error", "crashed"]

_WORKER_MODULE = _cas_worker.__name__
_WARMUP_MODULE = "veristep.core._cas_warmup"  # the forkserver's warm-up (see that module)
_JOIN_S = 5.0  # a SIGKILLed process is reaped in milliseconds; this only bounds a pathology


@dataclass(frozen=True, slots=True)
class CasResult:
    """The outcome of one pool call.

    ``status``: ``ok`` (``value`` holds the result), ``timeout`` (killed at the deadline),
    ``memory`` (hit the address-space cap), ``error`` (the call raised; ``error`` is "Type:
    message"), ``crashed`` (the worker died, e.g. a segfault or an external kill). Only ``ok``
    carries a value; nothing else is evidence about the mathematics. ``ms`` is the call's wall time
    in the parent, waiting for a free worker included.
    """

    status: Status
    value: Any = None
    error: str | None = None
    ms: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


class WorkerStartError(VeristepError):
    """A worker process died or hung before it could serve a single call."""


class _NotDelivered(Exception):
    """The call could not be written to the worker: it is dead, and the call never ran."""


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(
        self, ctx: Any, memory_mb: int | None, preload: tuple[str, ...], nice: int = 0
    ) -> None:
        self.conn, child_conn = ctx.Pipe(duplex=True)
        self.process = ctx.Process(
            target=_cas_worker.serve,
            args=(child_conn, memory_mb, preload, nice),
            name="veristep-cas-worker",
            daemon=True,  # dies with the parent's interpreter, never outlives it
        )
        with no_main_reimport():  # serve lives in veristep: the caller's script must not rerun
            self.process.start()
        child_conn.close()  # the parent must not hold the child's end, or EOF never arrives
        self.ready = False
        self.tasks = 0
        self.memory_mb = memory_mb

    def wait_ready(self, timeout_s: float) -> None:
        if self.ready:
            return
        if not self.conn.poll(timeout_s):
            self.kill()
            raise WorkerStartError(f"CAS worker did not become ready within {timeout_s:g} s")
        try:
            kind, _pid = pickle.loads(self.conn.recv_bytes())
        except (EOFError, OSError):
            self.kill()
            raise WorkerStartError(_start_failure(self.process.exitcode, self.memory_mb)) from None
        if kind != "ready":
            self.kill()
            raise WorkerStartError(f"CAS worker sent {kind!r} instead of 'ready'")
        self.ready = True

    def run(self, payload: bytes, timeout_s: float) -> tuple[Status, Any, str | None]:
        """Send one call and wait at most ``timeout_s`` for its outcome."""
        self.tasks += 1
        try:
            self.conn.send_bytes(payload)
        except OSError:
            # The worker's end is closed, so it is dead and the call never started: safe to retry.
            raise _NotDelivered from None
        try:
            if not self.conn.poll(timeout_s):
                return "timeout", None, f"no result within {timeout_s:g} s; worker killed"
            reply = self.conn.recv_bytes()
        except (EOFError, OSError):
            self.process.join(_JOIN_S)
            return "crashed", None, f"worker died (exit code {self.process.exitcode})"
        try:
            status, value, error = pickle.loads(reply)
        except Exception as exc:
            return "error", None, f"result could not be loaded: {type(exc).__name__}: {exc}"
        return status, value, error

    def alive(self) -> bool:
        return self.process.is_alive()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(_JOIN_S)
        self.conn.close()


class CasPool:
    """A fixed number of warm, killable, recycled worker processes; safe to share between threads.

    ``memory_mb`` caps each worker's address space (``None``: no cap). A worker is replaced after
    a timeout, a memory error, a crash, and after ``max_tasks_per_worker`` calls (SymPy's caches
    only grow). ``preload`` names modules every worker imports before it reports ready;
    ``server_preload`` names modules the forkserver imports once, before it forks any worker (the
    caller's heavy modules: every worker then starts with them loaded).
    """

    def __init__(
        self,
        workers: int = 2,
        memory_mb: int | None = 2048,
        max_tasks_per_worker: int = 500,
        *,
        start_method: str = "forkserver",
        start_timeout_s: float = 60.0,
        preload: Sequence[str] = (),
        server_preload: Sequence[str] = (),
        nice: int = 0,
    ) -> None:
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, got {workers}")
        if max_tasks_per_worker < 1:
            raise ValueError(f"max_tasks_per_worker must be positive, got {max_tasks_per_worker}")
        self._ctx = _context(start_method, tuple(server_preload))
        self._memory_mb = memory_mb
        self._max_tasks = max_tasks_per_worker
        self._start_timeout_s = start_timeout_s
        self._preload = tuple(preload)
        self._nice = nice  # added to each worker's niceness: background lanes yield the CPU
        self._cond = threading.Condition()
        self._spawn_lock = threading.Lock()
        self._closed = False
        self._missing = 0  # slots whose worker died and could not be replaced yet
        self._idle: deque[_Worker] = deque(self._spawn() for _ in range(workers))
        self.size = workers

    def call(
        self, fn: Callable[..., Any], *args: Any, timeout_s: float, **kwargs: Any
    ) -> CasResult:
        """Run ``fn(*args, **kwargs)`` in a worker; past ``timeout_s`` seconds the worker is killed.

        ``timeout_s`` bounds the call's run time in the worker; waiting for a free worker is not
        counted. Raises ``TypeError`` when the call cannot be sent (a lambda, a closure),
        ``WorkerStartError`` when workers cannot start, ``RuntimeError`` once the pool is closed.
        """
        if not timeout_s > 0:
            raise ValueError(f"timeout_s must be positive, got {timeout_s!r}")
        payload = _pickle_call(fn, args, kwargs)
        start = time.perf_counter()
        outcome = self._attempt(payload, timeout_s)
        if outcome is None:  # the first worker had died unnoticed; one retry on a fresh one
            outcome = self._attempt(payload, timeout_s)
        if outcome is None:
            outcome = ("crashed", None, "two workers in a row died before the call reached them")
        return CasResult(*outcome, (time.perf_counter() - start) * 1000)

    def _attempt(self, payload: bytes, timeout_s: float) -> tuple[Status, Any, str | None] | None:
        """One call on one worker; None when the worker turned out dead before receiving it."""
        worker = self._acquire()
        healthy, replace = False, True
        try:
            worker.wait_ready(self._start_timeout_s)
            status, value, error = worker.run(payload, timeout_s)
            healthy = status in ("ok", "error")
            return status, value, error
        except _NotDelivered:
            return None
        except BaseException:
            # Ctrl-C or SIGTERM: the process is ending; forking a replacement now would only
            # delay the exit (close() waits for it) and leave a worker starting up as we go.
            replace = False
            raise
        finally:
            self._release(worker, healthy, replace)

    def close(self) -> None:
        """Kill idle workers now and busy ones as their calls finish; later calls raise."""
        with self._cond:
            self._closed = True
            idle, self._idle = list(self._idle), deque()
            self._cond.notify_all()
        for worker in idle:
            worker.kill()
        # Wait for a replacement being forked right now: a client that exits halfway through
        # its request makes the forkserver print a traceback (EOFError) on the shared stderr.
        # No spawn starts after this, since _spawn checks _closed under the same lock.
        if self._spawn_lock.acquire(timeout=_JOIN_S):
            self._spawn_lock.release()

    def __enter__(self) -> CasPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _spawn(self) -> _Worker:
        with self._spawn_lock:
            if self._closed:
                raise WorkerStartError("the pool is closed")
            try:
                return _Worker(self._ctx, self._memory_mb, self._preload, self._nice)
            except OSError as exc:  # out of processes or file descriptors, forkserver gone
                raise WorkerStartError(f"could not start a CAS worker: {exc}") from exc

    def _acquire(self) -> _Worker:
        with self._cond:
            # Every busy worker comes back within its call's deadline plus a kill, and a worker
            # that could not be replaced is counted in _missing, so this wait always ends.
            while not self._idle and not self._missing and not self._closed:
                self._cond.wait()
            if self._closed:
                raise RuntimeError("CasPool is closed")
            # The most recently used worker first: its SymPy cache and solution sets are warm,
            # and a file judged one call at a time keeps meeting the same expressions.
            worker = self._idle.pop() if self._idle else None
            if worker is None:
                self._missing -= 1
        if worker is not None and not (worker.ready and not worker.alive()):
            return worker
        if worker is not None:
            # Killed from outside while idle: the call has not started, so a fresh worker runs it.
            worker.kill()
        try:
            return self._spawn()
        except BaseException:
            self._put_back(None)
            raise

    def _release(self, worker: _Worker, healthy: bool, replace: bool = True) -> None:
        if healthy and worker.tasks < self._max_tasks:
            self._put_back(worker)
            return
        worker.kill()
        with self._cond:
            closed = self._closed
        if closed:
            return
        if not replace:
            self._put_back(None)  # a later call, if any, starts the worker it needs
            return
        # Replace now rather than on the next call, so that call finds a warm worker; in a thread,
        # so the caller gets its timeout the moment the deadline passes.
        threading.Thread(target=self._replace, name="veristep-cas-respawn", daemon=True).start()

    def _replace(self) -> None:
        try:
            fresh = self._spawn()
        except WorkerStartError:
            fresh = None
        self._put_back(fresh, cold=True)

    def _put_back(self, worker: _Worker | None, cold: bool = False) -> None:
        """Return a worker to the idle queue, or record a slot to refill (``None``)."""
        with self._cond:
            if self._closed:
                if worker is not None:
                    worker.kill()
                return
            if worker is None:
                self._missing += 1
            else:
                # A fresh worker waits at the cold end, behind the warm ones.
                (self._idle.appendleft if cold else self._idle.append)(worker)
            self._cond.notify()


def _context(start_method: str, server_preload: tuple[str, ...] = ()) -> Any:
    if start_method == "fork":
        raise ValueError(
            "start_method='fork' is unsafe: forking a multi-threaded parent (a web server) can "
            "deadlock the child; use 'forkserver' or 'spawn'"
        )
    if start_method not in multiprocessing.get_all_start_methods():
        raise ValueError(
            f"start method {start_method!r} is not available here; "
            f"available: {', '.join(multiprocessing.get_all_start_methods())}"
        )
    ctx = multiprocessing.get_context(start_method)
    if start_method == "forkserver":
        # Takes effect only if the server is not running yet; otherwise workers import SymPy
        # themselves — slower, still correct.
        ctx.set_forkserver_preload([_WORKER_MODULE, _WARMUP_MODULE, *server_preload])
    return ctx


def _pickle_call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    qualname = getattr(fn, "__qualname__", "")
    if "<lambda>" in qualname or "<locals>" in qualname:
        raise TypeError(
            f"{qualname} cannot run in a worker process: pass a module-level function instead"
        )
    try:
        return pickle.dumps((fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:
        raise TypeError(f"call to {qualname or fn!r} cannot be sent to a worker: {exc}") from exc


def _start_failure(exitcode: int | None, memory_mb: int | None) -> str:
    return (
        f"CAS worker exited (code {exitcode}) before it was ready. Each worker imports the main "
        "script: a script that creates a CasPool or calls run_cas at top level needs an "
        "`if __name__ == '__main__':` guard. Otherwise the memory cap "
        f"({memory_mb} MB) may be too small to start. The worker's traceback is on stderr."
    )


# --- lanes: slow work must not starve fast work ------------------------------------------------
# A server runs many requests at once over one small pool; eight slow checks used to hold every
# worker, and a trivial check waited 12 s for one. A request opened with request_lane() sends its
# CAS calls to a separate fast lane until one of them is cut at FAST_CALL_S: that call runs again
# in the slow lane (low CPU priority) with the rest of its budget, and so does every later call of
# that request. A fast-lane worker is never held longer than FAST_CALL_S, so a cheap request never
# waits behind an expensive one; a request is judged by what its calls cost, never by how long it
# waited. Without a lane (the command line: one request per process) calls use the shared pool.
FAST_CALL_S = 0.5
FAST_WORKERS = 2  # two, so that one respawning after a cut call never closes the lane
SLOW_NICE = 10  # the slow lane's workers yield the CPU to the fast lane and the server itself


@dataclass
class Lane:
    """Whether one request has been moved to the slow lane."""

    slow: bool = False


_LANE: contextvars.ContextVar[Lane | None] = contextvars.ContextVar("veristep_lane", default=None)


@contextmanager
def request_lane() -> Iterator[Lane]:
    """Mark the CAS calls made in this context (thread) as one request's, for fair scheduling."""
    lane = Lane()
    token = _LANE.set(lane)
    try:
        yield lane
    finally:
        _LANE.reset(token)


# One pool per shape, shared by the whole process. This is the one deliberate global: worker
# processes are an OS resource (each holds SymPy warm, ~100 MB), so every caller of run_cas in
# a process should share them instead of multiplying them; the pool is thread-safe and holds no
# mathematical state, and its shape comes from the Settings passed in, not from the environment.
_SHARED: dict[tuple[str, int, int | None, int], CasPool] = {}
_SHARED_LOCK = threading.Lock()
# Modules the shared pools' forkserver imports before forking (see preload_in_workers). The pool
# lives on the ground floor and must not name the layers above it; they register themselves.
_SERVER_PRELOAD: list[str] = []


def preload_in_workers(*modules: str) -> None:
    """Ask the shared pools' forkserver to import ``modules`` before it forks a worker.

    Called by a layer whose functions run in the workers (the grounding checks), so that every
    worker starts with them loaded. Takes effect for pools created afterwards, and only while the
    forkserver has not started yet; later, workers import those modules on their first call.
    """
    with _SHARED_LOCK:
        _SERVER_PRELOAD.extend(m for m in modules if m not in _SERVER_PRELOAD)


def shared_pool(settings: Settings, lane: str = "shared") -> CasPool:
    """The process-wide pool for ``settings``' shape, created on first use, closed at exit;
    ``lane="fast"`` is the small pool of the fast lane, ``"slow"`` the low-priority one."""
    workers = FAST_WORKERS if lane == "fast" else settings.pool_workers
    key = (lane, workers, settings.cas_memory_mb, settings.worker_max_tasks)
    with _SHARED_LOCK:
        pool = _SHARED.get(key)
        if pool is None:
            nice = SLOW_NICE if lane == "slow" else 0
            pool = CasPool(*key[1:], server_preload=_SERVER_PRELOAD, nice=nice)
            if not _SHARED:
                atexit.register(_close_shared)
            _SHARED[key] = pool
        return pool


def start_shared_pool(settings: Settings, preload: Sequence[str] = ()) -> None:
    """Create the shared pool in a background thread and return at once; its forkserver imports
    ``preload`` (see :func:`preload_in_workers`) before it forks a worker.

    The forkserver imports SymPy (a second or more) while the caller imports its own copy and
    parses, instead of one after the other. A pool that cannot start says so at the first call,
    from the caller's thread, with the located message; here the failure is left for then.
    """

    preload_in_workers(*preload)

    def create() -> None:
        with contextlib.suppress(Exception):
            shared_pool(settings)

    starter = threading.Thread(target=create, name="veristep-cas-start", daemon=True)
    starter.start()
    # A caller that exits at once (bad input found after this call) must not leave the pool
    # half-started: a worker forked as the process goes makes the forkserver print a traceback.
    atexit.register(_finish_start, starter)


def _finish_start(starter: threading.Thread) -> None:
    starter.join(timeout=2 * _JOIN_S)
    _close_shared()


def run_cas(
    fn: Callable[..., Any],
    *args: Any,
    settings: Settings,
    timeout_s: float | None = None,
    **kwargs: Any,
) -> CasResult:
    """Run ``fn`` in the shared pool; the deadline defaults to ``settings.cas_timeout_s``.

    Inside :func:`request_lane` the call tries the fast lane first (see the lanes above).
    """
    budget = settings.cas_timeout_s if timeout_s is None else timeout_s
    lane = _LANE.get()
    if lane is None:
        return shared_pool(settings).call(fn, *args, timeout_s=budget, **kwargs)
    if not lane.slow:
        cut = min(budget, FAST_CALL_S)
        first = shared_pool(settings, "fast").call(fn, *args, timeout_s=cut, **kwargs)
        if first.status != "timeout" or budget <= cut:
            return first
        lane.slow = True  # this request is slow: demote it for good
        budget -= cut
    return shared_pool(settings, "slow").call(fn, *args, timeout_s=budget, **kwargs)


def close_shared_pools() -> None:
    """Kill every shared pool's workers now (a server on its way out)."""
    _close_shared()


def _close_shared() -> None:
    with _SHARED_LOCK:
        pools = list(_SHARED.values())
        _SHARED.clear()
    for pool in pools:
        pool.close()
