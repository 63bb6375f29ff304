"""Start worker processes without re-running the caller's main script.

Under ``spawn`` and ``forkserver`` every child first imports the parent's ``__main__`` (so that
functions defined there can be unpickled). Every function veristep sends to a worker lives in an
importable module, so that import is never needed, and it is harmful: a script without an
``if __name__ == "__main__":`` guard runs again inside each worker, and a script piped on stdin
cannot be found at all (``FileNotFoundError: '<stdin>'``). Inside :func:`no_main_reimport` the
children started by this thread are told nothing about the main module, so they skip that import.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import spawn
from typing import Any

_MAIN_KEYS = ("init_main_from_path", "init_main_from_name")
_state = threading.local()  # per thread: other threads' process starts keep the default
_install_lock = threading.Lock()
_original: Any = None


def _preparation_data(name: str) -> dict[str, Any]:
    data = _original(name)
    if getattr(_state, "depth", 0):
        for key in _MAIN_KEYS:
            data.pop(key, None)
    return data


def _install() -> None:
    global _original
    with _install_lock:
        if _original is None:
            _original = spawn.get_preparation_data
            spawn.get_preparation_data = _preparation_data


@contextmanager
def no_main_reimport() -> Iterator[None]:
    """Processes started by this thread inside the block do not import the caller's ``__main__``."""
    _install()
    _state.depth = getattr(_state, "depth", 0) + 1
    try:
        yield
    finally:
        _state.depth -= 1
