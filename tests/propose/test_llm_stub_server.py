"""The same ProofCompletion program over HTTP, against a local OpenAI-compatible stub server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from propose_scripted import GOOD, TO_SEVEN

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.llm.testing import OpenAIStubServer, chat_reply
from veristep.propose import derive


def test_stub_server_llm_refines_over_http_and_records_usage():
    replies = [chat_reply(reasoning="One move at a time.", trajectory=t) for t in (TO_SEVEN, GOOD)]
    with OpenAIStubServer(replies) as server:
        settings = Settings(api_base=server.api_base, api_key="test-key", step_timeout_s=5.0)
        d = derive("x^2 = 4", r"x = 2 \lor x = -2", settings=settings, proposer="llm",
                   model="openai/stub-model", attempts=2)  # fmt: skip
    assert len(server.requests) == 2
    first, second = (json.dumps(r["messages"]) for r in server.requests)
    assert "x^2 = 4" in first and "Attempt 1 was checked" not in first
    assert "Attempt 1 was checked" in second and "x = 7" in second
    assert d.confidence.tier is Tier.GROUNDED and d.endpoint.reached
    assert d.proposer["model"] == "openai/stub-model"
    assert d.proposer["usage"]["total_tokens"] > 0
