"""Run an external program (E prover, coqc, …) under a wall deadline and an address-space cap.

The program gets its own process group, so a timeout kills it *and* everything it started (Coq
and E both spawn helpers). The memory cap is applied by a ``/bin/sh`` shim (``ulimit -v`` then
``exec``) rather than by ``preexec_fn``: Python documents ``preexec_fn`` as unsafe in a
multi-threaded parent (the web app calls this from several threads), whereas the shim runs no
Python code between ``fork`` and ``exec``.

>>> r = run_with_deadline(["cat"], timeout_s=5, memory_mb=256, input="hello")
>>> (r.returncode, r.stdout, r.timed_out)
(0, 'hello', False)
>>> run_with_deadline(["sleep", "5"], timeout_s=0.2, memory_mb=256).timed_out
True
"""

from __future__ import annotations

import contextvars
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

# ``$0`` is the program and ``"$@"`` its arguments, so no argument is ever re-parsed by the shell.
_SHIM = 'ulimit -v "$VERISTEP_AS_KB" 2>/dev/null || exit 125; exec "$0" "$@"'

# After a kill the pipes normally close at once; this bounds the wait in case a grandchild
# left the group (setsid) and still holds them open.
_DRAIN_S = 2.0


@dataclass(frozen=True)
class ProcessResult:
    """What an external program did: its output, exit status and how long it ran.

    ``returncode`` is negative (``-signal``) when the program was killed; ``timed_out`` says the
    kill was ours. A timed-out run is never evidence about the input, only about the budget.
    """

    stdout: str
    stderr: str
    returncode: int
    timed_out: bool
    ms: float
    cancelled: bool = False  # killed by its kill scope (the client left): no evidence either

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and not self.cancelled

    def to_json(self) -> dict[str, object]:
        return {
            "returncode": self.returncode,
            "timed_out": self.timed_out,
            "cancelled": self.cancelled,
            "ms": round(self.ms, 3),
            "stdout": self.stdout,
            "stderr": self.stderr,
        }


def run_with_deadline(
    cmd: Sequence[str],
    timeout_s: float,
    memory_mb: int | None,
    input: str | bytes | None = None,
    *,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
) -> ProcessResult:
    """Run ``cmd`` with a wall deadline of ``timeout_s`` and an address-space cap of ``memory_mb``.

    ``memory_mb=None`` leaves memory uncapped. ``input`` is written to the program's stdin (stdin
    is empty otherwise). Raises ``FileNotFoundError`` when the program is not installed and
    ``ValueError`` for a non-positive budget; everything the program does is reported, not raised.
    """
    if not cmd:
        raise ValueError("run_with_deadline needs a command")
    if timeout_s <= 0:
        raise ValueError(f"timeout_s must be positive, got {timeout_s!r}")
    program = shutil.which(cmd[0]) if os.sep not in cmd[0] else cmd[0]
    if program is None or not os.access(program, os.X_OK):
        raise FileNotFoundError(f"program not found or not executable: {cmd[0]!r}")

    scope = _SCOPE.get()
    if scope is not None and scope.killed:
        return ProcessResult("", "", -signal.SIGKILL, timed_out=False, ms=0.0, cancelled=True)
    argv, child_env = _capped(list(cmd), memory_mb, env)
    argv = with_parent(argv)
    data = input.encode() if isinstance(input, str) else input
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=child_env,
        start_new_session=True,  # own process group: one killpg reaches every descendant
    )
    timed_out = False
    if scope is not None:
        scope.adopt(proc)
    try:
        out, err = proc.communicate(data, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        out, err = _drain(proc)
    except BaseException:
        # KeyboardInterrupt or similar in the parent: never leave the program running.
        _kill_group(proc)
        proc.wait()
        raise
    finally:
        # Helpers the program forked and abandoned must not outlive the call either.
        _kill_group(proc, quiet=True)
        if scope is not None:
            scope.release(proc)
    ms = (time.perf_counter() - start) * 1000
    return ProcessResult(
        stdout=_text(out),
        stderr=_text(err),
        returncode=proc.returncode if proc.returncode is not None else -signal.SIGKILL,
        timed_out=timed_out,
        ms=ms,
        cancelled=scope is not None and scope.killed and not timed_out,
    )


class KillScope:
    """The external programs started while a scope is active, so that one ``kill()`` from any
    thread stops them all (a web client that leaves, an agent that cancels a call).

    The scope travels with the context (``contextvars``), so it reaches the thread a request's
    work runs in without being passed through every layer down to the prover adapter. After a
    kill, a program that would start under the scope is not started at all.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: set[subprocess.Popen[bytes]] = set()
        self.killed = False

    @contextmanager
    def active(self) -> Iterator[KillScope]:
        token = _SCOPE.set(self)
        try:
            yield self
        finally:
            _SCOPE.reset(token)

    def kill(self) -> None:
        with self._lock:
            self.killed = True
            live = list(self._live)
        for proc in live:
            _kill_group(proc, quiet=True)

    def adopt(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._live.add(proc)
            late = self.killed  # killed between the check and the start: stop it now
        if late:
            _kill_group(proc, quiet=True)

    def release(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._live.discard(proc)


_SCOPE: contextvars.ContextVar[KillScope | None] = contextvars.ContextVar(
    "veristep_kill_scope", default=None
)


def _capped(
    cmd: list[str], memory_mb: int | None, env: Mapping[str, str] | None
) -> tuple[list[str], dict[str, str]]:
    child_env = dict(os.environ if env is None else env)
    if memory_mb is None:
        return cmd, child_env
    if memory_mb <= 0:
        raise ValueError(f"memory_mb must be positive, got {memory_mb!r}")
    child_env["VERISTEP_AS_KB"] = str(int(memory_mb) * 1024)
    return ["/bin/sh", "-c", _SHIM, *cmd], child_env


def process_group_gone(pgid: int, within_s: float = 15.0) -> bool:
    """Poll until no process of group ``pgid`` exists (a kill confirmed), at most ``within_s``."""
    end = time.monotonic() + within_s
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(0.2)


def with_parent(argv: list[str]) -> list[str]:
    """Prefix ``setpriv --pdeathsig KILL`` when available: the program lives in its own session
    (so our timeout reaches its helpers), which also shields it from a kill of our group; the
    death signal makes it die with this process however this process ends."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL", "--", *argv] if setpriv else argv


def _kill_group(proc: subprocess.Popen[bytes], quiet: bool = False) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        if not quiet:
            proc.kill()


def _drain(proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    try:
        return proc.communicate(timeout=_DRAIN_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        proc.wait()
        return b"", b""


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", errors="replace")
