"""Step-level review of natural-language proofs: OPEN/VERIFIED/FLAWED, a theorem ledger, and
adversarial confirmation, with machine checks first (see docs/review.md).

``review_proof`` is the entry point; the rest is exported for callers that drive the pieces.
"""

from __future__ import annotations

from veristep.review.agent import ReviewAgent, ReviewBudget
from veristep.review.machine import MachineResult, machine_check
from veristep.review.run import review_proof
from veristep.review.segment import Segment, segment_proof, segment_steps
from veristep.review.trace import ReviewTrace, State

__all__ = [
    "MachineResult",
    "ReviewAgent",
    "ReviewBudget",
    "ReviewTrace",
    "Segment",
    "State",
    "machine_check",
    "review_proof",
    "segment_proof",
    "segment_steps",
]
