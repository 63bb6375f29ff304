"""``Call.on_cancel``: a hook registered after the call was cancelled runs at once."""

from __future__ import annotations

from veristep.core.settings import Settings
from veristep.tools.registry import Call


def test_a_hook_runs_on_cancel_and_at_once_when_registered_late() -> None:
    call = Call(Settings(), budget_s=10.0)
    ran: list[str] = []
    call.on_cancel(lambda: ran.append("early"))
    assert ran == []
    call.cancel()
    assert ran == ["early"]
    # A tool still setting up (loading an index) when the client cancelled registers its
    # prover's kill afterwards: it must not start the prover and run on.
    call.on_cancel(lambda: ran.append("late"))
    assert ran == ["early", "late"]
