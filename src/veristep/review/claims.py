"""Find the relation claims a step makes (``a = b``, ``x \\le y``, ``210 + 91 is 300``).

A chain ``a = b = c`` is read as the links ``a = b`` and ``b = c``: each is one claim that a checker
can judge on its own. A link is *closed* when both sides are variable-free arithmetic; only closed
links can be refuted outright, because an equation with a letter in it may be a condition
(``x^2 - 6x + 5 = 0``), not an identity.

>>> for link in find_links("so $b^2 = 13^2 - 12^2 = 169 - 144 = 25$"):
...     print(link.lhs, link.rel, link.rhs, link.closed)
b^2 = 13^2 - 12^2 False
13^2 - 12^2 = 169 - 144 True
169 - 144 = 25 True
>>> [(l.lhs, l.rhs) for l in find_links("and 210 + 91 is 300, so")]
[('210 + 91', '300')]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from itertools import pairwise
from typing import Any

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.review.arithmetic import evaluate, is_real_arithmetic
from veristep.review.segment import math_spans

RELATIONS = {
    "=": "=",
    "<": "<",
    ">": ">",
    "\\le": "<=",
    "\\leq": "<=",
    "\\leqslant": "<=",
    "≤": "<=",
    "\\ge": ">=",
    "\\geq": ">=",
    "\\geqslant": ">=",
    "≥": ">=",
    "\\ne": "!=",
    "\\neq": "!=",
    "≠": "!=",
    "\\approx": "~",
    "≈": "~",
}
# Notation in which "=" does not mean equality of numbers. Modular notation and definitions change
# the meaning of every relation in the formula (``2^3 = 8 = 1 \\pmod 7``), so the whole formula
# is left alone; the rest (sums, sets, limits, words, angles) only make the links that contain
# them unreadable: ``\\sum x_i \\le \\sqrt{100 \\cdot 50} = 10\\sqrt5`` still claims its last link.
_NOT_NUMERIC_FORMULA = re.compile(r"\\pmod|\\bmod|\\mod|\\equiv|:=|\\coloneqq|\\%|%")
_NOT_NUMERIC = re.compile(
    r"\\to|\\in\b|\\subset|\\sum|\\prod|\\int|\\lim"
    r"|\\binom|\\lfloor|\\lceil|\\mid|\\pm|\\mp|\\angle|\\text"
)
_REL_TOKEN = re.compile(
    r"\\(?:leqslant|geqslant|leq|geq|neq|le|ge|ne|approx)(?![a-zA-Z])|[=<>≤≥≠≈]"
)
_ARITH_WORD = re.compile(
    r"^[\d.,+\-*/×÷·−–()^!=<>≤≥≠]*\d[\d.,+\-*/×÷·−–()^!=<>≤≥≠]*$|^[+\-*/×÷·−–=<>≤≥≠]$"
)
_OPERATOR_CHARS = "+-*/×÷·−–^=<>≤≥≠"
_FUNCTIONS = frozenset(
    {
        "ln",
        "log",
        "lg",
        "exp",
        "sin",
        "cos",
        "tan",
        "cot",
        "sec",
        "csc",
        "arcsin",
        "arccos",
        "arctan",
        "sinh",
        "cosh",
        "tanh",
        "sqrt",
        "det",
        "gcd",
        "lcm",
        "max",
        "min",
        "deg",
        "mod",
    }
)
_IS_WORDS = {"is", "equals", "gives", "makes"}
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Link:
    """One relation claim ``lhs rel rhs`` inside a step; ``offset``: where it starts in the step."""

    lhs: str
    rel: str  # one of = < > <= >= != ~
    rhs: str
    offset: int
    closed: bool
    # Closed but not rational (``10\\sqrt5``, ``\\sin 30^\\circ``): decided by review.real_claims.
    real: bool = False

    @property
    def latex(self) -> str:
        symbol = {"<=": "\\le", ">=": "\\ge", "!=": "\\ne", "~": "\\approx"}.get(self.rel, self.rel)
        return f"{self.lhs} {symbol} {self.rhs}"


@dataclass(frozen=True)
class LinkCheck:
    """The judgement of one relation link."""

    latex: str
    tier: Tier
    check: str
    reason: str
    witness: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["tier"] = self.tier.name_lower
        return out


# Judges one link with the grounding cascade, or None when it cannot be read there.
LinkGrounder = Callable[[Link, Settings], LinkCheck | None]


def find_links(text: str) -> list[Link]:
    """Every relation link in ``text``: math regions first, then arithmetic written in prose."""
    links: list[Link] = []
    spans = math_spans(text)
    for start, end in spans:
        if _glued(text, start, end):
            continue  # "$64$ squares / $2 = 32$": the math is a fragment of a larger formula
        body_start, body = _strip_delimiters(text[start:end])
        links.extend(_chain_links(body, start + body_start))
    prose = _blank(text, spans)
    for offset, run in _prose_runs(prose):
        links.extend(link for link in _chain_links(run, offset) if link.closed)
    return sorted(links, key=lambda link: link.offset)


def _glued(text: str, start: int, end: int) -> bool:
    before, after = text[:start].rstrip(), text[end:].lstrip()
    if before and before[-1] in _OPERATOR_CHARS:
        return True
    # A dash right after the math is punctuation, any other operator continues the formula.
    return bool(after) and after[0] in _OPERATOR_CHARS.replace("-", "")


def _prose_runs(prose: str) -> list[tuple[int, str]]:
    """Arithmetic written between words (``60 * 7 = 420 seconds``), with "is"/"equals" read as =.

    A run glued to algebra (``x - 1 = 0``: it follows a letter and starts with an operator) is
    not closed arithmetic and is dropped, because it is only the tail of a formula.
    """
    words = [(m.start(), m.group(0)) for m in _WORD.finditer(prose)]
    runs, current, previous = [], [], ""
    for start, raw in [*words, (len(prose), "")]:
        word = raw.rstrip(".,;:?")
        if word and _ARITH_WORD.match(word):
            current.append((start, word))
            if raw != word:  # sentence punctuation closes the run
                runs.append((previous, current))
                current, previous = [], raw
            continue
        if word.lower() in _IS_WORDS and _computes(current):
            current.append((start, "="))
            continue
        if current:
            runs.append((previous, current))
        current, previous = [], raw
    out = []
    for before, run in runs:
        while run and run[-1][1] in ("=", *"+-*/×÷·−^<>≤≥≠"):
            run = run[:-1]
        if not run or not any(_REL_TOKEN.search(w) for _, w in run):
            continue
        if run[0][1][0] in "+*/×÷·^=<>≤≥≠)" or _is_mathy(before):
            continue
        text = " ".join(w for _, w in run)
        out.append((run[0][0], text))
    return out


def _computes(run: list[tuple[int, str]]) -> bool:
    """ "A is B" claims a computation only when A has an operator ("210 + 91 is 300", not
    "100 is 2^2 times ...")."""
    tail = []
    for _, word in reversed(run):
        if _REL_TOKEN.fullmatch(word):
            break
        tail.append(word)
    return bool(tail) and bool(re.search(r".[+\-*/×÷·−^!]", " ".join(reversed(tail))))


def _is_mathy(word: str) -> bool:
    """A neighbouring word that belongs to a formula (``x``, ``2x``, ``f(3)``, ``ln``, ``–``).

    >>> [_is_mathy(w) for w in ("x", "a", "ln", "(1)+R", "–", "total")]
    [True, False, True, True, True, False]
    """
    if not word:
        return False
    if len(word) == 1 and word.isalpha():
        return word not in ("a", "A", "I")
    if word.lower() in _FUNCTIONS or not any(ch.isalnum() for ch in word):
        return True
    has_letter = any(ch.isalpha() for ch in word)
    return bool(re.search(r"[\\^_{}=]|\d[a-zA-Z]|[a-zA-Z]\(", word)) or (
        has_letter and any(ch in _OPERATOR_CHARS for ch in word)
    )


def _chain_links(body: str, offset: int) -> list[Link]:
    if _NOT_NUMERIC_FORMULA.search(body):
        return []
    body = _join_aligned_rows(body)
    links = []
    for part_start, part in _split_top_level(body, (",", ";", "\\quad", "\\qquad", "\\\\")):
        pieces = _split_relations(part)
        for (a_off, lhs, _), (_, rhs, rel) in pairwise(pieces):
            lhs, rhs = _tidy(lhs), _tidy(_tidy(rhs).rstrip(".,;:"))  # sentence punctuation
            if not lhs or not rhs or _NOT_NUMERIC.search(lhs) or _NOT_NUMERIC.search(rhs):
                continue
            closed = evaluate(lhs) is not None and evaluate(rhs) is not None
            real = not closed and is_real_arithmetic(lhs) and is_real_arithmetic(rhs)
            links.append(Link(lhs, rel, rhs, offset + part_start + a_off, closed, real))
    return links


_EDGE_SPACING = re.compile(r"^(?:\s|\\[,;:! ]|\\q?quad\b)+|(?:\s|\\[,;:! ]|\\q?quad\b|\\$)+$")


def _tidy(side: str) -> str:
    r"""A side without the spacing around it and with one space between words.

    >>> _tidy("\\;\n\\sqrt{100\\cdot50}\n\\; ")
    '\\sqrt{100\\cdot50}'
    """
    return " ".join(_EDGE_SPACING.sub("", side).split())


def _join_aligned_rows(body: str) -> str:
    """``a &= b \\\\ &= c`` is one chain: a row that starts with a relation continues the last.

    Replacements keep the length, so link offsets still point into the step text.

    >>> _join_aligned_rows(r"a &= b \\\\ &= c")
    'a  = b     = c'
    """
    body = re.sub(
        r"\\\\(\s*&)?(?=\s*(?:[=<>≤≥≠]|\\(?:le|ge|ne|approx)))",
        lambda m: " " * len(m.group(0)),
        body,
    )
    return body.replace("&", " ")


def _split_relations(part: str) -> list[tuple[int, str, str]]:
    """``a = b < c`` → [(0, 'a', ''), (.., 'b', '='), (.., 'c', '<')] at brace depth zero."""
    pieces, depth, last, rel = [], 0, 0, ""
    pos = 0
    while pos < len(part):
        ch = part[pos]
        depth += 1 if ch in "({[" else (-1 if ch in ")}]" else 0)
        m = _REL_TOKEN.match(part, pos) if depth == 0 else None
        if m:
            pieces.append((last, part[last:pos], rel))
            rel = RELATIONS[m.group(0)]
            last = pos = m.end()
            continue
        pos += 1
    pieces.append((last, part[last:], rel))
    return pieces


def _split_top_level(body: str, separators: tuple[str, ...]) -> list[tuple[int, str]]:
    parts, depth, last, pos = [], 0, 0, 0
    while pos < len(body):
        ch = body[pos]
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        sep = next((s for s in separators if body.startswith(s, pos)), None) if depth == 0 else None
        if sep in (",", ";") and pos and body[pos - 1] == "\\":
            sep = None  # \, and \; are spacing commands
        # A comma between digit groups is a thousands separator (1,000,000), not a list.
        if sep == "," and pos and re.match(r"\d,\d{3}(?!\d)", body[pos - 1 : pos + 5]):
            sep = None
        if sep:
            parts.append((last, body[last:pos]))
            last = pos = pos + len(sep)
            continue
        pos += 1
    parts.append((last, body[last:]))
    return parts


def _strip_delimiters(span: str) -> tuple[int, str]:
    for opener, closer in (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")):
        if span.startswith(opener) and span.endswith(closer):
            return len(opener), span[len(opener) : len(span) - len(closer)]
    env = re.match(r"\\begin\{[a-zA-Z*]+\}", span)
    if env:
        inner = re.sub(r"\\end\{[a-zA-Z*]+\}$", "", span[env.end() :])
        return env.end(), inner
    return 0, span


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for a, b in spans:
        for i in range(a, b):
            chars[i] = " "
    return "".join(chars)


# Words that make a sentence's relations hypothetical or approximate rather than asserted.
_HEDGE = re.compile(
    r"plug|substitut|check|test|\bif\b|suppos|assum|whether|\bnot\b|false|incorrect|wrong|"
    r"contradict|impossible|\?|instead|rather than|would|n't|\bbase\b|\bmod\b|modulo|"
    r"approx|about|roughly|nearly|estimate|\bno\b|\blead(?:s|ing)? to\b|\bled to\b|ruled out|"
    r"absurd",
    re.IGNORECASE,
)


def is_hedged(text: str) -> bool:
    """Hedge words are read in the prose: ``\\approx`` inside a formula is not "approximately"
    said of the sentence's other claims. A negated relation in a formula (``\\not``) still is."""
    return bool(_HEDGE.search(outside_math(text))) or "\\not" in text


def outside_math(text: str) -> str:
    """The text with every formula blanked out (positions kept): the prose around the maths."""
    chars = list(text)
    for a, b in math_spans(text):
        chars[a:b] = " " * (b - a)
    return "".join(chars)
