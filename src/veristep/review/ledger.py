"""The Theorem Ledger: every external claim Σ the elaborations use, and whether it is supported.

A claim with a citation is checked once by the ``cite`` role (SUPPORTED, FALSE, or left OPEN when
the referee is unsure); a claim without one becomes a sub-step that must itself be VERIFIED. A step
is VERIFIED only when all the claims it rests on are SUPPORTED — and so is anything citing it.

>>> from veristep.review.trace import ReviewTrace
>>> t = ReviewTrace.new("demo", [], model=None)
>>> a = register(t, "Every bounded monotone sequence converges", "Rudin, Thm 3.14", "s2")
>>> b = register(t, "every bounded  monotone sequence converges.", "", "s5")
>>> a is b, a.id, a.used_by
(True, 'L1', ['s2', 's5'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from veristep.review.trace import ClaimStatus, LedgerEntry, ReviewTrace, State, StepRecord

# The ledger asks its caller for two things rather than taking the whole review agent: the cite
# role (its reply carries ``status`` and ``note``, or is None when malformed) and a new sub-step.
Cite = Callable[[LedgerEntry], Any]
AddSubstep = Callable[[StepRecord, str], StepRecord]

__all__ = ["ClaimStatus", "register", "settle", "settle_subproofs"]


def register(trace: ReviewTrace, claim: str, citation: str, used_by: str) -> LedgerEntry:
    """The ledger entry for ``claim`` (one per claim however many steps use it)."""
    key = _normal(claim)
    for entry in trace.ledger.values():
        if _normal(entry.claim) == key:
            if used_by not in entry.used_by:
                entry.used_by.append(used_by)
            if citation and not entry.citation:
                entry.citation = citation
            return entry
    entry = LedgerEntry(
        f"L{len(trace.ledger) + 1}", claim.strip(), citation.strip(), used_by=[used_by]
    )
    trace.ledger[entry.id] = entry
    return entry


def settle(
    trace: ReviewTrace, entry_id: str, cite: Cite, add_substep: AddSubstep, max_depth: int
) -> bool:
    """Try to settle one OPEN claim; True when its status changed (progress)."""
    entry = trace.ledger[entry_id]
    if entry.status is not ClaimStatus.OPEN or entry.support:
        return False
    if entry.citation:
        return _check_citation(cite, entry)
    parent = trace.steps[entry.used_by[-1]]
    if parent.depth >= max_depth:
        entry.note = "no citation and too deep for a sub-proof"
        return False
    child = add_substep(parent, f"Prove: {entry.claim}")
    entry.support = child.id
    return False


def settle_subproofs(trace: ReviewTrace) -> bool:
    """Claims proved (or refuted) by their sub-steps since the last look."""
    progress = False
    for entry in trace.ledger.values():
        child = trace.steps.get(entry.support)
        if entry.status is not ClaimStatus.OPEN or child is None:
            continue
        if child.state is State.VERIFIED:
            entry.status, entry.note = ClaimStatus.SUPPORTED, f"proved as sub-step {child.id}"
            progress = True
        elif child.state is State.FLAWED and child.flaw and child.flaw.confirmed:
            entry.status, entry.note = ClaimStatus.FALSE, child.flaw.witness
            progress = True
    return progress


def _check_citation(cite: Cite, entry: LedgerEntry) -> bool:
    reply = cite(entry)
    entry.support = f"citation: {entry.citation}"
    if reply is None:
        entry.note = "citation check failed (malformed reply)"
        return False
    status = str(reply.status)
    entry.note = str(reply.note or "")
    if status == "supported":
        entry.status = ClaimStatus.SUPPORTED
        return True
    if status == "false":
        entry.status = ClaimStatus.FALSE
        return True
    return False  # unsure: the claim stays OPEN and blocks whatever rests on it


def _normal(claim: str) -> str:
    return re.sub(r"[\s.]+", " ", claim.lower()).strip()
