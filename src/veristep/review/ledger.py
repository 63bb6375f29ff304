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
from typing import TYPE_CHECKING

from veristep.review.trace import ClaimStatus, LedgerEntry, ReviewTrace, State

if TYPE_CHECKING:
    from veristep.review.agent import ReviewAgent

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


def settle(agent: ReviewAgent, entry_id: str) -> bool:
    """Try to settle one OPEN claim; True when its status changed (progress)."""
    entry = agent.trace.ledger[entry_id]
    if entry.status is not ClaimStatus.OPEN or entry.support:
        return False
    if entry.citation:
        return _check_citation(agent, entry)
    parent = agent.trace.steps[entry.used_by[-1]]
    if parent.depth >= agent.budget.max_depth:
        entry.note = "no citation and too deep for a sub-proof"
        return False
    child = agent.add_substep(parent, f"Prove: {entry.claim}")
    entry.support = child.id
    return False


def settle_subproofs(agent: ReviewAgent) -> bool:
    """Claims proved (or refuted) by their sub-steps since the last look."""
    progress = False
    for entry in agent.trace.ledger.values():
        child = agent.trace.steps.get(entry.support)
        if entry.status is not ClaimStatus.OPEN or child is None:
            continue
        if child.state is State.VERIFIED:
            entry.status, entry.note = ClaimStatus.SUPPORTED, f"proved as sub-step {child.id}"
            progress = True
        elif child.state is State.FLAWED and child.flaw and child.flaw.confirmed:
            entry.status, entry.note = ClaimStatus.FALSE, child.flaw.witness
            progress = True
    return progress


def _check_citation(agent: ReviewAgent, entry: LedgerEntry) -> bool:
    reply = agent.caller(
        "cite",
        agent.programs["cite"],
        entry.used_by[-1],
        claim=entry.claim,
        citation=entry.citation,
    )
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
