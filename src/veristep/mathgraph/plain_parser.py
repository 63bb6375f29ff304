"""Plain maths → semantic graph: the LaTeX parser over the plain lexer's tokens, with the
conventions of typed maths where they differ from TeX.

* Statements separated by top-level commas, semicolons or line breaks are a system (∧).
* ``/`` takes one factor on its right. A factor after it, set apart by a space, multiplies the
  quotient (``3/4 y`` = ¾·y, as students mean); glued to it (``1/2x``, ``6/2(1+2)``) it is
  ambiguous and refused.
* A function's unbracketed argument glued to ``/`` (``sin x/2``) is refused; ``sin x / cos x``
  is (sin x)/(cos x).
* Two numbers side by side (``2 3``) and a round pair outside ``in`` (``(1, 2)``: a point or an
  interval?) are refused; ``x = 1 or 4`` is refused with ``x = 1 or x = 4`` as the hint.

>>> from veristep.mathgraph.latex_out import to_latex
>>> to_latex(parse_plain("3/4 y = 6, x + y = 1"))
'\\\\begin{cases} \\\\frac{3}{4} y = 6 \\\\\\\\ x + y = 1 \\\\end{cases}'
"""

from __future__ import annotations

from veristep.core.settings import Settings
from veristep.mathgraph.errors import LatexParseError
from veristep.mathgraph.lexer import Token
from veristep.mathgraph.nodes import STATEMENT_KINDS, Graph, Kind, Node
from veristep.mathgraph.parser import MAX_GRAPH_DEPTH, Parser, _default_settings, _depth
from veristep.mathgraph.plain_lexer import tokenize_plain


def parse_plain(text: str, settings: Settings | None = None) -> Graph:
    """Parse one state typed as plain maths (``sqrt(x) = 2, x >= 0``) into a graph."""
    settings = settings or _default_settings()
    if not isinstance(text, str):
        raise LatexParseError(f"expected a string, got {type(text).__name__}")
    if len(text) > settings.max_latex_chars:
        raise LatexParseError(f"input longer than {settings.max_latex_chars} characters",
                              source=text, position=settings.max_latex_chars)  # fmt: skip
    if not text.strip():
        raise LatexParseError("empty input", source=text, position=0)
    root = PlainParser(text, tokenize_plain(text), settings).parse_line()
    if _depth(root) > MAX_GRAPH_DEPTH:
        raise LatexParseError(f"expression nested deeper than {MAX_GRAPH_DEPTH} levels",
                              source=text, position=0, length=len(text))  # fmt: skip
    graph = Graph(root)
    if len(graph) > settings.max_graph_nodes:
        raise LatexParseError(f"more than {settings.max_graph_nodes} nodes", source=text,
                              position=0)  # fmt: skip
    return graph


class PlainParser(Parser):
    """One parse of one typed string; only the conventions that differ from TeX live here."""

    def parse_line(self) -> Node:
        if self.at("="):
            return super().parse_line()  # STACK's "= e": the previous line's expression goes on
        starts = [self.peek()]
        rows = [self.statement_row()]
        while (tok := self.peek()) is not None and tok.kind == "sep":
            self.advance()
            if self.at_end():
                break  # a trailing comma or line break
            starts.append(self.peek())
            rows.append(self.statement_row())
        if not self.at_end():
            self.unexpected(self.peek())  # type: ignore[arg-type]
        if len(rows) == 1:
            return rows[0]
        for row, start in zip(rows, starts, strict=True):
            if row.kind not in STATEMENT_KINDS:
                self.fail("a list separated by commas needs a statement in every part (an "
                          "equation or an inequality)", start, hint="x = 1 or x = 2")  # fmt: skip
        return self.system(rows)

    def statement_row(self) -> Node:
        start = self.peek()
        if start is not None and start.kind == "sep":
            self.fail("expected a statement before the separator", start)
        row = self.parse_statement()
        tok = self.peek()
        if tok is not None and tok.kind != "sep":
            self.unexpected(tok)
        if row.kind in (Kind.IMPLIES, Kind.IFF) and (tok is not None or start is not self.toks[0]):
            self.fail("'=>' inside a list of statements: which statements does it join? (put "
                      "each implication on its own line)", start)  # fmt: skip
        return row

    def system(self, rows: list[Node]) -> Node:
        """``x + y = 5, x - y = 1`` is a system (∧); ``x = 1, x = 4`` lists the values of one
        unknown, which a student means as ``x = 1 or x = 4`` (as a system it could not hold)."""
        names = {_assigned(r) for r in rows}
        if len(names) == 1 and None not in names:
            return Node.make(Kind.OR, rows, "or")
        named = [_assigned(r) for r in rows if _assigned(r) is not None]
        repeated = sorted({n for n in named if named.count(n) > 1})
        if repeated:
            name = repeated[0]
            self.fail(f"{name} is given two values: a list of answers joined by 'or', or a "
                      "system that has no solution?", self.toks[0],
                      hint=f"{name} = … or {name} = …")  # fmt: skip
        return Node.make(Kind.SYSTEM, rows, "cases")

    # --- statements ----------------------------------------------------------------------------
    def parse_nary(self, which: str) -> Node:
        """``x = 1 or 4`` is read as ``x = 1 or x = 4`` (shown back so); a bare expression
        joined by 'and', or by 'or' without a ``name = …`` before it, is refused."""
        start = self.i
        node = super().parse_nary(which)
        if node.kind not in (Kind.OR, Kind.AND):
            return node
        first = node.children[0]
        name = _assigned(first, constant=False)
        if node.kind is Kind.OR and name is not None:
            symbol = first.children[0]
            node = Node.make(Kind.OR, [c if c.kind in STATEMENT_KINDS else
                                       Node.make(Kind.RELATION, [symbol, c], "=")
                                       for c in node.children], node.value)  # fmt: skip
        if any(c.kind not in STATEMENT_KINDS for c in node.children):
            word = "or" if node.kind is Kind.OR else "and"
            self.fail(f"'{word}' joins statements: each side needs its own relation",
                      self.toks[start], hint=f"x = 1 {word} x = 4")  # fmt: skip
        return node

    def parse_implies(self) -> Node:
        start = self.i
        node = super().parse_implies()
        self.statements_only(node, start)
        return node

    def parse_statement(self) -> Node:
        start = self.i
        node = super().parse_statement()
        self.statements_only(node, start)
        return node

    def statements_only(self, node: Node, start: int) -> None:
        """``x -> infinity``: an arrow joins statements; a bare value on a side is refused here,
        where its position is known."""
        if node.kind in (Kind.IMPLIES, Kind.IFF) and any(
            c.kind not in STATEMENT_KINDS for c in node.children
        ):
            self.fail("'=>' and '<=>' join statements: each side needs its own relation",
                      self.toks[min(start, len(self.toks) - 1)])  # fmt: skip

    # --- arithmetic ----------------------------------------------------------------------------
    def parse_term(self, operand: bool = False) -> Node:
        """``*`` and ``/`` left to right; ``/`` takes one factor (see the module docstring)."""
        first = self.peek()
        start = first.pos if first is not None else 0
        factors = [self.parse_juxtaposed(operand)]
        glyph: str | None = None
        while (tok := self.peek()) is not None and tok.kind in ("char", "cmd"):
            if operand and tok.text in self._EXPLICIT and self.operator_follows_glyph():
                break
            if tok.text in self._EXPLICIT:
                this = self._EXPLICIT[tok.text]
                self.advance()
                if glyph is not None and this != glyph:
                    factors = [Node.make(Kind.MUL, factors, glyph)]
                glyph = this
                factors.append(self.parse_signed_factor(operand))
            elif tok.text in self._DIVIDE:
                self.advance()
                left = factors[0] if len(factors) == 1 else Node.make(Kind.MUL, factors, glyph)  # type: ignore[arg-type]
                # printed as \frac so that what was read is shown unmistakably
                quotient = Node.make(Kind.FRAC, [left, self.denominator()], "frac")
                factors = [self.times_what_follows(quotient, operand, start, tok.pos)]
                glyph = None
            else:
                break
        return factors[0] if len(factors) == 1 else Node.make(Kind.MUL, factors, glyph or "")

    def parse_signed_factor(self, operand: bool = False) -> Node:
        if self.at("-"):
            self.advance()
            with self.nested():
                return Node.make(Kind.NEG, [self.parse_signed_factor(operand)])
        return self.parse_juxtaposed(operand)

    def denominator(self) -> Node:
        if self.at("-"):
            self.advance()
            with self.nested():
                return Node.make(Kind.NEG, [self.denominator()])
        return self.parse_postfix()

    def times_what_follows(self, quotient: Node, operand: bool, start: int, slash: int) -> Node:
        """``3/4 y`` is ¾·y; ``1/2x`` and ``6/2(1+2)`` are refused as ambiguous."""
        if not self.starts_factor() or (operand and self.operator_ahead()):
            return quotient
        tok = self.peek()
        before = self.toks[self.i - 1]
        assert tok is not None
        if before.end == tok.pos:
            num = self.src[start:slash].strip()
            den = self.src[slash + 1 : before.end].strip()
            here = self.i
            self.parse_postfix()
            glued = self.src[tok.pos : self.toks[self.i - 1].end]
            self.i = here
            self.fail("a factor glued to a denominator is ambiguous", tok,
                      hint=f"({num}/{den}){glued} or {num}/({den}{glued})")  # fmt: skip
        rest = self.parse_juxtaposed(operand)
        tail = list(rest.children) if rest.kind is Kind.MUL and rest.value == "" else [rest]
        return Node.make(Kind.MUL, [quotient, *tail], "")

    def parse_juxtaposed(self, operand: bool = False) -> Node:
        """As in LaTeX, except that a number may not follow a factor (``x 2``, ``x^2 3``):
        ``2(3)`` is fine, the bracket shows the product."""
        factors = [self.parse_postfix()]
        while self.starts_factor() and not (operand and self.operator_ahead()):
            tok = self.peek()
            if tok is not None and tok.kind == "number":
                self.fail("a number after a factor is ambiguous: write * between them", tok)
            factors.append(self.parse_postfix())
        return factors[0] if len(factors) == 1 else Node.make(Kind.MUL, factors, "")

    def function_argument(self, tok: Token) -> Node:
        """``sin x/2`` glued is refused (sin(x/2) or sin(x)/2?); ``sin x / 2`` with spaces and
        ``sinx/cosx`` (a function after the bar) are quotients of the function."""
        nxt = self.peek()
        bracketed = nxt is not None and nxt.kind == "char" and nxt.text in "(["
        arg = super().function_argument(tok)
        after, den = self.peek(), self.peek(1)
        if bracketed or nxt is None or after is None or (after.kind, after.text) != ("char", "/"):
            return arg
        last = self.toks[self.i - 1]
        if last.end != after.pos or den is None or den.kind == "cmd":
            return arg
        name, inner = self.src[tok.pos : tok.end], self.src[nxt.pos : last.end]
        bottom = self.src[den.pos : den.end]
        self.fail(f"{name} {inner}/{bottom} is ambiguous (the {name} of a quotient, or a "
                  f"quotient of the {name}?)", after,
                  hint=f"{name}({inner}/{bottom}) or {name}({inner})/{bottom}")  # fmt: skip

    def bracketed(self, opener: Token, text: str, closers: tuple[str, ...], left: bool) -> Node:
        """``(1, 2)`` alone: a point or an open interval? After ``in`` it is the interval."""
        index = self.i - 1
        node = super().bracketed(opener, text, closers, left)
        if node.kind is Kind.INTERVAL and node.value == "()":
            before = self.toks[index - 1] if index > 0 else None
            if before is None or before.text != "\\in":
                pair = self.src[opener.pos : self.toks[self.i - 1].end]
                self.fail("a bracketed pair could be a point or an open interval", opener,
                          hint=f"x in {pair} for the interval")  # fmt: skip
        return node


def _assigned(row: Node, constant: bool = True) -> str | None:
    """The name in ``name = value`` (``constant``: the value has no letters), else None."""
    if row.kind is not Kind.RELATION or row.value != "=" or len(row.children) != 2:
        return None
    left, right = row.children
    if left.kind is not Kind.SYMBOL:
        return None
    if constant and any(n.kind is Kind.SYMBOL for n in Graph(right).nodes()):
        return None
    return left.value
