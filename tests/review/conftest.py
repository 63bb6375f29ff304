"""The local OpenAI-compatible stub server on 127.0.0.1, answering the review roles by rule.

It exercises the real HTTP path (LiteLLM → DSPy adapter → parsing) without any network. The rules
are deliberately simple and deterministic: a step mentioning "contradiction" is judged wrong by
every system, everything else right.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest

from veristep.llm.stub_server import OpenAIStubServer
from veristep.review.arithmetic import evaluate


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


@pytest.fixture(scope="session", name="recheck_fails")
def recheck_fails_fixture() -> Callable[[str, dict[str, str]], bool]:
    """Re-check a counterexample without SymPy (see :func:`_recheck_fails`)."""
    return _recheck_fails


def _recheck_fails(claim: str, values: dict[str, str]) -> bool:
    """True when ``claim`` is false at ``values``, decided by exact rational arithmetic.

    A value ``i`` (the imaginary unit) is re-checked by hand-written rules for the one shape
    the fixtures use: ``x^2 \\ge 0`` at ``x = i`` reads ``-1 \\ge 0``.
    """
    if "i" in values.values():
        letter = next(k for k, v in values.items() if v == "i")
        return re.fullmatch(rf"{letter}\^2 \\ge 0", claim) is not None  # i² = −1 < 0
    text = claim
    text = re.sub(r"\\[A-Za-z]+|[A-Za-z]+", lambda m: _substituted(m.group(0), values), text)
    text = re.sub(r"\)\(", ")*(", text)
    text = re.sub(r"(\d)\(", r"\1*(", text)
    if text.endswith(" \\text{ is prime}"):
        n = _value(text.removesuffix(" \\text{ is prime}"))
        return n < 2 or any(n % d == 0 for d in range(2, int(n**0.5) + 1))
    modulus = re.search(r"\\pmod\{?([^}]*)\}?$", text)
    if modulus:
        left, _, right = text[: modulus.start()].partition("\\equiv")
        return (_value(left) - _value(right)) % _value(modulus.group(1)) != 0
    for token, divides in (("\\nmid", False), ("\\mid", True)):
        if token in text:
            left, _, right = text.partition(token)
            return ((_value(right) % _value(left)) == 0) != divides
    for token, holds in (
        ("\\ge", lambda a, b: a >= b),
        ("\\le", lambda a, b: a <= b),
        (">", lambda a, b: a > b),
        ("<", lambda a, b: a < b),
        ("=", lambda a, b: a == b),
    ):
        if token in text:
            left, _, right = text.partition(token)
            return not holds(_value(left), _value(right))
    raise AssertionError(f"no relation in {claim!r}")


def _value(text: str) -> Fraction:
    value = evaluate(text)
    assert value is not None, text
    return value


def _substituted(word: str, values: dict[str, str]) -> str:
    """``abc`` → ``(1)*(2)*(3)`` when every letter has a value; commands and words stay."""
    if word.startswith("\\") or not all(ch in values for ch in word):
        return word
    return "*".join(f"({values[ch]})" for ch in word)
