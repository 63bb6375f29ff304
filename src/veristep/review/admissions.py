"""Gaps a proof admits in its own words ("I was not able to find a complete proof").

A proof that says it does not prove something has a gap that no reviewer needs to find: the
step where the admission stands is FLAWED (an unjustified gap), its witness is the sentence
itself, and no convention can close it. Only statements *about the proof being written* count —
"I was unable to find a correct proof", "this part of the proof is incomplete", "solution sketch",
"could not be produced within the time limit", "this makes it plausible that …", "numerical
evidence suggests …" — never a mathematical "we cannot find integers
$a, b$ with …", a cited "proof sketch by …", nor a remark about other people's proofs.

>>> admission("I was unable to find a completely correct elementary proof that it holds.")
'I was unable to find a completely correct elementary proof that it holds.'
>>> admission("Hence we cannot find integers $a, b$ with $a^2 = 2b^2$.") is None
True
>>> admission("A proof sketch by J. H. Conway is known.") is None
True
>>> admission("We could not find a direct proof, so we argue by contradiction.") is None
True
"""

from __future__ import annotations

import re

# The object of "could not find …" must be a proof of the required *quality*: "we could not find
# a direct proof, so we argue by contradiction" is a choice of method, not a gap.
_OBJECT = (
    r"(?:[^.]{0,40}?\b(?:complete|correct|full|rigorous|valid|detailed)\w*\b[^.]{0,40}?"
    r"\b(?:proof|argument|justification|solution)\b|\s+(?:it\s+|this\s+)?rigorously\b)"
)
_ADMISSIONS = [
    re.compile(pattern, re.IGNORECASE | re.MULTILINE)
    for pattern in (
        # The writer could not do it.
        r"\b(?:I|we)\b(?:\s+(?:was|were|am|are|have\s+been|had\s+been))?\s+(?:not\s+able|unable)"
        r"\s+to\s+(?:find|give|produce|complete|prove|finish|justify|establish|provide|write)\b"
        + _OBJECT,
        r"\b(?:I|we)\s+(?:cannot|can't|could\s+not|couldn't|did\s+not\s+manage\s+to)\s+"
        r"(?:find|give|produce|complete|prove|finish|justify|establish|provide)\b" + _OBJECT,
        r"\b(?:proof|solution)\b[^.]{0,40}\bcould\s+not\s+be\s+(?:produced|completed|finished)\b",
        r"\bstate\s+frankly\b",
        # The proof (or a part of it) is declared incomplete.
        r"\b(?:this|the|my|our)\s+(?:part\s+of\s+the\s+)?(?:proof|argument|solution)\s+is\s+"
        r"(?:still\s+)?(?:incomplete|not\s+complete|not\s+(?:fully\s+)?rigorous)\b",
        r"\bnot\s+(?:fully|rigorously)\s+(?:proven|proved|justified|established)\b",
        r"\bnot\s+covered\s+by\s+(?:these|this|the|our|my)\b[^.]{0,30}\bproofs?\b",
        # A sketch instead of a proof, or a proof cut short by time.
        r"^\W*(?:solution|proof)\s+sketch\b(?!\s+by\b)",
        r"\b(?:solution|proof)\s+sketch\s+is\s+(?:posted|given|provided)\b",
        r"\b(?:proof|solution|answer|content)\b[^.]{0,60}\b(?:within\s+the\s+time[- ]limit|"
        r"exceeded\s+(?:the\s+)?time)\b",
        r"\b(?:general|full|complete|rigorous)\s+proof\b[^.]{0,80}\bbeyond\s+the\s+scope\b",
        r"\bsuch\s+proofs\s+are\b[^.]{0,30}\bbeyond\s+the\s+scope\b",
        # Evidence offered in place of a proof.
        r"\b(?:makes\s+it|it\s+is|seems)\s+plausible\b",
        r"\b(?:provides?|gives?|is)\s+(?:strong|numerical|empirical)\s+evidence\b",
        r"\b(?:numerical|computational)\s+(?:check|experiment|evidence)s?\s+(?:suggests?|indicates?)\b",
        r"\blikely\s+the\s+intended\b",
        r"\b(?:numerical|empirical)\s+evidence\s+(?:strongly\s+)?(?:supports?|suggests?|indicates?)\b",
        r"\b(?:is|are)\s+(?:very\s+|most\s+)?likely\s+(?:true|correct)\b",
        r"\ba\s+rigorous\s+proof\s+(?:would\s+)?(?:requires?|needs?)\b",
        # A result the proof assumes instead of proving, or a request for help instead of a proof.
        r"\b(?:we|I)\s+(?:will|shall)\s+assume\s+this\s+(?:result|lemma|claim|fact|statement)\b",
        r"\bif\s+we\s+assume\s+this\s+(?:specific\s+)?(?:result|lemma|claim|fact)\b",
        r"\bcould\s+you\s+(?:please\s+)?(?:provide|check|clarify|give)\b",
        r"\b(?:I|we)\s+(?:cannot|can't|could\s+not|couldn't)\s+(?:furnish|give|provide|produce|find|"
        r"write)\s+(?:a|any)\s+proof\b",
        r"\bassume\s+(?:that\s+)?this\s+is\s+the\s+only\b",
        r"\bsuggests?\s+that\b[^.]{0,60}\b(?:is|are)\s+the\s+only\b",
        r"\b(?:non-?trivial|difficult|hard)\s+to\s+(?:show|prove|establish)\s+from\s+first\s+principles\b",
        r"\bif\s+we\s+assume\s+\w+'s\s+(?:result|lemma|theorem|claim)\b",
        # Work left out: an omitted argument is a gap the reader is asked to fill.
        r"\bomit(?:ted)?\s+(?:the|this|these)\s+(?:\w+\s+)?(?:routine|remaining|final|tedious|details?|"
        r"proofs?|computations?|calculations?|verifications?|bookkeeping|counting)\b",
        r"\b(?:have|has)\s+been\s+omitted\b",
        r"\b(?:details|argument|computations?|calculations?|verifications?)\s+(?:are|is|were)"
        r"\s+omitted\b",
    )
]
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")


def admission(text: str) -> str | None:
    """The sentence of ``text`` in which the proof admits a gap, or None."""
    for pattern in _ADMISSIONS:
        m = pattern.search(text)
        if m:
            return _sentence_around(text, m.start(), m.end())
    return None


def _sentence_around(text: str, start: int, end: int) -> str:
    cuts = [0, *(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]
    begin = max(c for c in cuts if c <= start)
    finish = min((c for c in cuts if c >= end), default=len(text))
    return " ".join(text[begin:finish].split())
