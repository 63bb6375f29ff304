"""Cut a proof (Markdown with LaTeX math) into deductive steps that know where they came from.

A step is a sentence, a list item, or a display formula that stands alone. Sentence ends inside
math (``$...$``, ``\\[...\\]``, ``$$...$$``, ``\\begin{..}...\\end{..}``) or after common
abbreviations never split a step, because a reviewer who cites "step 4" must point at a whole claim.

>>> steps = segment_proof("Let $x = 2$. Then $x^2 = 4$.\\n\\nHence $x^2 - 4 = 0$ (e.g. by step 2).")
>>> for s in steps:
...     print(s.id, s.location, s.text)
s1 1:1 Let $x = 2$.
s2 1:14 Then $x^2 = 4$.
s3 3:1 Hence $x^2 - 4 = 0$ (e.g. by step 2).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from veristep.core.errors import InputError


@dataclass(frozen=True)
class Segment:
    """One deductive step of the proof text, with its character span (0-based, end exclusive)."""

    id: str
    text: str
    start: int
    end: int
    line: int
    column: int

    @property
    def location(self) -> str:
        return f"{self.line}:{self.column}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Segment:
        return cls(**data)


# Math regions in which a full stop is never a sentence end, matched left to right.
_MATH = re.compile(
    r"\$\$.*?\$\$|\\\[.*?\\\]|\\\(.*?\\\)|\$(?:\\.|[^$\\])+\$"
    r"|\\begin\{(?P<env>(?:equation|align|alignat|gather|multline|eqnarray|displaymath|math"
    r"|flalign|split|cases|array|[pbBvV]?matrix)\*?)\}.*?\\end\{(?P=env)\}",
    re.DOTALL,
)
_OPENERS = re.compile(
    r"\$|\\\[|\\\(|\\begin\{(?:equation|align|alignat|gather|multline|eqnarray|displaymath"
    r"|math|flalign|split|cases|array|[pbBvV]?matrix)\*?\}"
)
_ABBREVIATIONS = (
    "e.g.",
    "i.e.",
    "cf.",
    "resp.",
    "etc.",
    "Thm.",
    "Lem.",
    "Prop.",
    "Eq.",
    "eq.",
    "Fig.",
    "vs.",
    "Cor.",
    "Def.",
    "Sec.",
    "Ex.",
    "p.",
    "pp.",
)
_SENTENCE_END = re.compile(r"[.!?](?=[\"')\]]*\s+(?:[A-Z$\\(\[]|\d))")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)]|\\item(?:\[[^\]]*\])?)\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s")
_RULE = re.compile(
    r"^\s*(?:([-=_*~])\1{2,}|\\(?:begin|end)\{[a-zA-Z*]+\}(?:\[[^\]]*\])?"
    r"|\\(?:sub)*section\*?\{[^}]*\})\s*$"
)
_TERMINAL = re.compile(r"[.!?][\"')\]]*\s*$")
MAX_PROOF_CHARS = 200_000


def math_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the math regions of ``text``.

    >>> math_spans("a $b.c$ d")
    [(2, 7)]
    """
    return [(m.start(), m.end()) for m in _MATH.finditer(text)]


def segment_proof(text: str, strict: bool = True) -> list[Segment]:
    """Every deductive step of ``text``, in order; raises a located InputError on unusable input.

    ``strict=False`` (benchmarks over model-written text) tolerates an unclosed math delimiter:
    the stray delimiter is then read as prose instead of rejecting the whole proof.
    """
    if len(text) > MAX_PROOF_CHARS:
        raise InputError(f"proof too long ({len(text)} characters, limit {MAX_PROOF_CHARS})")
    if strict:
        _check_math_delimiters(text)
    pieces: list[tuple[int, int]] = []
    for start, end in _merge_fragments(text, _blocks(text)):
        pieces.extend(_sentences(text, start, end))
    steps = []
    for start, end in pieces:
        start, end = _trim(text, start, end)
        if start < end:
            steps.append(_make(text, len(steps) + 1, start, end))
    if not steps:
        raise InputError("the proof text contains no steps", source=text, position=0)
    return steps


def segment_steps(steps: list[str]) -> list[Segment]:
    """Steps that come already cut (one string each): positions count in the joined text.

    >>> [s.location for s in segment_steps(["a = 1", "b = 2"])]
    ['1:1', '2:1']
    """
    out, offset = [], 0
    for i, raw in enumerate(steps, start=1):
        text = raw.strip() or "(empty step)"
        out.append(Segment(f"s{i}", text, offset, offset + len(raw), i, 1))
        offset += len(raw) + 1
    return out


def _blocks(text: str) -> list[tuple[int, int, bool]]:
    """Paragraphs and list items (start, end, is_item); headings and rules are dropped."""
    masked = _mask_math(text)
    blocks: list[tuple[int, int, bool]] = []
    pos = 0
    current: list[int] | None = None
    for line in masked.splitlines(keepends=True):
        start, end = pos, pos + len(line)
        pos = end
        if not line.strip() or _HEADING.match(line) or _RULE.match(line):
            if current is not None:
                blocks.append((current[0], current[1], bool(current[2])))
            current = None
            continue
        marker = _LIST_ITEM.match(line)
        if marker and current is not None:
            blocks.append((current[0], current[1], bool(current[2])))
            current = None
        if current is None:
            current = [start + (marker.end() if marker else 0), end, int(bool(marker))]
        else:
            current[1] = end
    if current is not None:
        blocks.append((current[0], current[1], bool(current[2])))
    return blocks


def _merge_fragments(text: str, blocks: list[tuple[int, int, bool]]) -> list[tuple[int, int]]:
    """Join a paragraph to the previous one when that one stops mid-sentence.

    Proofs often break a sentence around a display ("we get" / formula / "hence ..."); cutting
    there would leave steps without an assertion.
    """
    merged: list[list[int]] = []
    for start, end, is_item in blocks:
        if merged and not is_item and not _TERMINAL.search(text[merged[-1][0] : merged[-1][1]]):
            merged[-1][1] = end
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    masked = _mask_math(text)
    out, cut = [], start
    for m in _SENTENCE_END.finditer(masked, start, end):
        if _is_abbreviation(masked, m.start()):
            continue
        out.append((cut, m.end()))
        cut = m.end()
    out.append((cut, end))
    return out


def _mask_math(text: str) -> str:
    """The text with every math region replaced by same-length filler, so offsets stay valid."""
    chars = list(text)
    for a, b in math_spans(text):
        for i in range(a, b):
            if chars[i] != "\n":
                chars[i] = "x"
    return "".join(chars)


def _is_abbreviation(masked: str, dot: int) -> bool:
    head = masked[max(0, dot - 6) : dot + 1]
    return any(head.endswith(a) for a in _ABBREVIATIONS) or bool(
        re.search(r"(?:^|\s)[A-Za-z]\.$", head)  # initials and "a." list labels
    )


def _check_math_delimiters(text: str) -> None:
    rest = _MATH.sub(lambda m: " " * len(m.group(0)), text.replace("\\$", "  "))
    found = _OPENERS.search(rest)
    if found:
        opener, pos = found.group(0), found.start()
        line = text.count("\n", 0, pos) + 1
        raise InputError(
            f"unclosed math delimiter {opener!r} on line {line}",
            source=text,
            position=pos,
            length=len(opener),
        )


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _make(text: str, number: int, start: int, end: int) -> Segment:
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    return Segment(f"s{number}", text[start:end], start, end, line, column)
