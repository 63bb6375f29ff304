"""Scripted replies for the review roles (tests, demos), in the field layout DSPy's DummyLM expects.

>>> elaborate("open", substeps=("n is even",))["substeps"]
'["n is even"]'
"""

from __future__ import annotations

import json
from typing import Any


def elaborate(
    verdict: str = "verified",
    *,
    kind: str = "none",
    witness: str = "",
    derivation: tuple[str, ...] = ("the assertion follows from the cited steps",),
    local: tuple[str, ...] = (),
    external: tuple[dict[str, str], ...] = (),
    substeps: tuple[str, ...] = (),
) -> dict[str, Any]:
    return {
        "derivation": json.dumps(list(derivation)),
        "local_context": json.dumps(list(local)),
        "external": json.dumps(list(external)),
        "background": json.dumps(["modus ponens"]),
        "verdict": verdict,
        "flaw_kind": kind,
        "flaw_witness": witness,
        "substeps": json.dumps(list(substeps)),
    }


def confirm(classification: str, convention: str = "", explanation: str = "") -> dict[str, Any]:
    return {
        "classification": classification,
        "convention": convention,
        "explanation": explanation or f"referee: {classification}",
    }


def cite(status: str, note: str = "") -> dict[str, Any]:
    return {"status": status, "note": note or f"citation {status}"}


def global_judge(verdict: str, first_error: str = "none") -> dict[str, Any]:
    return {"verdict": verdict, "first_error": first_error}


def sentence_judge(verdict: str) -> dict[str, Any]:
    return {"verdict": verdict}
