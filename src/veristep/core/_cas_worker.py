"""The loop a CAS worker process runs: receive a pickled call, run it, send back a pickled outcome.

The forkserver also preloads :mod:`veristep.core._cas_warmup` (SymPy) and the modules the layers
above registered (the grounding checks, see ``pool.preload_in_workers``), so
every worker forked from it starts warm instead of paying SymPy's ~1.3 s import again. This module
itself stays light: the parent imports it too, and must not wait for SymPy to start its pool.

Messages are ``pickle`` bytes over a ``multiprocessing`` pipe. Parent → worker: ``(fn, args,
kwargs)``. Worker → parent: first ``("ready", pid)``, then one ``(status, value, error)`` per call,
where status is ``"ok"``, ``"error"`` or ``"memory"``. Timeouts and crashes are decided by the
parent, which is the only side that can observe them.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import resource
import signal
import sys
import warnings
from collections.abc import Iterable
from multiprocessing.connection import Connection
from typing import Any

_MAX_ERROR_CHARS = 2000
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def serve(conn: Connection, memory_mb: int | None, preload: Iterable[str], nice: int = 0) -> None:
    """Worker entry point: cap memory, import ``preload``, announce readiness, serve until EOF.

    ``nice`` lowers the worker's CPU priority (a background lane must not slow the fast one).
    """
    if nice:
        os.nice(nice)
    # Ctrl-C in a terminal reaches the whole foreground group; the parent decides what to kill.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    # Workers share the parent's stderr, where only the parent may speak (one located line).
    warnings.simplefilter("ignore")
    if memory_mb is not None:
        limit = int(memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    for name in preload:
        importlib.import_module(name)
    try:
        conn.send_bytes(pickle.dumps(("ready", os.getpid())))
    except (BrokenPipeError, OSError):
        return  # the pool closed while this worker was starting: nobody to serve
    while True:
        try:
            request = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the parent closed the pipe or died: nothing left to serve
        try:
            conn.send_bytes(_answer(request))
        except (BrokenPipeError, EOFError, OSError):
            return  # the parent is gone: nobody is waiting for this answer


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this worker when its parent (the forkserver, which exits with the
    main process) dies: a killed ``veristep`` must not leave a worker computing on for seconds."""
    _release_forkserver()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the EOF on the pipe still ends the loop
        return
    if os.getppid() == 1:  # the parent died before the request took effect
        os._exit(0)


def _release_forkserver() -> None:
    """Close this worker's copy of the forkserver's "alive" pipe. The forkserver exits when every
    copy is closed; workers inherit one, so while any worker lived the forkserver outlived the main
    process, and the worker's death signal (which waits for the forkserver) never came."""
    from multiprocessing import forkserver

    fd = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_alive_fd", None)
    if isinstance(fd, int):
        with contextlib.suppress(OSError):
            os.close(fd)
        forkserver._forkserver._forkserver_alive_fd = None


_SYMPY_PARAMETERS = ("evaluate", "distribute", "exp_is_pow")


def sympy_parameters() -> tuple[Any, ...] | None:
    """SymPy's global switches (``with evaluate(False)`` sets one), or None before SymPy is
    imported; read without importing SymPy, which this module must not pay for."""
    module = sys.modules.get("sympy.core.parameters")
    if module is None:
        return None
    return tuple(getattr(module.global_parameters, name) for name in _SYMPY_PARAMETERS)


def restore_sympy_parameters(saved: tuple[Any, ...] | None) -> None:
    """Put SymPy's global switches back as they were before a call.

    A call cut short inside ``with evaluate(False)`` (an alarm, a RecursionError or a
    MemoryError that lands while the block restores the switch, which first clears SymPy's cache)
    can leave ``evaluate`` off for every later call in the process: every expression built
    unevaluated, and verdicts computed on them. Setting a switch clears the cache, so entries
    made under the wrong setting go with it."""
    module = sys.modules.get("sympy.core.parameters")
    if module is None:
        return
    defaults = (True, True, False)
    for name, value in zip(_SYMPY_PARAMETERS, saved or defaults, strict=True):
        if getattr(module.global_parameters, name) != value:
            setattr(module.global_parameters, name, value)


def _answer(request: bytes) -> bytes:
    try:
        fn, args, kwargs = pickle.loads(request)
    except MemoryError as exc:
        return _outcome("memory", None, _describe(exc))
    except BaseException as exc:
        return _outcome("error", None, f"could not load the call in the worker: {_describe(exc)}")
    saved = sympy_parameters()
    try:
        try:
            value = fn(*args, **kwargs)
        finally:
            restore_sympy_parameters(saved)
    except MemoryError as exc:
        return _outcome("memory", None, _describe(exc))
    except BaseException as exc:
        # SystemExit, RecursionError and friends are the call's failure, not the worker's.
        return _outcome("error", None, _describe(exc))
    try:
        return pickle.dumps(("ok", value, None), protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError as exc:
        return _outcome("memory", None, _describe(exc))
    except BaseException as exc:
        return _outcome("error", None, f"result could not be sent back: {_describe(exc)}")


def _outcome(status: str, value: Any, error: str | None) -> bytes:
    return pickle.dumps((status, value, error), protocol=pickle.HIGHEST_PROTOCOL)


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    if len(text) > _MAX_ERROR_CHARS:
        text = text[:_MAX_ERROR_CHARS] + "…"
    return text
