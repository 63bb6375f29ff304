"""A persistent ``coqtop -q -emacs`` session: imports paid once, state numbers, ``BackTo``.

Coq 8.16's interactive loop keeps going after an error and prints goals to stdout but errors and
prompts to stderr, so the session merges both streams (the order is then the order Coq wrote them)
and ends every request with a *marker* sentence, ``Fail Check vs_mark_N.``, whose echo proves that
everything before it was processed. The prompt just before the marker's echo carries the state
number after the request, which ``BackTo`` can later restore.

The process runs in its own process group under an address-space cap (unary ``nat`` can eat all
memory); a request that exceeds its wall deadline kills the group, and the next request starts a
fresh process: a timeout is reported, never guessed about.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import subprocess
import time
from dataclasses import dataclass, field

from veristep.core.errors import VeristepError
from veristep.core.subprocesses import with_parent

_PROMPT = re.compile(r"<prompt>(\S+) < (\d+) \|([^|]*)\| \d+ < </prompt>")
# Only "Error:" makes an error: warnings carry the same "Toplevel input" location lines.
_ERROR_START = re.compile(r"^Error:", re.M)


class CoqCrashed(VeristepError):
    """The coqtop process died, hit its memory cap or missed a deadline; the session restarts.

    Not a ``BudgetExceeded``: a crash is not a spent budget (neither is evidence about the goal)."""


@dataclass
class Reply:
    """What coqtop printed for one request, split at its prompts."""

    chunks: list[str]  # the output that preceded each prompt, one per sentence Coq processed
    states: list[int]  # the state number shown by each of those prompts
    proof_names: list[str]  # the name in each prompt ("Coq" when no proof is open)
    seconds: float = 0.0

    @property
    def text(self) -> str:
        return "".join(self.chunks)

    @property
    def errors(self) -> list[str]:
        """Every error message in the reply, without the ``Toplevel input`` location lines."""
        out = []
        for chunk in self.chunks:
            match = _ERROR_START.search(chunk)
            if match:
                out.append(_clean_error(chunk[match.start() :]))
        return out

    @property
    def state(self) -> int:
        return self.states[-1]

    @property
    def in_proof(self) -> bool:
        return bool(self.proof_names) and self.proof_names[-1] != "Coq"

    @property
    def last_output(self) -> str:
        """The output of the last processed sentence (goals after a tactic)."""
        return self.chunks[-1] if self.chunks else ""


def _clean_error(chunk: str) -> str:
    lines = [ln for ln in chunk.splitlines() if not ln.startswith(("> ", "Toplevel input"))]
    return "\n".join(ln for ln in lines if ln.strip()).strip()


# The memory cap is set by a /bin/sh shim (ulimit, then exec) rather than preexec_fn, which is
# unsafe in a threaded parent; ``$0`` is the program, so nothing is re-parsed by the shell.
_SHIM = 'ulimit -v "$1" 2>/dev/null || exit 125; shift; exec "$0" "$@"'


@dataclass
class CoqtopSession:
    """One coqtop process with a loaded header. Not thread-safe; one per worker."""

    header: str = ""
    memory_mb: int = 4096
    tactic_timeout_s: float = 10.0  # Coq's own per-sentence ``Default Timeout``
    start_timeout_s: float = 120.0
    coqtop: str = "coqtop"
    restarts: int = 0
    requests: int = 0
    _proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _buffer: str = field(default="", repr=False)
    _marker: int = field(default=0, repr=False)
    base_state: int = field(default=0, repr=False)  # the state right after the header

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> Reply:
        """Start coqtop and load the header; raises ``CoqCrashed`` when the header fails."""
        self.close()
        self._proc = subprocess.Popen(
            # dies with this process even when only the parent is killed (its own session
            # shields it from a kill of our group)
            with_parent(
                ["/bin/sh", "-c", _SHIM, self.coqtop, str(self.memory_mb * 1024), "-q", "-emacs"]
            ),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a process group of its own, so a kill takes every child
        )
        self._buffer = ""
        self._read_until(lambda: _PROMPT.search(self._buffer) is not None, self.start_timeout_s)
        self._buffer = ""
        timeout = max(1, round(self.tactic_timeout_s))
        reply = self.execute(f"{self.header}\nSet Default Timeout {timeout}.", self.start_timeout_s)
        if reply.errors:
            self.close()
            raise CoqCrashed(f"header does not load: {reply.errors[0]}")
        self.base_state = reply.state
        return reply

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        for stream in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                stream.close() if stream else None
        proc.wait()

    def __enter__(self) -> CoqtopSession:
        if not self.alive:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- requests --------------------------------------------------------------------------
    def execute(self, text: str, timeout_s: float) -> Reply:
        """Send ``text`` (complete sentences) and wait for the marker; kill on deadline.

        On a crash or a missed deadline the process is closed and ``CoqCrashed`` raised; the next
        ``ensure_started`` brings up a fresh session with the same header.
        """
        if not self.alive:
            raise CoqCrashed("coqtop is not running")
        self._marker += 1
        self.requests += 1
        tag = f"vs_mark_{self._marker}"
        payload = f"{text}\nFail Check {tag}.\n".encode()
        started = time.monotonic()
        try:
            assert self._proc is not None and self._proc.stdin is not None
            self._proc.stdin.write(payload)
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            self.close()
            raise CoqCrashed(f"coqtop died: {exc}") from None
        # Goals may be displayed between the marker's echo and its prompt (after BackTo), and goals
        # contain "<", so match lazily up to the first prompt after the echo.
        end_re = re.compile(re.escape(tag) + r" was not found.*?" + _PROMPT.pattern, re.S)
        match = self._read_until(lambda: end_re.search(self._buffer), timeout_s)
        assert match is not None
        raw, self._buffer = self._buffer[: match.start()], self._buffer[match.end() :]
        reply = _split_reply(raw)
        reply.seconds = time.monotonic() - started
        return reply

    def back_to(self, state: int, timeout_s: float = 30.0) -> None:
        """Restore state ``state`` (a number shown by an earlier prompt)."""
        reply = self.execute(f"BackTo {state}.", timeout_s)
        if reply.errors:
            raise CoqCrashed(f"BackTo {state} failed: {reply.errors[0]}")

    def ensure_started(self) -> None:
        if not self.alive:
            self.restarts += 1
            self.start()

    def _read_until(self, done, timeout_s: float):
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        deadline = time.monotonic() + timeout_s
        while True:
            found = done()
            if found:
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.close()
                raise CoqCrashed(f"no answer from coqtop within {timeout_s:.0f} s (killed)")
            ready, _, _ = select.select([fd], [], [], min(remaining, 1.0))
            if not ready:
                continue
            data = os.read(fd, 1 << 16)
            if not data:
                self.close()
                raise CoqCrashed("coqtop exited (crash or memory cap)")
            self._buffer += data.decode("utf-8", errors="replace")


def _split_reply(raw: str) -> Reply:
    chunks, states, names = [], [], []
    pos = 0
    for match in _PROMPT.finditer(raw):
        chunks.append(raw[pos : match.start()])
        names.append(match.group(1))
        states.append(int(match.group(2)))
        pos = match.end()
    if not states:  # the marker itself carried the only prompt: nothing was sent before it
        return Reply([raw], [-1], ["Coq"])
    return Reply(chunks, states, names)
