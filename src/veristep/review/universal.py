"""Universal claims in prose, and the small-case search that tests them.

"for all $n \\ge 1$, $3 \\mid n^3 - n$", "$p^2 \\equiv 1 \\pmod{24}$ for every prime $p > 3$":
a claim over integers (or any domain that contains small integers) is evaluated exactly on its
first few hundred cases. One case where it fails is a counterexample a person can check by hand,
and makes the step FLAWED. Agreement on every case is evidence, never a proof: it never lifts a
step above plausible.

Only what the sentence itself quantifies is searched. A letter the claim does not bind here ("for
all $n$, $a_n = 2^n - 1$": what is $a$?), a kind with an extra condition ("odd $n$"), or a hedged
sentence ("suppose that for all $n$ …") is not a universal claim to test.

>>> [u.claim for u in find_universals("For all integers $n \\\\ge 1$, $3 \\\\mid n^3 - n$.")]
['3 \\\\mid n^3 - n']
>>> find_universals("Suppose that for all $n$, $f(n) = n$.")
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from veristep.review.context import (
    Domain,
    clause_declarations,
    kind_in,
    positive_words,
)
from veristep.review.segment import math_spans

# "for all $n$", and a bare "for $n \\ge 5$": a lower bound on a letter quantifies over it too.
_QUANT = re.compile(
    r"\bfor\s+(?:all|every|each|any)\b"
    r"|\bfor(?=\s*(?:\$|\\\()\s*[a-zA-Z]\s*(?:\\geq?|\\geqslant|\\ge|>|≥)\s*-?\d)",
    re.IGNORECASE,
)
# A sentence that supposes, denies or tests a universal statement does not assert it.
_HEDGE = re.compile(
    r"suppos|assum|\bif\b|whether|\bnot\b|false|contradict|would|n't|\bno\b|\bfails?\b|"
    r"otherwise|counter-?example|\?|\bcannot\b|impossible|"
    # A condition written after the claim ("… when $n$ is odd") narrows it: not read.
    r"\bwhen(?:ever)?\b|provided|unless|except|\bonly\b|\bodd\b|\beven\b|sufficiently|large",
    re.IGNORECASE,
)
_RELATION = re.compile(r"[=<>≤≥≠]|\\(?:le|ge|leq|geq|ne|neq|mid|nmid|equiv)(?![a-zA-Z])")
_PROSE_DIVIDES = re.compile(r"^\s*(?:divides|is\s+divisible\s+by)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Universal:
    """One universally quantified claim: ``claim`` holds for every value of ``letters``."""

    letters: tuple[str, ...]
    domains: tuple[Domain, ...]
    claim: str  # the formula as written, or "A divides B" rebuilt from prose
    offset: int  # where the claim starts in the step


def find_universals(text: str, context: dict[str, Domain] | None = None) -> list[Universal]:
    """The universal claims of one sentence or step (see the module docstring)."""
    out: list[Universal] = []
    for sentence_start, sentence in sentences(text):
        if _HEDGE.search(sentence):
            continue
        for quant in _QUANT.finditer(sentence):
            found = _claim_for(sentence, quant, context or {})
            if found is not None:
                out.append(replace(found, offset=sentence_start + found.offset))
    return out


def sentences(text: str) -> list[tuple[int, str]]:
    """Sentences, not cut inside a formula (a period in "$1.5$" or "\\[ … . \\]" stays)."""
    spans = math_spans(text)
    cuts, start = [], 0
    for m in re.finditer(r"[.;!?](?=\s|$)|\n\s*\n", text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        cuts.append((start, text[start : m.end()]))
        start = m.end()
    if text[start:].strip():
        cuts.append((start, text[start:]))
    return cuts


def _claim_for(sentence: str, quant: re.Match[str], context: dict[str, Domain]) -> Any:
    """The claim a quantifier governs: the formula after its comma, or the formula before it."""
    spans = [(a, b) for a, b in math_spans(sentence)]
    phrase_end = _phrase_end(sentence, quant.end(), spans)
    phrase = sentence[quant.end() : phrase_end]
    letters, domains = _bound_letters(phrase, context)
    if not letters:
        return None
    after = [(a, b) for a, b in spans if a >= phrase_end]
    before = [(a, b) for a, b in spans if b <= quant.start()]
    if after and _only_glue(sentence[phrase_end : after[0][0]]):
        claim = _claim_text(sentence, after, 0)
        at = after[0][0]
    elif before and _only_glue(sentence[before[-1][1] : quant.start()]):
        claim = _claim_text(sentence, before, len(before) - 1)
        at = before[-1][0]
    else:
        return None
    if claim is None:
        return None
    return Universal(tuple(letters), tuple(domains), claim, at)


def _phrase_end(sentence: str, start: int, spans: list[tuple[int, int]]) -> int:
    """The quantifier phrase runs to a comma or "we"/"one"/"the" outside formulas."""
    for m in re.finditer(r",|\bwe\b|\bone\b|\bthe\b|\bholds?\b|\bthat\b|[.;]", sentence[start:]):
        at = start + m.start()
        if not any(a <= at < b for a, b in spans):
            return at
    return len(sentence)


def _bound_letters(phrase: str, context: dict[str, Domain]) -> tuple[list[str], list[Domain]]:
    """The letters a quantifier phrase binds, each with its domain (context merged in)."""
    declared = clause_declarations(phrase)
    if not declared:
        # "for every prime p > 3" written without dollar signs.
        m = re.search(r"\b([a-zA-Z])\s*(>|≥|>=)\s*(\d+)\s*$", phrase)
        if not m:
            return [], []
        from veristep.review.context import bound_of

        bound = bound_of(f"{m.group(1)} {m.group(2).replace('>=', '≥')} {m.group(3)}")
        if bound is None:
            return [], []
        kind = kind_in(phrase) or "unknown"
        declared = [(bound[0], replace(positive_words(phrase), kind=kind).merged(bound[1]))]
    letters, domains = [], []
    for letter, domain in declared:
        if letter in context:
            domain = context[letter].merged(domain)
        if domain.opaque or letter in letters:
            return [], []
        letters.append(letter)
        domains.append(domain)
    return letters, domains


def _only_glue(text: str) -> bool:
    """Between a quantifier phrase and its formula only glue words may stand."""
    words = re.findall(r"[A-Za-z]+", text)
    glue = {"we", "have", "one", "has", "it", "holds", "that", "is", "true", "the", "and", "so"}
    glue |= {"divides", "divisible", "by", "then", "thus", "hence", "indeed", "get", "obtain"}
    return all(w.lower() in glue for w in words) and len(words) <= 5


def _claim_text(sentence: str, spans: list[tuple[int, int]], i: int) -> str | None:
    """The formula at ``spans[i]``, or "A \\mid B" when prose joins two formulas by "divides"."""
    body = _body(sentence[spans[i][0] : spans[i][1]])
    if i + 1 < len(spans) and _PROSE_DIVIDES.match(sentence[spans[i][1] : spans[i + 1][0]]):
        other = _body(sentence[spans[i + 1][0] : spans[i + 1][1]])
        word = sentence[spans[i][1] : spans[i + 1][0]].strip().lower()
        return f"{body} \\mid {other}" if word == "divides" else f"{other} \\mid {body}"
    body = body.strip().rstrip(".,;")
    if re.match(r"\s*is\s+(?:a\s+)?prime\b", sentence[spans[i][1] :]):
        return f"{body} \\text{{ is prime}}"
    if not _RELATION.search(body):
        return None  # a bare expression ("$n^2 + n + 41$ is large") claims nothing we read
    return body or None


def _body(span: str) -> str:
    for opener, closer in (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")):
        if span.startswith(opener) and span.endswith(closer):
            return span[len(opener) : len(span) - len(closer)]
    return span
