"""Verifier-guided formal proof search: Coq as the checker, four signals, Best-of-N then MCTS."""

from veristep.formal.backends.base import Attempt, StrictVerdict, Theorem
from veristep.formal.search import ProofSearch, SearchResult
from veristep.formal.signals import FailureKind, Signals

__all__ = [
    "Attempt", "FailureKind", "ProofSearch", "SearchResult", "Signals", "StrictVerdict", "Theorem",
]  # fmt: skip
