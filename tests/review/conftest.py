"""The local OpenAI-compatible stub server on 127.0.0.1, answering the review roles by rule.

It exercises the real HTTP path (LiteLLM → DSPy adapter → parsing) without any network. The rules
are deliberately simple and deterministic: a step mentioning "contradiction" is judged wrong by
every system, everything else right.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from veristep.llm.stub_server import OpenAIStubServer


def _field(text: str, name: str) -> str:
    m = re.search(rf"\[\[ ## {name} ## \]\]\n(.*?)(?:\n\n\[\[ ## |\Z)", text, re.DOTALL)
    return m.group(1).strip() if m else ""


def role_reply(system: str, user: str) -> str:
    """The reply text, in DSPy's chat-adapter field layout, for whichever role asked."""
    bad = "contradiction" in (_field(user, "step") or _field(user, "proof")).lower()
    if "`classification`" in system:
        fields = {
            "classification": "logical_breakdown",
            "convention": "",
            "explanation": "the step asserts what it should prove",
        }
    elif "`flaw_witness`" in system:
        fields = {
            "derivation": '["restate the step", "it follows from the previous step"]',
            "local_context": "[]",
            "external": "[]",
            "background": '["logic"]',
            "verdict": "flawed" if bad else "verified",
            "flaw_kind": "invalid_inference" if bad else "none",
            "flaw_witness": "claims a contradiction that does not follow" if bad else "",
            "substeps": "[]",
        }
    elif "`first_error`" in system:
        steps = re.findall(r"^(\d+): (.*)$", _field(user, "proof"), re.MULTILINE)
        first = next((n for n, t in steps if "contradiction" in t.lower()), None)
        fields = {"verdict": "incorrect" if first else "correct", "first_error": first or "none"}
    elif "`status`" in system:
        fields = {"status": "supported", "note": "found"}
    else:
        fields = {"verdict": "incorrect" if bad else "correct"}
    body = "\n\n".join(f"[[ ## {k} ## ]]\n{v}" for k, v in fields.items())
    return body + "\n\n[[ ## completed ## ]]"


def _reply(request: dict[str, Any]) -> str:
    messages = request.get("messages") or []
    system = next((m["content"] for m in messages if m["role"] == "system"), "")
    user = messages[-1]["content"] if messages else ""
    return role_reply(system, user)


@pytest.fixture
def stub_server() -> Iterator[OpenAIStubServer]:
    """The shared OpenAI-compatible stub, answering every review role by the rules above."""
    with OpenAIStubServer(_reply) as server:
        yield server
