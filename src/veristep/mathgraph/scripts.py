"""Scripts: subscripts that are part of a name, superscript arguments, the conjugate mark.

``x_1``, ``x_{ab}``, ``\\alpha_{2}`` and ``x_{n+1}`` are names; ``x^{*}`` / ``x^\\star`` is the
complex conjugate; ``x^23`` is ``x^{2} 3`` as in TeX.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veristep.mathgraph.lexer import Token
from veristep.mathgraph.nodes import Kind, Node
from veristep.mathgraph.vocabulary import CONSTANT_COMMANDS, GREEK

if TYPE_CHECKING:
    from veristep.mathgraph.parser import Parser

    _Base = Parser
else:
    _Base = object

_WORD_CONSTANTS = {"e": "e", "i": "i"}
# What an expression subscript (x_{n+1}, a_{2k-1}) may contain.
_SUBSCRIPT_KINDS = frozenset({Kind.NUMBER, Kind.SYMBOL, Kind.CONSTANT, Kind.ADD, Kind.NEG,
                              Kind.MUL, Kind.POW})  # fmt: skip


class ScriptParts(_Base):
    def conjugate_star(self) -> str | None:
        """After ``^``: ``\\star``, ``*``, ``{\\star}`` or ``{*}`` (consumed): the conjugate."""
        tok = self.peek()
        if tok is None:
            return None
        braced = tok.kind == "char" and tok.text == "{" and self.match.get(self.i) == self.i + 2
        mark = self.peek(1) if braced else tok
        if mark is None or mark.text not in ("\\star", "*") or mark.kind not in ("cmd", "char"):
            return None
        self.i += 3 if braced else 1
        return "star" if mark.text == "\\star" else "*"

    def subscripted(self, node: Node, tok: Token) -> Node:
        """``x_1``, ``x_{ab}``, ``{x}_{i}``: a subscript is part of a name, not an operation."""
        if node.kind not in (Kind.SYMBOL, Kind.CONSTANT) or "_" in node.value:
            self.fail("a subscript is only allowed on a name", tok)
        if node.kind is Kind.CONSTANT and node.value not in _WORD_CONSTANTS:
            self.fail("a subscript is only allowed on a name", tok)
        self.advance()
        return Node.make(Kind.SYMBOL, value=f"{node.value}_{self.subscript_text()}")

    def subscript_text(self) -> str:
        tok = self.advance()
        if tok.kind == "number":
            return self.split_digit(tok)
        if tok.kind == "letter":
            return tok.text
        if tok.kind == "cmd" and tok.name in GREEK | {"pi"}:
            return tok.name
        if tok.text != "{" or tok.kind != "char":
            self.fail("a subscript must be a name or a number", tok)
        close = self.closing(self.i - 1)
        parts = self.toks[self.i : close]
        if len(parts) == 1 and parts[0].kind == "cmd" and parts[0].name in GREEK:
            self.i = close + 1
            return parts[0].name
        if parts and all(p.kind in ("letter", "number") for p in parts):
            self.i = close + 1
            return "".join(p.text for p in parts)
        return "{" + self.expression_subscript(tok, close) + "}"

    def expression_subscript(self, brace: Token, close: int) -> str:
        """``x_{n+1}``: the subscript, printed canonically, becomes part of one name.

        The name stands for one unknown: x_{n+1} and x_{n} are unrelated symbols, which is sound
        (a step that holds for unrelated values holds for related ones) but incomplete.
        """
        from veristep.mathgraph.latex_out import to_latex

        if self.i == close:
            self.fail("empty subscript", brace)
        node = self.within(close, self.parse_expr, "the subscript")
        self.advance()
        for part in node.walk():
            if part.kind not in _SUBSCRIPT_KINDS:
                self.fail("a subscript may only hold names, numbers, +, - and products "
                          "(x_{n+1}, a_{2k-1})", brace)  # fmt: skip
        return to_latex(node)

    def split_digit(self, tok: Token) -> str:
        """``x^23`` is ``x^{2} 3`` in TeX: a script takes one character of a number."""
        if len(tok.text) > 1:
            if tok.text[1] == ".":
                self.fail("a decimal in a script needs braces", tok)
            self.i -= 1
            self.partial_at = self.i
            self.partial = Token("number", tok.text[1:], tok.pos + 1, tok.end)
        return tok.text[0]

    def parse_script(self) -> Node:
        """The argument of ``^``: one token or a braced group."""
        tok = self.peek()
        if tok is None:
            self.fail("a superscript needs an argument")
        if tok.kind == "number":
            self.advance()
            return Node.make(Kind.NUMBER, value=self.split_digit(tok))
        if tok.kind == "letter":
            self.advance()
            return self.letter(tok)
        if tok.kind == "char" and tok.text == "{":
            return self.parse_primary()
        if tok.kind == "cmd" and (tok.name in GREEK or tok.name in CONSTANT_COMMANDS):
            return self.parse_primary()
        if tok.kind == "cmd" and tok.name in ("frac", "dfrac", "tfrac", "sqrt"):
            return self.parse_primary()
        if tok.kind == "cmd" and not self.command_starts_factor(tok) and tok.name not in (
            "pm", "mp", "cdot", "times"):  # fmt: skip
            self.unknown_command(tok)
        self.fail("put this superscript in braces", tok)
