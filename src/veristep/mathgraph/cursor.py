"""Token navigation shared by the parser's parts: peeking, expecting, bounded sub-ranges, errors."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NoReturn, TypeVar

from veristep.core.errors import did_you_mean
from veristep.mathgraph.errors import LatexParseError
from veristep.mathgraph.lexer import Token
from veristep.mathgraph.vocabulary import KNOWN_COMMANDS, REFUSED

# Each nesting level costs about fifteen Python frames; 32 levels is far beyond real mathematics
# and keeps the parser well inside the interpreter's recursion limit.
MAX_DEPTH = 32

T = TypeVar("T")
_ALIGNABLE = frozenset({"=", "<", ">", "\\ne", "\\neq", "\\le", "\\leq", "\\ge", "\\geq",
                        "\\approx", "\\lor", "\\land", "\\iff", "\\Leftrightarrow",
                        "\\Rightarrow", "\\implies"})  # fmt: skip


class Cursor:
    """A position in a token list with an optional upper bound (for sub-ranges)."""

    def __init__(self, source: str, tokens: list[Token]) -> None:
        self.src = source
        self.toks = tokens
        self.i = 0
        self.end = len(tokens)
        self.depth = 0
        self.skip_amp = False  # inside a system: '&' is only an alignment point
        self.match = _match_braces(tokens)
        # the rest of a number whose first digit a script took (x^23 is x^{2} 3), at index
        # partial_at; kept here so that token indices never shift under a bounded sub-range
        self.partial: Token | None = None
        self.partial_at = -1

    # --- looking -------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> Token | None:
        if self.skip_amp:
            # '&' aligns a relation (x &= 1); anywhere else it is left for the caller to refuse
            while (
                self.i + 1 < self.end
                and self.toks[self.i].text == "&"
                and self.toks[self.i + 1].text in _ALIGNABLE
            ):
                self.i += 1
        j = self.i + k
        if j >= self.end:
            return None
        return self.partial if j == self.partial_at else self.toks[j]

    def at(self, *texts: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.text in texts and tok.kind in ("char", "cmd")

    def at_end(self) -> bool:
        return self.peek() is None

    def advance(self) -> Token:
        tok = self.peek()
        if tok is None:
            self.fail("unexpected end of input")
        self.i += 1
        return tok

    def expect(self, text: str, what: str | None = None) -> Token:
        tok = self.peek()
        if tok is None or tok.text != text or tok.kind not in ("char", "cmd"):
            self.fail(f"expected {what or repr(text)}", tok)
        self.i += 1
        return tok

    # --- structure -----------------------------------------------------------------------------
    @contextmanager
    def nested(self) -> Iterator[None]:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"nesting deeper than {MAX_DEPTH} levels")
        try:
            yield
        finally:
            self.depth -= 1

    def within(self, end: int, parse: Callable[[], T], what: str = "expression") -> T:
        """Run ``parse`` on tokens ``[i, end)``; everything up to ``end`` must be consumed."""
        saved = self.end
        self.end = end
        try:
            result = parse()
            if not self.at_end():
                self.unexpected(self.peek(), f" in {what}")  # type: ignore[arg-type]
        finally:
            self.end = saved
        return result

    def closing(self, index: int) -> int:
        """Index of the '}' matching the '{' at ``index``."""
        return self.match[index]

    # --- errors --------------------------------------------------------------------------------
    def fail(self, message: str, tok: Token | None = None, hint: str | None = None) -> NoReturn:
        if tok is None:
            tok = self.peek() if self.i < self.end else None
        if tok is None:
            pos = self.toks[self.end - 1].end if self.end > 0 else 0
            raise LatexParseError(message, source=self.src, position=min(pos, len(self.src)),
                                  length=1, hint=hint)  # fmt: skip
        raise LatexParseError(message, source=self.src, position=tok.pos,
                              length=max(tok.end - tok.pos, 1), hint=hint)  # fmt: skip

    def unexpected(self, tok: Token, where: str = "") -> NoReturn:
        if tok.kind == "cmd" and (tok.name not in KNOWN_COMMANDS or tok.name in REFUSED):
            self.unknown_command(tok)
        self.fail(f"unexpected {tok.text!r}{where}", tok)

    def unknown_command(self, tok: Token) -> NoReturn:
        name = tok.name
        if name in REFUSED:
            self.fail(f"{tok.text} is not supported: {REFUSED[name]}", tok)
        if name in KNOWN_COMMANDS:
            self.fail(f"{tok.text} is not allowed here", tok)
        hint = did_you_mean(name, KNOWN_COMMANDS, cutoff=0.7)
        self.fail(f"unknown command {tok.text}", tok, hint="\\" + hint if hint else None)


def _match_braces(tokens: list[Token]) -> dict[int, int]:
    stack: list[int] = []
    out: dict[int, int] = {}
    for idx, tok in enumerate(tokens):
        if tok.kind == "char" and tok.text == "{":
            stack.append(idx)
        elif tok.kind == "char" and tok.text == "}" and stack:
            out[stack.pop()] = idx
    return out
