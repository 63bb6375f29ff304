"""Coq sessions without a server: idle ones are closed, the oldest gives way at the cap, and
closing ends the coqtop process (real coqtop)."""

from __future__ import annotations

import pytest

from veristep.core.settings import Settings
from veristep.formal.backends.base import Theorem
from veristep.tools import coq_session
from veristep.tools.coq_session import CoqSessions

pytestmark = pytest.mark.coq

NAT = Theorem("t", "Require Import Arith.", "Theorem t : forall n : nat, n + 0 = n.")


def _alive(session: coq_session.CoqSession) -> bool:
    process = session.backend._session
    return process is not None and process.alive


def test_idle_sessions_close_and_the_oldest_gives_way_at_the_cap(monkeypatch) -> None:
    sessions = CoqSessions()
    try:
        first = sessions.open(NAT, Settings())
        assert _alive(first) and "n + 0 = n" in first.goals[0]
        sessions.reap(idle_s=3600)
        assert sessions.get(first.id) is first
        monkeypatch.setattr(coq_session, "MAX_SESSIONS", 1)
        second = sessions.open(NAT, Settings())
        assert sessions.get(first.id) is None and not _alive(first)  # the oldest gave way
        assert len(sessions) == 1 and _alive(second)
        sessions.reap(idle_s=0.0)
        assert len(sessions) == 0 and not _alive(second)
    finally:
        sessions.close_all()
