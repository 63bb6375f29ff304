"""Stopping long commands cleanly: Ctrl-C and SIGTERM end a run at once, with no child left.

A ``ProcessPoolExecutor`` left by an exception waits, in its ``__exit__``, for every queued task:
Ctrl-C on a screening run kept its workers busy for minutes and saved nothing more. Its workers
also share the terminal's process group, so each would print its own KeyboardInterrupt
traceback. :func:`killing_pool` and :func:`ignore_interrupts` fix both; :class:`Interrupted`
carries the sentence that says what was kept and how to resume.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any

_JOIN_S = 2.0
_EXIT_GRACE_S = 10.0


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM, with what was saved and how to resume (``str`` of it)."""


def ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C reaches the whole foreground group; only the parent decides."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def raise_on_sigterm() -> None:
    """Make SIGTERM unwind like Ctrl-C (``finally`` blocks run, children are killed) instead of
    ending the interpreter on the spot. Main thread only; elsewhere it does nothing."""
    with suppress(ValueError):  # not the main thread
        signal.signal(signal.SIGTERM, _terminate)


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt("terminated (SIGTERM)")


@contextmanager
def killing_pool(pool: ProcessPoolExecutor) -> Iterator[ProcessPoolExecutor]:
    """Use ``pool``; on normal exit wait for it as usual, on an interrupt or error kill its
    workers at once (their queued tasks are cancelled, not run)."""
    try:
        yield pool
    except BaseException:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with suppress(Exception):
                process.kill()
        for process in processes:
            with suppress(Exception):
                process.join(_JOIN_S)
        _join_manager(manager)
        raise
    else:
        pool.shutdown(wait=True)


def _join_manager(manager: threading.Thread | None) -> None:
    """Wait (briefly) for a pool's manager thread, which notices the killed workers and closes
    its wake-up pipe. Left running, it races the interpreter's exit handler, which writes to that
    pipe unless it is marked closed: CPython 3.11 checks the mark and writes without a lock, so a
    close landing in between printed an "Exception ignored … Bad file descriptor" traceback after
    an interrupted run had said what it saved."""
    if manager is not None and manager is not threading.current_thread():
        with suppress(Exception):
            manager.join(_JOIN_S)


def exit_soon(code: int, grace_s: float = _EXIT_GRACE_S) -> None:
    """After an interrupt, make sure the process ends within ``grace_s`` seconds with ``code``.

    What was finished is saved before the interrupt message is printed; what is left is the
    interpreter's exit, where library exit handlers join threads (``concurrent.futures`` joins
    its pool manager, which can wait on a queue whose killed workers never answer). A daemon
    timer keeps running while those handlers do, and ends the process if they have not.
    """

    def _end() -> None:
        with suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)

    timer = threading.Timer(grace_s, _end)
    timer.daemon = True
    timer.start()
