"""Typed errors that carry structure: where the input went wrong, what was there, what was meant.

>>> err = InputError("unknown command \\\\fracc", source="\\\\fracc{1}{2}", position=0, length=6,
...                  hint="\\\\frac")
>>> print(err.located())
unknown command \\fracc at column 1 (did you mean \\frac?)
  \\fracc{1}{2}
  ^^^^^^
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


class VeristepError(Exception):
    """Base of every error veristep raises on purpose."""


@dataclass
class InputError(VeristepError):
    """Bad user input (LaTeX, JSON, TPTP, a law, a Coq statement): exit code 2, never a traceback.

    ``position`` is a 0-based character offset into ``source``; ``length`` how many characters the
    offending fragment spans; ``hint`` a "did you mean" suggestion.
    """

    message: str
    source: str | None = None
    position: int | None = None
    length: int = 1
    hint: str | None = None
    kind: str = "input"
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    @property
    def fragment(self) -> str | None:
        """The offending text, cut in the middle past :data:`MAX_FRAGMENT` characters."""
        if self.source is None or self.position is None:
            return None
        return shorten(self.source[self.position : self.position + max(self.length, 1)])

    def headline(self) -> str:
        where = f" at column {self.position + 1}" if self.position is not None else ""
        hint = f" (did you mean {self.hint}?)" if self.hint else ""
        return f"{self.message}{where}{hint}"

    def located(self, context: int = 40) -> str:
        """The headline plus the source line with a caret under the offending fragment."""
        head = self.headline()
        if self.source is None or self.position is None:
            return head
        length = min(max(self.length, 1), MAX_FRAGMENT)  # a 19,000-digit number: its start
        start = max(0, self.position - context)
        end = min(len(self.source), self.position + length + context)
        prefix = "…" if start > 0 else ""
        suffix = "…" if end < len(self.source) else ""
        excerpt = prefix + self.source[start:end].replace("\n", " ") + suffix
        pad = len(prefix) + self.position - start
        return f"{head}\n  {excerpt}\n  {' ' * pad}{'^' * length}"

    def one_line(self) -> str:
        """A single line for stderr: the headline and the quoted fragment."""
        frag = self.fragment
        quoted = f": {frag!r}" if frag else ""
        return f"{self.headline()}{quoted}"

    def to_json(self) -> dict[str, Any]:
        return {
            "error": self.kind,
            "message": self.message,
            "position": self.position,
            "fragment": self.fragment,
            "hint": self.hint,
        }

    def __str__(self) -> str:
        return self.one_line()


MAX_FRAGMENT = 60


def shorten(text: str, limit: int = MAX_FRAGMENT) -> str:
    """``text`` cut in the middle with an ellipsis when it is longer than ``limit`` characters.

    >>> shorten("1" * 19000, 12)
    '11111…111111 (19000 characters)'
    """
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[: half - 1]}…{text[-half:]} ({len(text)} characters)"


class BudgetExceeded(VeristepError):
    """A deadline or memory cap ran out. Never evidence of anything about the mathematics."""


def did_you_mean(word: str, candidates: Iterable[str], cutoff: float = 0.75) -> str | None:
    """The closest candidate to ``word`` or None.

    >>> did_you_mean("\\\\sqrtt", ["\\\\sqrt", "\\\\frac"])
    '\\\\sqrt'
    """
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return matches[0] if matches else None
