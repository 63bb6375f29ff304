"""Proof completion: proposers write LaTeX derivations, the grounding engine judges every step.

``derive(start, target)`` is the entry point; ``Proposer`` is the protocol every proposer follows
(the offline symbolic planner, the DSPy ``ProofCompletion`` program, and the hybrid of the two).
"""

from __future__ import annotations

from veristep.propose.completion import derive, ground_draft, make_proposer
from veristep.propose.protocol import Draft, Feedback, ProposedStep, Proposer
from veristep.propose.refine import RefineLoop

__all__ = [
    "Draft",
    "Feedback",
    "ProposedStep",
    "Proposer",
    "RefineLoop",
    "derive",
    "ground_draft",
    "make_proposer",
]
