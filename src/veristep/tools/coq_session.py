"""Coq proof sessions an agent steps through: one warm coqtop per session, a line of tactics.

A session is a theorem, a :class:`~veristep.formal.backends.coq.CoqBackend` and the tactics
accepted so far (with the goals after each), so ``back`` is a cut of that line and every step
is addressed by its path from the root (the backend replays only what changed). Sessions belong
to one server (one client over stdio); a server keeps at most :data:`MAX_SESSIONS`, closes one
left idle for :data:`IDLE_S`, and closes them all when it stops, so no coqtop outlives its
client (each coqtop also dies with its parent process).
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from veristep.core.settings import Settings
from veristep.formal.backends.base import Theorem
from veristep.formal.backends.coq import TACTIC_PRELUDE, CoqBackend
from veristep.formal.signals import count_goals

MAX_SESSIONS = 8
IDLE_S = 900.0
MAX_STEPS = 400  # tactics in one line: a session is for a proof, not for a flood


@dataclass
class CoqSession:
    """One open proof: the line of accepted tactics and the goals after each prefix."""

    id: str
    theorem: Theorem
    backend: CoqBackend
    goals: list[str]  # goals[i]: the goals after the first i tactics (goals[0]: the statement's)
    tactics: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: float = field(default_factory=time.monotonic)

    @property
    def goal_count(self) -> int:
        text = self.goals[-1]
        if "No more goals" in text or not text.strip():
            return 0
        return count_goals(text) or 1

    def proof_file(self) -> str:
        """The whole ``.v`` text of the proof so far (what ``coq_check`` accepts or refuses)."""
        from veristep.formal.strict import build_file

        return build_file(self.theorem, "\n".join(self.tactics), TACTIC_PRELUDE)

    def view(self) -> dict[str, Any]:
        return {
            "session": self.id,
            "theorem": self.theorem.name,
            "tactics": list(self.tactics),
            "goals": self.goals[-1],
            "goal_count": self.goal_count,
            "no_goals_left": self.goal_count == 0,
        }


class CoqSessions:
    """The sessions of one server, by id; thread-safe."""

    def __init__(self) -> None:
        self._sessions: dict[str, CoqSession] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    def open(self, theorem: Theorem, settings: Settings) -> CoqSession:
        self.reap()
        with self._lock:
            if len(self._sessions) >= MAX_SESSIONS:
                oldest = min(self._sessions.values(), key=lambda s: s.used)
                self._drop(oldest.id)
            # Unguessable: over HTTP several clients share one server and its sessions.
            sid = f"coq-{secrets.token_hex(6)}"
        backend = CoqBackend(settings)
        try:
            root = backend.open_proof(theorem)
        except BaseException:
            backend.close()
            raise
        session = CoqSession(sid, theorem, backend, [root.goals_text])
        with self._lock:
            self._sessions[sid] = session
        return session

    def get(self, sid: str) -> CoqSession | None:
        with self._lock:
            session = self._sessions.get(sid)
        if session is not None:
            session.used = time.monotonic()
        return session

    def close(self, sid: str) -> bool:
        with self._lock:
            return self._drop(sid)

    def _drop(self, sid: str) -> bool:
        session = self._sessions.pop(sid, None)
        if session is not None:
            session.backend.close()
        return session is not None

    def reap(self, idle_s: float = IDLE_S) -> None:
        """Close sessions nobody used for ``idle_s`` (a client that went away without a word)."""
        now = time.monotonic()
        with self._lock:
            for sid in [s.id for s in self._sessions.values() if now - s.used > idle_s]:
                self._drop(sid)

    def close_all(self) -> None:
        with self._lock:
            for sid in list(self._sessions):
                self._drop(sid)
