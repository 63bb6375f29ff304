"""Fractions and the calculus constructs: d/dx, ∂/∂x, integrals, limits, sums and products.

Operators that take an operand without brackets (``\\frac{d}{dx}``, ``\\lim``, ``\\sum``,
``\\prod``) take the rest of the product, as SymPy's printer writes them:
``\\frac{d}{dx} x^2 \\sin x`` differentiates the whole product and stops at ``+``. The operand
also stops before a later factor that is itself a calculus operator (SymPy prints
``2 \\frac{d}{dx} \\sin x \\frac{d}{dx} \\cos x`` for a product of two derivatives), also when
``\\cdot`` or ``\\times`` joins them. A ``\\cdot`` before a function does not end the operand:
SymPy's ``mul_symbol="dot"`` prints d/dx(x² sin x) as ``\\frac{d}{d x} x^{2} \\cdot \\sin(x)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from veristep.mathgraph.lexer import Token
from veristep.mathgraph.nodes import Kind, Node
from veristep.mathgraph.vocabulary import GREEK

if TYPE_CHECKING:
    from veristep.mathgraph.parser import Parser

    _Base = Parser
else:
    _Base = object

_ARROWS = frozenset({"\\to", "\\rightarrow", "\\longrightarrow"})


def _is_d(tok: Token | None) -> bool:
    if tok is None:
        return False
    if tok.kind == "letter":
        return tok.text == "d"
    return (
        tok.kind == "text"
        and tok.text in ("\\mathrm", "\\operatorname", "\\mathit")
        and (tok.arg == "d")
    )


def _is_partial(tok: Token | None) -> bool:
    return tok is not None and tok.kind == "cmd" and tok.name == "partial"


def _variable_name(tok: Token | None) -> str | None:
    if tok is None:
        return None
    if tok.kind == "letter":
        return tok.text
    if tok.kind == "cmd" and tok.name in GREEK:
        return tok.name
    return None


class CalculusParts(_Base):
    # --- differentials -------------------------------------------------------------------------
    def differential_at(self) -> bool:
        """``d x``, ``\\mathrm{d} x`` or ``{\\;\\mathrm{d}x}`` at the cursor (in an integrand)."""
        tok = self.peek()
        j = self.i
        if tok is not None and tok.kind == "char" and tok.text == "{":
            close = self.match.get(j)
            return close == j + 3 and self._differential_tokens(j + 1)
        return self._differential_tokens(j)

    def _differential_tokens(self, j: int) -> bool:
        if j + 1 >= self.end:
            return False
        return _is_d(self.toks[j]) and _variable_name(self.toks[j + 1]) is not None

    def parse_differential(self) -> Node:
        if not self.differential_at():
            self.fail("an integral needs its differential (dx)")
        braced = self.at("{")
        if braced:
            self.advance()
        self.advance()
        name = _variable_name(self.advance())
        if braced:
            self.expect("}")
        return Node.make(Kind.SYMBOL, value=name or "")

    def parse_operand(self, what: str) -> Node:
        """The rest of the product after an operator such as d/dx, lim, sum."""
        with self.nested():
            if self.at("-"):
                self.advance()
                return Node.make(Kind.NEG, [self.parse_term()])
            tok = self.peek()
            if tok is None or not (
                self.starts_factor() or (tok.kind == "char" and tok.text == "|")
            ):
                self.fail(f"{what} needs an operand", tok)
            return self.parse_term(operand=True)

    def operator_ahead(self) -> bool:
        """A calculus operator at the cursor: ``\\int``, ``\\lim``, ``\\sum``, ``\\prod``, d/dx."""
        tok = self.peek()
        if tok is None or tok.kind != "cmd":
            return False
        return tok.name in ("int", "lim", "sum", "prod") or self.derivative_ahead()

    def derivative_ahead(self) -> bool:
        """``\\frac{d}{dx}`` or ``\\frac{dy}{dx}`` at the cursor (nothing consumed)."""
        tok, num = self.peek(), self.i + 1
        if tok is None or tok.name not in ("frac", "dfrac", "tfrac") or num >= self.end:
            return False
        if self.toks[num].text != "{" or num not in self.match:
            return False
        den = self.match[num] + 1
        if den >= self.end or self.toks[den].text != "{" or self.toks[den].kind != "char":
            return False
        return self.derivative_pattern(num, den) is not None

    # --- fractions and derivatives -------------------------------------------------------------
    def parse_frac(self, tok: Token) -> Node:
        self.advance()
        if self.at("{"):
            num = self.i
            den = self.match[num] + 1
            if den < self.end and self.toks[den].text == "{" and self.toks[den].kind == "char":
                found = self.derivative_pattern(num, den)
                if found is not None:
                    return self.derivative(found, self.match[den] + 1)
        numerator = self.parse_argument()
        denominator = self.parse_argument()
        return Node.make(Kind.FRAC, [numerator, denominator], tok.name)

    def derivative_pattern(self, num: int, den: int) -> tuple[str, str, str | None, str] | None:
        """(d-kind, order, differentiated name or None, variable) when \\frac{d..}{d..} matches."""
        top = self.toks[num + 1 : self.match[num]]
        bottom = self.toks[den + 1 : self.match[den]]
        if not top or not bottom:
            return None
        kind = "d" if _is_d(top[0]) else "partial" if _is_partial(top[0]) else None
        if kind is None or not (_is_d(bottom[0]) if kind == "d" else _is_partial(bottom[0])):
            return None
        order_top, rest_top = _order(top[1:])
        var = _variable_name(bottom[1]) if len(bottom) > 1 else None
        order_bottom, rest_bottom = _order(bottom[2:])
        if var is None or rest_bottom or order_top is None or order_bottom is None:
            return None
        if order_top != order_bottom:
            self.fail("the orders of the derivative's numerator and denominator differ",
                      self.toks[num])  # fmt: skip
        if len(rest_top) > 1:
            return None
        name = _variable_name(rest_top[0]) if rest_top else None
        if rest_top and name is None:
            return None
        return kind, order_top, name, var

    def derivative(self, found: tuple[str, str, str | None, str], after: int) -> Node:
        kind, order, name, var = found
        self.i = after
        variable = Node.make(Kind.SYMBOL, value=var)
        order_node = Node.make(Kind.NUMBER, value=order)
        if name is not None:
            target = Node.make(Kind.SYMBOL, value=name)
            return Node.make(Kind.DERIV, [target, variable, order_node], f"{kind}-frac")
        operand = self.parse_operand("a derivative")
        return Node.make(Kind.DERIV, [operand, variable, order_node], kind)

    # --- integrals -----------------------------------------------------------------------------
    def bounds(self) -> tuple[Node | None, Node | None]:
        lower = upper = None
        for _ in range(2):
            if self.at("_") and lower is None:
                self.advance()
                lower = self.parse_argument()
            elif self.at("^") and upper is None:
                self.advance()
                upper = self.parse_argument()
        return lower, upper

    def parse_integral(self, tok: Token) -> Node:
        self.advance()
        lower, upper = self.bounds()
        if (lower is None) != (upper is None):
            self.fail("a definite integral needs both bounds", tok)
        self.integral_depth += 1
        try:
            if self.at("{") and self._differential_tokens(self.match[self.i] - 2):
                # STACK writes \int_{a}^{b}{f \; \mathrm{d}x}: integrand and dx in one group
                self.advance()
                close = self.match[self.i - 1]
                integrand, var = self.within(close, self.integrand_and_differential, "integral")
                self.advance()
            else:
                integrand, var = self.integrand_and_differential()
        finally:
            self.integral_depth -= 1
        children = [integrand, var] + ([lower, upper] if lower is not None else [])
        return Node.make(Kind.INTEGRAL, children)  # type: ignore[list-item]

    def integrand_and_differential(self) -> tuple[Node, Node]:
        if self.differential_at():
            self.fail("empty integrand (write \\int 1 \\, dx)")
        integrand = self.parse_expr()
        return integrand, self.parse_differential()

    # --- limits, sums, products ----------------------------------------------------------------
    def parse_limit(self, tok: Token) -> Node:
        self.advance()
        self.expect("_", "_{x \\to a} after \\lim")
        brace = self.expect("{", "_{x \\to a} after \\lim")
        close = self.match[self.i - 1]
        name = _variable_name(self.advance())
        arrow = self.advance()
        if name is None or arrow.text not in _ARROWS:
            self.fail("a limit is written \\lim_{x \\to a}", brace)
        end, direction = close, ""
        texts = [t.text for t in self.toks[max(self.i, close - 4) : close]]
        if texts[-2:] in (["^", "+"], ["^", "-"]):
            end, direction = close - 2, texts[-1]
        elif texts[-4:] in (["^", "{", "+", "}"], ["^", "{", "-", "}"]):
            end, direction = close - 4, texts[-2]
        point = self.within(end, self.parse_expr, "the limit point")
        self.i = close + 1
        operand = self.bound_operand(name, "a limit")
        return Node.make(
            Kind.LIMIT, [operand, Node.make(Kind.SYMBOL, value=name), point], direction
        )

    def parse_big_operator(self, tok: Token) -> Node:
        """``\\sum_{k=1}^{n} body`` and ``\\prod``: index, lower and upper bound are required."""
        self.advance()
        if not self.at("_"):
            self.fail(f"{tok.text} needs _{{k=1}}^{{n}} bounds", tok)
        self.advance()
        brace = self.expect("{", f"_{{k=1}} after {tok.text}")
        close = self.match[self.i - 1]
        name = _variable_name(self.advance())
        if name is None or not self.at("="):
            self.fail(f"{tok.text} needs an index: _{{k=1}}", brace)
        self.advance()
        lower = self.within(close, self.parse_expr, "the lower bound")
        self.i = close + 1
        if not self.at("^"):
            self.fail(f"{tok.text} needs an upper bound ^{{n}}", tok)
        self.advance()
        upper = self.parse_argument()
        body = self.bound_operand(name, f"{tok.text}")
        kind = Kind.SUM if tok.name == "sum" else Kind.PRODUCT
        return Node.make(kind, [body, Node.make(Kind.SYMBOL, value=name), lower, upper])

    def bound_operand(self, name: str, what: str) -> Node:
        self.bound.append(name)
        try:
            return self.parse_operand(what)
        finally:
            self.bound.pop()

    def parse_partial(self, tok: Token) -> Node:
        self.fail("\\partial is only supported as \\frac{\\partial}{\\partial x}", tok)

    HANDLERS: ClassVar[dict[str, Callable[..., Node]]] = {
        "frac": parse_frac,
        "dfrac": parse_frac,
        "tfrac": parse_frac,
        "int": parse_integral,
        "lim": parse_limit,
        "sum": parse_big_operator,
        "prod": parse_big_operator,
        "partial": parse_partial,
    }


def _order(tokens: list[Token]) -> tuple[str | None, list[Token]]:
    """Strip a leading ``^2`` / ``^{2}`` from ``tokens``: (order, the rest); order "1" if absent."""
    if not tokens or tokens[0].text != "^":
        return "1", tokens
    if len(tokens) > 1 and tokens[1].kind == "number" and tokens[1].text.isdigit():
        return tokens[1].text, tokens[2:]
    braced = len(tokens) > 3 and tokens[1].text == "{" and tokens[3].text == "}"
    if braced and tokens[2].kind == "number" and tokens[2].text.isdigit():
        return tokens[2].text, tokens[4:]
    return None, tokens
