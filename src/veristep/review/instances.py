"""Claims at a value the sentence itself fixes: "for $a = 3$, $a^2 + 1 = 10$" is closed arithmetic.

A sentence that fixes a letter to a closed value — "for $n = 5$", "taking $x = 2$", a case label
"• $a = 1 + \\sqrt2$: …" — turns every later formula of the same clause whose letters are all
fixed into a closed computation, which the exact checks then decide (``review.arithmetic`` for
rationals, ``review.real_claims`` for roots and the like). A false one is a flaw with a witness:
the value, and the two sides.

The reading is deliberately narrow, because a formula with a letter is often *not* a claim about
the fixed value:

- a value is fixed only by a formula ``letter = closed value`` that follows a fixing word ("for",
  "at", "when", "with", "taking", "setting", "putting", "letting", "case") or opens the sentence
  as a case label followed by a colon;
- the fixed value holds only while the words between formulas are glue ("we get", "so", "and",
  "which gives"); any other word ("for larger n", "in the equation", "in general") ends it, since
  it may change what the letter stands for or name a formula that is being tested, not asserted;
- a formula with any other letter, a function application, or a subscript is left alone;
- the sentence's hedges ("suppose", "if", "plugging in", "which is false") are applied by the
  caller exactly as for closed arithmetic.

>>> [(i.original.latex, i.bindings) for i in instances("For $a = 3$, we get $a^2 + 1 = 11$.")]
[('a^2 + 1 = 11', (('a', '3'),))]
>>> instances("For $n = 1$ it is clear, and for larger $n$ we have $n^2 > n$.")
[]
>>> instances("This holds for $k = 0$ and $k > 2$.")
[]
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from veristep.review.arithmetic import evaluate, is_real_arithmetic
from veristep.review.claims import Link, find_links
from veristep.review.segment import math_spans
from veristep.review.universal import sentences


@dataclass(frozen=True)
class Instance:
    """A link about fixed letters, and the same link with their values written in."""

    original: Link
    closed: Link
    bindings: tuple[tuple[str, str], ...]  # (letter, value as written)

    @property
    def shown_bindings(self) -> str:
        return ", ".join(f"{letter} = {value}" for letter, value in self.bindings)


_FIXING = re.compile(
    r"(?:\bfor|\bat|\bwhen|\bwith|\btaking|\btake|\bsetting|\bset|\bputting|\bput|\bletting"
    r"|\bcase)\s*$",
    re.IGNORECASE,
)
_GLUE = frozenset(
    {
        "we", "get", "gets", "have", "obtain", "gives", "give", "giving", "so", "then", "and",
        "thus", "hence", "therefore", "one", "finds", "it", "follows", "that", "is", "are",
        "which", "equals", "yields", "becomes", "this", "i", "e",
    }
)  # fmt: skip
_BINDING = re.compile(r"^\s*([A-Za-z])\s*=\s*(.+?)\s*[,.;:]?\s*$", re.DOTALL)
_OPENING = re.compile(r"^[\s•*\-–·]*$")
_COMMAND = re.compile(r"\\[A-Za-z]+")
_TEXTUAL = re.compile(r"\\(?:text|mathrm|operatorname|mbox)\b")
_SPACING = re.compile(r"\\displaystyle|\\textstyle")


def instances(text: str) -> list[Instance]:
    """Every link of ``text`` that is a closed computation once the sentence's fixed values are
    written in (see the module docstring for what fixes a value and how long it holds)."""
    out: list[Instance] = []
    for start, sentence in sentences(text):
        out += [_shifted(i, start) for i in _sentence_instances(sentence)]
    return out


def _sentence_instances(sentence: str) -> list[Instance]:
    spans = math_spans(sentence)
    by_span: dict[int, list[Link]] = {}
    for link in find_links(sentence):
        at = bisect.bisect_right(spans, (link.offset, len(sentence))) - 1
        if at >= 0 and link.offset < spans[at][1]:
            by_span.setdefault(at, []).append(link)
    bound: dict[str, str] = {}
    out = []
    previous_end = 0
    for index, (start, end) in enumerate(spans):
        prose = sentence[previous_end:start]
        previous_end = end
        binding = _binding(sentence, spans, index)
        if binding is not None:
            bound[binding[0]] = binding[1]
            continue
        if _condition(sentence[start:end]):
            # "for $n = 1$ and $n = 2$", "holds for $k = 0$ and $k \ge 3$": another case of the
            # list, not a claim about the value fixed before it.
            bound = {}
            continue
        if bound and not _only_glue(prose):
            bound = {}
        if not bound:
            continue
        for link in by_span.get(index, []):
            instance = _instance(link, bound)
            if instance is not None:
                out.append(instance)
    return out


def _binding(sentence: str, spans: list[tuple[int, int]], index: int) -> tuple[str, str] | None:
    """``(letter, value)`` when the span at ``index`` fixes a letter to a closed value."""
    start, end = spans[index]
    m = _BINDING.match(_body(sentence[start:end]))
    if not m or not _closed(m.group(2)):
        return None
    before = sentence[spans[index - 1][1] if index else 0 : start]
    after = sentence[end:]
    fixing = _FIXING.search(before) is not None
    case_label = index == 0 and _OPENING.match(before) is not None and after.lstrip()[:1] == ":"
    return (m.group(1), m.group(2).strip()) if fixing or case_label else None


def _condition(span: str) -> bool:
    """A formula that only places one letter: ``n = 2``, ``k \\ge 3``, ``x < \\sqrt2``."""
    links = find_links(span)
    return bool(links) and all(
        any(re.fullmatch(r"\s*[A-Za-z]\s*", side) for side in (link.lhs, link.rhs))
        and any(_closed(side) for side in (link.lhs, link.rhs))
        for link in links
    )


def _instance(link: Link, bound: dict[str, str]) -> Instance | None:
    if link.closed or link.real:
        return None  # already a closed computation, judged as such
    sides = [_written_in(side, bound) for side in (link.lhs, link.rhs)]
    if sides[0] is None or sides[1] is None:
        return None
    used = sorted(set(sides[0][1]) | set(sides[1][1]))
    if not used:
        return None
    lhs, rhs = sides[0][0], sides[1][0]
    closed = evaluate(lhs) is not None and evaluate(rhs) is not None
    real = not closed and is_real_arithmetic(lhs) and is_real_arithmetic(rhs)
    if not (closed or real):
        return None
    closed_link = Link(lhs, link.rel, rhs, link.offset, closed, real)
    return Instance(link, closed_link, tuple((x, bound[x]) for x in used))


def _written_in(side: str, bound: dict[str, str]) -> tuple[str, list[str]] | None:
    """``side`` with each fixed letter replaced by its value, and the letters replaced; None when
    the side has another letter, a subscripted or applied letter, or words."""
    if _TEXTUAL.search(side):
        return None
    side = _SPACING.sub(" ", side)
    letters = re.findall(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])", _COMMAND.sub(" ", side))
    if not set(letters) <= set(bound):
        return None
    token = r"(?<![A-Za-z\\_])([A-Za-z])(?![A-Za-z_'(])"
    if len(re.findall(token, side)) != len(letters):
        return None  # a subscript, a prime or an application: not the fixed number
    return re.sub(token, lambda m: "{(" + bound[m.group(1)] + ")}", side), letters


def _closed(value: str) -> bool:
    return evaluate(value) is not None or is_real_arithmetic(value)


def _only_glue(prose: str) -> bool:
    words = re.findall(r"[A-Za-z]+", prose)
    return all(w.lower() in _GLUE for w in words)


def _body(span: str) -> str:
    for opener, closer in (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")):
        if span.startswith(opener) and span.endswith(closer):
            return span[len(opener) : len(span) - len(closer)]
    return span


def _shifted(instance: Instance, by: int) -> Instance:
    def move(link: Link) -> Link:
        return Link(link.lhs, link.rel, link.rhs, link.offset + by, link.closed, link.real)

    return Instance(move(instance.original), move(instance.closed), instance.bindings)
