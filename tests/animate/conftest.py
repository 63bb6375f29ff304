"""Animation test data: the quadratic-formula chain as a derivation JSON with hand-set tiers."""

from __future__ import annotations

import pytest

QF_STATES = [
    r"a x^2 + b x + c = 0",
    r"a x^2 + b x = -c",
    r"x^2 + \frac{b}{a} x = -\frac{c}{a}",
    r"x^2 + \frac{b}{a} x + \left(\frac{b}{2a}\right)^2"
    r" = \left(\frac{b}{2a}\right)^2 - \frac{c}{a}",
    r"\left(x + \frac{b}{2a}\right)^2 = \frac{b^2 - 4ac}{4a^2}",
    r"x + \frac{b}{2a} = \pm \frac{\sqrt{b^2 - 4ac}}{2a}",
    r"x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}",
]
TIERS = ["grounded", "verified", "grounded", "grounded", "plausible", "grounded"]


def qf_derivation(states: list[str] = QF_STATES, tiers: list[str] = TIERS) -> dict:
    steps = [
        {"index": i, "operation": f"move {i}", "expr_latex": states[i], "justification": None,
         "change_type": "rewrite", "relation": "equivalent", "tier": tier, "check": "test",
         "reason": f"reason {i}", "witness": None, "ms": 1.0}
        for i, tier in enumerate(tiers, start=1)
    ]  # fmt: skip
    return {
        "start": states[0],
        "target": states[-1],
        "states": [{"latex": s, "latex_ids": None} for s in states],
        "steps": steps,
        "endpoint": {"reached": True, "math_correct": True, "exact_graph": True},
        "confidence": {"tier": min(tiers, key=["refuted", "unchecked", "plausible", "verified",
                                                "grounded"].index),
                       "steps_verified": 5, "steps_total": len(tiers), "refuted": 0,
                       "convertible": len(states), "summary": "5/6 steps verified"},
        "proposer": {"kind": "test", "model": None, "attempts": 1, "usage": None},
    }  # fmt: skip


@pytest.fixture(scope="session")
def qf_states() -> list[str]:
    return list(QF_STATES)


@pytest.fixture(scope="session")
def make_derivation():
    """``make_derivation(states=QF_STATES, tiers=TIERS)``: a derivation JSON without grounding."""
    return qf_derivation
