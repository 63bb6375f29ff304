"""LaTeX → semantic graph: a recursive-descent parser over a whitelist of commands.

Precedence, loosest first: ⇔, ⇒ (right-associative), ∨, ∧, ¬, relations (chains allowed), + − ±,
explicit products and quotients (``\\cdot \\times / \\div``), juxtaposition, signs, postfix
(``^ _ ! '``), primaries. Juxtaposition binds tighter than ``\\cdot``, so ``a/bc`` is ``a/(bc)``.

>>> from veristep.mathgraph.latex_out import to_latex
>>> to_latex(parse_latex(r"x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}"))
'x = \\\\frac{-b \\\\pm \\\\sqrt{b^{2} - 4 a c}}{2 a}'
>>> parse_latex(r"\\sin^2 x").root.label, parse_latex(r"n(n+1)").root.label
('pow', 'mul')
>>> try:
...     parse_latex(r"x \\vee y = \\dots")
... except LatexParseError as err:
...     print(err.headline())
\\dots is not supported: an ellipsis is not a single mathematical object at column 12
"""

from __future__ import annotations

from typing import ClassVar

from veristep.core.settings import Settings
from veristep.mathgraph.calculus import CalculusParts
from veristep.mathgraph.cursor import Cursor
from veristep.mathgraph.errors import LatexParseError
from veristep.mathgraph.groups import GroupParts
from veristep.mathgraph.lexer import Token, tokenize
from veristep.mathgraph.nodes import Graph, Kind, Node
from veristep.mathgraph.primary import PrimaryParts
from veristep.mathgraph.scripts import ScriptParts
from veristep.mathgraph.vocabulary import CONNECTIVE_WORDS, CONNECTIVES, RELATIONS

_DEFAULT_SETTINGS: Settings | None = None
MAX_GRAPH_DEPTH = 150  # keeps every recursive pass over the graph far from the recursion limit


def parse_latex(text: str, settings: Settings | None = None) -> Graph:
    """Parse one LaTeX state (an expression, an equation, a statement or a system) into a graph."""
    settings = settings or _default_settings()
    if not isinstance(text, str):
        raise LatexParseError(f"expected a LaTeX string, got {type(text).__name__}")
    if len(text) > settings.max_latex_chars:
        raise LatexParseError(f"input longer than {settings.max_latex_chars} characters",
                              source=text, position=settings.max_latex_chars)  # fmt: skip
    if not text.strip():
        raise LatexParseError("empty input", source=text, position=0)
    parser = Parser(text, tokenize(text), settings)
    root = parser.parse_line()
    if _depth(root) > MAX_GRAPH_DEPTH:
        # chains such as a/b/c/... or alternating connectives nest without brackets
        raise LatexParseError(f"expression nested deeper than {MAX_GRAPH_DEPTH} levels",
                              source=text, position=0, length=len(text))  # fmt: skip
    graph = Graph(root)
    if len(graph) > settings.max_graph_nodes:
        raise LatexParseError(
            f"more than {settings.max_graph_nodes} nodes", source=text, position=0
        )
    return graph


def _depth(root: Node) -> int:
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in node.children)
    return deepest


def _mixed_number(left: Node, right: Node) -> bool:
    """``2\\frac{1}{2}``: a school mixed number that a product reading would silently halve."""
    if left.kind is not Kind.NUMBER or right.kind is not Kind.FRAC:
        return False
    return all(c.kind is Kind.NUMBER for c in right.children)


def _default_settings() -> Settings:
    global _DEFAULT_SETTINGS
    if _DEFAULT_SETTINGS is None:
        _DEFAULT_SETTINGS = Settings()
    return _DEFAULT_SETTINGS


class Parser(PrimaryParts, ScriptParts, CalculusParts, GroupParts, Cursor):
    """One parse of one string. The statement and operator levels live here."""

    def __init__(self, source: str, tokens: list[Token], settings: Settings) -> None:
        super().__init__(source, tokens)
        self.settings = settings
        self.functions = settings.function_names
        self.bound: list[str] = []  # names bound by an enclosing sum/product/limit
        self.abs_depth = 0  # inside |...|: a bar closes rather than opens
        self.integral_depth = 0  # inside an integrand: "d x" ends the product

    def parse_line(self) -> Node:
        if self.at("="):
            # STACK writes a line "= e" to continue the previous line's expression.
            self.advance()
            node = Node.make(Kind.CONTINUATION, [self.parse_expr()])
        else:
            node = self.parse_statement()
        if not self.at_end():
            self.unexpected(self.peek())  # type: ignore[arg-type]
        return node

    # --- statements ----------------------------------------------------------------------------
    def connective(self) -> tuple[str, str] | None:
        """(kind, spelling) of the connective at the cursor, if any."""
        tok = self.peek()
        if tok is None:
            return None
        if tok.kind == "cmd" and tok.name in CONNECTIVES:
            return CONNECTIVES[tok.name]
        if tok.kind == "text" and tok.text in ("\\text", "\\mbox", "\\textrm", "\\rm"):
            word = tok.arg.lower()
            if word in CONNECTIVE_WORDS:
                return CONNECTIVE_WORDS[word], word
        return None

    def parse_statement(self) -> Node:
        with self.nested():
            left = self.parse_implies()
            while (conn := self.connective()) and conn[0] == "iff":
                self.advance()
                left = Node.make(Kind.IFF, [left, self.parse_implies()], conn[1])
            return left

    def parse_implies(self) -> Node:
        left = self.parse_nary("or")
        if (conn := self.connective()) and conn[0] == "implies":
            self.advance()
            with self.nested():
                right = self.parse_implies()
            return Node.make(Kind.IMPLIES, [left, right], conn[1])
        return left

    def parse_nary(self, which: str) -> Node:
        """∨ over ∧ over ¬; a change of spelling (\\lor then "or") starts a new, nested node."""
        kind, sub = (Kind.OR, "and") if which == "or" else (Kind.AND, "not")
        items = [self.parse_nary(sub) if sub == "and" else self.parse_not()]
        spelling: str | None = None
        while (conn := self.connective()) and conn[0] == which:
            self.advance()
            if spelling is not None and conn[1] != spelling:
                items = [Node.make(kind, items, spelling)]
            spelling = conn[1]
            items.append(self.parse_nary(sub) if sub == "and" else self.parse_not())
        return items[0] if len(items) == 1 else Node.make(kind, items, spelling or "")

    def parse_not(self) -> Node:
        if (conn := self.connective()) and conn[0] == "not":
            self.advance()
            with self.nested():
                return Node.make(Kind.NOT, [self.parse_not()], conn[1])
        return self.parse_relation()

    def relation(self) -> str | None:
        tok = self.peek()
        if tok is None:
            return None
        if tok.kind == "char" and tok.text in "=<>":
            return tok.text
        if tok.kind == "cmd" and tok.name in RELATIONS:
            return RELATIONS[tok.name]
        return None

    def parse_relation(self) -> Node:
        items = [self.parse_union()]
        ops: list[str] = []
        while op := self.relation():
            self.advance()
            ops.append(op)
            items.append(self.parse_union())
        return items[0] if not ops else Node.make(Kind.RELATION, items, ",".join(ops))

    def parse_union(self) -> Node:
        """An expression, or a union of sets: ``(-\\infty, 1) \\cup (3, \\infty)``."""
        items = [self.parse_expr()]
        while self.at("\\cup"):
            self.advance()
            items.append(self.parse_expr())
        return items[0] if len(items) == 1 else Node.make(Kind.UNION, items, "cup")

    # --- arithmetic ----------------------------------------------------------------------------
    def sign(self) -> str | None:
        tok = self.peek()
        if tok is None:
            return None
        if tok.kind == "char" and tok.text in "+-":
            return tok.text
        if tok.kind == "cmd" and tok.name in ("pm", "mp"):
            return tok.name
        return None

    def parse_expr(self) -> Node:
        """A sum of signed terms. Subtraction is a NEG term, ± a PM term."""
        terms: list[Node] = []
        first = True
        while True:
            op = self.sign()
            if op is None and not first:
                break
            if op is not None:
                self.advance()
            term = self.parse_term()
            if op == "-":
                term = Node.make(Kind.NEG, [term])
            elif op in ("pm", "mp"):
                term = Node.make(Kind.PM, [term], op)
            terms.append(term)
            first = False
            if self.integral_depth and self.differential_at():
                break
        return terms[0] if len(terms) == 1 else Node.make(Kind.ADD, terms)

    _EXPLICIT: ClassVar[dict[str, str]] = {"\\cdot": "cdot", "\\times": "times", "*": "cdot"}
    _DIVIDE: ClassVar[dict[str, str]] = {"/": "/", "\\div": "div"}

    def parse_term(self, operand: bool = False) -> Node:
        """Explicit products and quotients, left to right, over juxtaposed products.

        ``operand``: the term is the operand of a calculus operator, which ends before a later
        operator, juxtaposed or joined by ``\\cdot``/``\\times``.
        """
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
                factors.append(self.parse_signed(operand))
            elif tok.text in self._DIVIDE:
                self.advance()
                left = (
                    factors[0] if len(factors) == 1 else Node.make(Kind.MUL, factors, glyph or "")
                )
                right = self.parse_signed(operand)
                factors = [Node.make(Kind.DIV, [left, right], self._DIVIDE[tok.text])]
                glyph = None
            else:
                break
        return factors[0] if len(factors) == 1 else Node.make(Kind.MUL, factors, glyph or "")

    def parse_signed(self, operand: bool = False) -> Node:
        """An operand after an explicit operator may carry its own sign: ``2 \\cdot -3``."""
        if self.at("-"):
            self.advance()
            with self.nested():
                return Node.make(Kind.NEG, [self.parse_signed(operand)])
        return self.parse_juxtaposed(operand)

    def operator_follows_glyph(self) -> bool:
        """``\\cdot \\frac{d}{dx}``, ``\\times \\sum``: a calculus operator after the glyph.

        Not a function: SymPy with ``mul_symbol="dot"`` writes d/dx(x^2 sin x) as
        ``\\frac{d}{d x} x^{2} \\cdot \\sin{\\left(x \\right)}``.
        """
        saved = self.i
        self.i += 1
        try:
            return self.operator_ahead()
        finally:
            self.i = saved

    def parse_juxtaposed(self, operand: bool = False) -> Node:
        factors = [self.parse_postfix()]
        while self.starts_factor() and not (operand and self.operator_ahead()):
            tok = self.peek()
            factors.append(self.parse_postfix())
            if _mixed_number(factors[-2], factors[-1]):
                self.fail("2\\frac{1}{2} is ambiguous (a mixed number or a product?): write "
                          "2 + \\frac{1}{2} or 2 \\cdot \\frac{1}{2}", tok)  # fmt: skip
        return factors[0] if len(factors) == 1 else Node.make(Kind.MUL, factors, "")

    def starts_factor(self) -> bool:
        """Whether the next token can begin another factor of a juxtaposed product."""
        tok = self.peek()
        if tok is None:
            return False
        if self.integral_depth and self.differential_at():
            return False
        if tok.kind in ("letter", "number"):
            return True
        if tok.kind == "char":
            if tok.text == "|":
                return self.abs_depth == 0
            return tok.text in "({["
        if tok.kind == "text":
            return self.connective() is None
        return self.command_starts_factor(tok)


Parser.COMMAND_HANDLERS = {**GroupParts.HANDLERS, **CalculusParts.HANDLERS}
