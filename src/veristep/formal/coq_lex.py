"""Coq's own lexing of comments, strings and sentences, for text a candidate controls.

The rules follow Coq's lexer (``clexer.ml``), not OCaml's or a regex's:

- ``(*`` opens a comment and comments nest; ``*)`` closes one. ``(*)`` opens a comment (the
  ``)`` is just a character inside it).
- Inside a comment a ``"`` starts a string that runs to the next lone ``"``; a ``*)`` inside that
  string does not close the comment. So ``(* "*)" *)`` is one complete comment.
- Outside comments a string is ``"..."`` with ``""`` standing for one quote; ``(*`` inside a
  string opens nothing.
- A sentence ends at a ``.`` followed by a blank or the end of the text (outside comments and
  strings); ``Coq.Reals`` or ``1.5`` do not end one.

>>> mask('a (* "*)" *) b')
'a            b'
>>> mask('Unset Guard (**) Checking.')
'Unset Guard      Checking.'
>>> mask('x (* never closed') is None
True
>>> [s.text for s in sentences('Require Import Coq.Reals.Reals. (* a. b. *) Check 1.5 .')]
['Require Import Coq.Reals.Reals.', 'Check 1.5 .']
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def mask(text: str, strings: bool = True) -> str | None:
    """``text`` with every comment blanked and (with ``strings``) every string's contents
    blanked, quotes kept.

    The result has the same length, so positions carry over. None when a comment or a string
    is not terminated (Coq would refuse the file, and a filter must not guess what it hides).
    """
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("(*", i):
            end = _comment_end(text, i + 2)
            if end is None:
                return None
            for k in range(i, end):
                if out[k] not in "\n":
                    out[k] = " "
            i = end
        elif text[i] == '"':
            end = _string_end(text, i + 1)
            if end is None:
                return None
            for k in range(i + 1, end - 1 if strings else i + 1):
                if out[k] != "\n":
                    out[k] = " "
            i = end
        else:
            i += 1
    return "".join(out)


def _string_end(text: str, i: int) -> int | None:
    """Index just after the closing quote of a string whose contents start at ``i``."""
    n = len(text)
    while i < n:
        if text[i] == '"':
            if i + 1 < n and text[i + 1] == '"':  # "" is an escaped quote
                i += 2
                continue
            return i + 1
        i += 1
    return None


def _comment_end(text: str, i: int) -> int | None:
    """Index just after the ``*)`` that closes a comment whose body starts at ``i``."""
    depth, n = 1, len(text)
    while i < n:
        if text.startswith("(*", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("*)", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        elif text[i] == '"':
            end = _string_end(text, i + 1)
            if end is None:
                return None
            i = end
        else:
            i += 1
    return None


@dataclass(frozen=True)
class Sentence:
    """One sentence: its original text, its masked text, and where it starts in the file."""

    text: str
    code: str  # comments and string contents blanked
    start: int

    @property
    def words(self) -> list[str]:
        return WORD.findall(self.code)

    @property
    def head(self) -> list[str]:
        """The leading words after attributes (``#[...]``), bullets and braces."""
        code = _ATTRIBUTES.sub(" ", self.code).lstrip(" \t\n-+*{}")
        return WORD.findall(code)[:4]


WORD = re.compile(r"[^\W\d][\w']*(?:\.[^\W\d][\w']*)*")
_ATTRIBUTES = re.compile(r"#\[[^\]]*\]")
_END = re.compile(r"(?<!\.)\.(?=\s|$)")


def sentences(text: str) -> list[Sentence]:
    """The sentences of ``text``; a trailing unterminated piece is returned as a sentence too.

    Raises ValueError on an unterminated comment or string.
    """
    code = mask(text)
    if code is None:
        raise ValueError("unterminated comment or string")
    out: list[Sentence] = []
    start = 0
    for match in _END.finditer(code):
        end = match.end()
        _append(out, text, code, start, end)
        start = end
    _append(out, text, code, start, len(text))
    return out


def _append(out: list[Sentence], text: str, code: str, start: int, end: int) -> None:
    piece = code[start:end]
    if piece.strip():
        lead = len(piece) - len(piece.lstrip())
        out.append(Sentence(text[start + lead : end], piece[lead:], start + lead))


def normalized(text: str) -> str:
    """``text`` without comments and with blanks collapsed (string contents kept): equal for
    texts that differ only in layout or comments."""
    code = mask(text, strings=False)
    return " ".join((code if code is not None else text).split())
