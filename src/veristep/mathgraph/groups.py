"""Delimited groups: brackets, ``\\left…\\right``, |·|, floors, sets, intervals, environments."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from veristep.mathgraph.lexer import Token
from veristep.mathgraph.nodes import STATEMENT_KINDS, Kind, Node

if TYPE_CHECKING:
    from veristep.mathgraph.parser import Parser

    _Base = Parser
else:
    _Base = object

_CLOSERS = {"(": ")", "[": "]", "\\{": "\\}", "|": "|", "\\lvert": "\\rvert", "\\vert": "\\vert",
            "\\lfloor": "\\rfloor", "\\lceil": "\\rceil", ".": None}  # fmt: skip
_SYSTEM_ENVS = {"cases": "cases", "array": "array", "aligned": "aligned", "align*": "aligned",
                "gathered": "aligned", "align": "aligned"}  # fmt: skip
_MATRIX_ENVS = {"pmatrix", "bmatrix", "matrix"}


class GroupParts(_Base):
    def parse_char(self, tok: Token) -> Node:
        text = tok.text
        if text == "{":
            return self.parse_brace_group()
        if text in "([":
            self.advance()
            return self.bracketed(tok, text, closers=(")", "]"), left=False)
        if text == "|":
            self.advance()
            return self.absolute(tok, "|", left=False)
        if text == "-":
            self.advance()
            return Node.make(Kind.NEG, [self.parse_postfix()])
        if text in ")]}":
            self.fail(f"unbalanced {text!r}: nothing open to close", tok)
        self.fail(f"expected an expression, found {text!r}", tok)

    def parse_brace_group(self) -> Node:
        """``{…}`` groups without a node of its own; ``{n \\choose k}`` is a binomial."""
        start = self.advance()
        close = self.closing(self.i - 1)
        if self.i == close:
            self.fail("empty group {}", start)

        def body() -> Node:
            node = self.parse_statement()
            if self.at("\\choose"):
                self.advance()
                node = Node.make(Kind.BINOM, [node, self.parse_expr()], "choose")
            return node

        node = self.within(close, body, "braces")
        self.advance()
        return node

    # --- brackets and intervals ----------------------------------------------------------------
    def bracketed(self, opener: Token, text: str, closers: tuple[str, ...], left: bool) -> Node:
        if self.at("\\right", ")", "]"):
            self.fail("empty brackets", opener)
        saved_abs, self.abs_depth = self.abs_depth, 0
        items = [self.parse_statement()]
        while self.at(","):
            self.advance()
            items.append(self.parse_statement())
        self.abs_depth = saved_abs
        if left:
            self.expect("\\right", "\\right to close \\left")
        close = self.peek()
        if close is None or close.text not in closers:
            self.fail(f"{opener.text!r} is never closed", opener)
        self.advance()
        if len(items) == 1:
            if close.text != _CLOSERS[text]:
                self.fail(f"{text!r} closed by {close.text!r}", close)
            return items[0]
        if len(items) == 2 and not any(i.kind in STATEMENT_KINDS for i in items):
            return Node.make(Kind.INTERVAL, items, text + close.text)
        self.fail("tuples and lists are not supported (an interval has two ends)", opener)

    def parse_left(self, tok: Token) -> Node:
        self.advance()
        delim = self.advance()
        text = delim.text
        if text not in _CLOSERS:
            self.fail(f"unsupported delimiter after \\left: {text!r}", delim)
        if text in ("(", "["):
            return self.bracketed(delim, text, closers=(")", "]"), left=True)
        if text in ("|", "\\lvert", "\\vert"):
            return self.absolute(delim, _CLOSERS[text], left=True)  # type: ignore[arg-type]
        if text in ("\\lfloor", "\\lceil"):
            return self.floor_ceil(delim, left=True)
        if text == "\\{":
            return self.braced_set(delim, left=True)
        # \left. only opens a one-sided brace system written \left. ... \right\}
        self.fail("\\left. is not supported (evaluation bars, one-sided delimiters)", delim)

    def absolute(self, opener: Token, closer: str, left: bool) -> Node:
        self.abs_depth += 1
        inner = self.parse_expr()
        self.abs_depth -= 1
        if left:
            self.expect("\\right", "\\right| to close \\left|")
        tok = self.peek()
        if tok is None or tok.text != closer:
            self.fail("absolute value bar is never closed", opener)
        self.advance()
        return Node.make(Kind.ABS, [inner])

    def floor_ceil(self, opener: Token, left: bool) -> Node:
        closer = _CLOSERS[opener.text]
        saved, self.abs_depth = self.abs_depth, 0
        inner = self.parse_expr()
        self.abs_depth = saved
        if left:
            self.expect("\\right", f"\\right{closer}")
        self.expect(closer)  # type: ignore[arg-type]
        return Node.make(Kind.FLOOR if opener.text == "\\lfloor" else Kind.CEIL, [inner])

    def braced_set(self, opener: Token, left: bool) -> Node:
        """``\\{a, b\\}`` is a finite set; ``\\left\\{\\begin{array}…\\right.`` a system."""
        if self.at("\\begin"):
            system = self.parse_environment(self.peek())  # type: ignore[arg-type]
            if system.kind is not Kind.SYSTEM:
                self.fail("a brace must hold a system of statements", opener)
            if left:
                self.expect("\\right", "\\right. to close the brace")
                if not self.at(".", "\\}"):
                    self.fail("expected \\right. or \\right\\}", self.peek())
                self.advance()
            return system
        items: list[Node] = []
        closing = ("\\right", "\\}") if left else ("\\}",)
        while not self.at(*closing):
            if items:
                self.expect(",")
            items.append(self.parse_expr())
        if left:
            self.advance()
        self.expect("\\}")
        return Node.make(Kind.SET, items)

    def parse_set_literal(self, tok: Token) -> Node:
        self.advance()
        return self.braced_set(tok, left=False)

    def parse_bar_command(self, tok: Token) -> Node:
        self.advance()
        return self.absolute(tok, "\\rvert" if tok.text == "\\lvert" else "\\vert", left=False)

    def parse_floor_command(self, tok: Token) -> Node:
        self.advance()
        return self.floor_ceil(tok, left=False)

    # --- environments --------------------------------------------------------------------------
    def environment_name(self) -> str:
        brace = self.expect("{", "'{' after \\begin/\\end")
        close = self.closing(self.i - 1)
        name = "".join(self.advance().text for _ in range(close - self.i))
        self.advance()
        if not name:
            self.fail("missing environment name", brace)
        return name

    def parse_environment(self, tok: Token) -> Node:
        self.advance()
        name = self.environment_name()
        if name == "array" and self.at("{"):
            self.i = self.closing(self.i) + 1  # column specification
        if name not in _SYSTEM_ENVS and name not in _MATRIX_ENVS:
            self.fail(f"unsupported environment {name!r}", tok)
        rows = self.environment_rows(matrix=name in _MATRIX_ENVS)
        end = self.expect("\\end", f"\\end{{{name}}}")
        if self.environment_name() != name:
            self.fail(f"\\begin{{{name}}} closed by a different \\end", end)
        if name in _MATRIX_ENVS:
            if len({len(r) for r in rows}) != 1:
                self.fail("matrix rows have different lengths", tok)
            return Node.make(Kind.MATRIX, [Node.make(Kind.ROW, r) for r in rows], name)
        if not rows:
            self.fail("empty system", tok)
        return Node.make(Kind.SYSTEM, [r[0] for r in rows], _SYSTEM_ENVS[name])

    def environment_rows(self, matrix: bool) -> list[list[Node]]:
        rows: list[list[Node]] = []
        saved = self.skip_amp
        self.skip_amp = not matrix
        try:
            while not self.at("\\end"):
                if self.at_end():
                    self.fail("environment is never closed")
                if self.at("\\\\", "\\cr"):
                    self.advance()
                    continue
                row = [self.parse_expr() if matrix else self.parse_statement()]
                while matrix and self.at("&"):
                    self.advance()
                    row.append(self.parse_expr())
                rows.append(row)
                if self.at("&"):
                    self.fail("'&' may only align a relation (piecewise cases are not supported)")
                if not self.at("\\\\", "\\cr", "\\end"):
                    self.fail("expected \\\\ or \\end after a row")
        finally:
            self.skip_amp = saved
        return rows

    def parse_binom(self, tok: Token) -> Node:
        self.advance()
        return Node.make(Kind.BINOM, [self.parse_argument(), self.parse_argument()], "binom")

    def parse_sqrt(self, tok: Token) -> Node:
        self.advance()
        index = None
        if self.at("["):
            self.advance()
            index = self.parse_expr()
            self.expect("]")
        radicand = self.parse_argument()
        return Node.make(Kind.SQRT, [radicand] if index is None else [radicand, index])

    def parse_argument(self) -> Node:
        """A macro argument: a braced group or a single token."""
        if self.at("{"):
            return self.parse_brace_group()
        return self.parse_script()

    def parse_empty_set(self, tok: Token) -> Node:
        self.advance()
        return Node.make(Kind.SET_CONST, value="emptyset")

    HANDLERS: ClassVar[dict[str, Callable[..., Node]]] = {
        "left": parse_left,
        "emptyset": parse_empty_set,
        "varnothing": parse_empty_set,
        "{": parse_set_literal,
        "lvert": parse_bar_command,
        "vert": parse_bar_command,
        "lfloor": parse_floor_command,
        "lceil": parse_floor_command,
        "begin": parse_environment,
        "binom": parse_binom,
        "dbinom": parse_binom,
        "tbinom": parse_binom,
        "sqrt": parse_sqrt,
    }
