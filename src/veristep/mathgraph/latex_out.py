"""Graph → LaTeX: clean, or with every node wrapped in ``\\htmlData{n=ID}{…}`` (KaTeX).

Parentheses come from precedence, so printing and re-parsing gives back the same graph. With ids,
operator glyphs are wrapped as ``\\htmlData{n=ID,role=op}{…}`` inside ``\\mathbin``/``\\mathrel``
so KaTeX keeps the operator spacing; select them by ``data-n`` and ``data-role``.

>>> from veristep.mathgraph.parser import parse_latex
>>> g = parse_latex(r"2x \\cdot y")
>>> to_latex(g)
'2 x \\\\cdot y'
>>> print(to_latex(parse_latex("x+1"), with_ids=True))
\\htmlData{n=0}{\\htmlData{n=1}{x} \\mathbin{\\htmlData{n=0,role=op}{+}} \\htmlData{n=2}{1}}
"""

from __future__ import annotations

from veristep.mathgraph.latex_statements import StatementPrinting
from veristep.mathgraph.nodes import Graph, Kind, Node
from veristep.mathgraph.vocabulary import GREEK

# Printing precedence: a child whose level is below what its slot needs gets parentheses.
_LEVEL = {
    Kind.IFF: 1, Kind.IMPLIES: 2, Kind.OR: 3, Kind.AND: 4, Kind.NOT: 5, Kind.RELATION: 6,
    Kind.ADD: 7, Kind.NEG: 7, Kind.PM: 7, Kind.DIV: 8, Kind.POW: 11, Kind.FACTORIAL: 11,
    Kind.CONJUGATE: 11,
    Kind.CONTINUATION: 0, Kind.SYSTEM: 12,
}  # fmt: skip
_TERM, _JUXT, _ATOM = 8, 9, 12
_OPEN_ENDED = frozenset({Kind.LIMIT, Kind.SUM, Kind.PRODUCT})
_RELATION_GLYPHS = {"=": "=", "<": "<", ">": ">", "ne": "\\neq", "le": "\\leq", "ge": "\\geq",
                    "approx": "\\approx", "in": "\\in", "notin": "\\notin"}  # fmt: skip
_CONNECTIVE_GLYPHS = {
    "lor": "\\lor", "vee": "\\vee", "land": "\\land", "wedge": "\\wedge", "neg": "\\neg",
    "lnot": "\\lnot", "Rightarrow": "\\Rightarrow", "implies": "\\implies",
    "Longrightarrow": "\\Longrightarrow", "Leftrightarrow": "\\Leftrightarrow", "iff": "\\iff",
    "Longleftrightarrow": "\\Longleftrightarrow",
}  # fmt: skip
_KATEX_FUNCTIONS = frozenset((
    "sin", "cos", "tan", "sec", "csc", "cot", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "coth", "ln", "log", "exp",
))  # fmt: skip
_CONSTANTS = {"e": "e", "i": "i", "pi": "\\pi", "infty": "\\infty"}
_SET_CONSTS = {"emptyset": "\\emptyset"}
_MUL_GLYPHS = {"": " ", "cdot": "\\cdot", "times": "\\times"}


def to_latex(graph: Graph | Node, with_ids: bool = False) -> str:
    """Print the graph as LaTeX; ``with_ids`` wraps nodes and glyphs in ``\\htmlData``."""
    root = graph.root if isinstance(graph, Graph) else graph
    return _Printer(with_ids).node(root)


def level(node: Node) -> int:
    if node.kind is Kind.MUL:
        return _JUXT if node.value == "" else _TERM
    return _LEVEL.get(node.kind, _ATOM)


def right_open(node: Node) -> bool:
    """Whether the printed node ends in an operand that would swallow a following factor."""
    while True:
        if node.kind in _OPEN_ENDED or (node.kind is Kind.DERIV and node.value in ("d", "partial")):
            return True
        if node.kind not in (Kind.ADD, Kind.MUL, Kind.DIV, Kind.NEG, Kind.PM) or not node.children:
            return False
        node = node.children[-1]


def _leads_with_number(node: Node) -> bool:
    """Whether the printed node starts with a digit (a number, ``2^{3}``, ``3!``)."""
    while node.kind in (Kind.POW, Kind.FACTORIAL) or (node.kind is Kind.MUL and node.value == ""):
        node = node.children[0]
    return node.kind is Kind.NUMBER


def symbol_latex(name: str) -> str:
    """``alpha_1'`` → ``\\alpha_{1}'``."""
    primes = len(name) - len(name.rstrip("'"))
    base, _, sub = name.rstrip("'").partition("_")
    out = f"\\{base}" if base in GREEK else base
    if sub.startswith("{"):
        out += "_" + sub  # an expression subscript, x_{n + 1}, is kept as printed
    elif sub:
        out += "_{" + (f"\\{sub}" if sub in GREEK else sub) + "}"
    return out + "'" * primes


class _Printer(StatementPrinting):
    def __init__(self, ids: bool) -> None:
        self.ids = ids

    def wrap(self, node: Node, text: str) -> str:
        return f"\\htmlData{{n={node.id}}}{{{text}}}" if self.ids else text

    def glyph(self, node: Node, text: str, cls: str = "") -> str:
        if not self.ids:
            return text
        inner = f"\\htmlData{{n={node.id},role=op}}{{{text}}}"
        return f"\\{cls}{{{inner}}}" if cls else inner

    def node(self, node: Node) -> str:
        method = getattr(self, f"p_{node.kind.name.lower()}")
        return self.wrap(node, method(node))

    def sub(self, node: Node, need: int, closed: bool = False) -> str:
        """A child printed in a slot that needs precedence ``need`` (parenthesised if lower)."""
        text = self.node(node)
        if level(node) < need or (closed and right_open(node)):
            return f"\\left({text}\\right)"
        return text

    # --- leaves --------------------------------------------------------------------------------
    def p_number(self, n: Node) -> str:
        return n.value

    def p_symbol(self, n: Node) -> str:
        return symbol_latex(n.value)

    def p_constant(self, n: Node) -> str:
        return _CONSTANTS[n.value]

    def p_bool(self, n: Node) -> str:
        if n.value in ("top", "bot"):
            return f"\\{n.value}"
        return f"\\mathbf{{{n.value}}}"

    def p_set_const(self, n: Node) -> str:
        return _SET_CONSTS.get(n.value) or f"\\mathbb{{{n.value}}}"

    # --- arithmetic ----------------------------------------------------------------------------
    def p_add(self, n: Node) -> str:
        out = []
        for idx, child in enumerate(n.children):
            if child.kind is Kind.NEG:
                inner = self.sub(child.children[0], _TERM)
                if idx:
                    out.append(
                        " " + self.wrap(child, f"{self.glyph(child, '-', 'mathbin')} {inner}")
                    )
                else:
                    out.append(self.node(child))
            elif child.kind is Kind.PM:
                out.append((" " if idx else "") + self.node(child))
            else:
                text = self.sub(child, _TERM) if child.kind is not Kind.ADD else (
                    f"\\left({self.node(child)}\\right)")  # fmt: skip
                out.append(f" {self.glyph(n, '+', 'mathbin')} {text}" if idx else text)
        return "".join(out)

    def p_neg(self, n: Node) -> str:
        return f"{self.glyph(n, '-', 'mathord')}{self.sub(n.children[0], _TERM)}"

    def p_pm(self, n: Node) -> str:
        return f"{self.glyph(n, chr(92) + n.value, 'mathbin')} {self.sub(n.children[0], _TERM)}"

    def p_mul(self, n: Node) -> str:
        parts = []
        last = len(n.children) - 1
        for idx, child in enumerate(n.children):
            need = _ATOM if n.value == "" and child.kind in (Kind.MUL, Kind.DIV) else level(n)
            if child.kind is Kind.MUL and (n.value == "" or child.value != ""):
                need = _ATOM
            if child.kind is Kind.DIV and idx > 0:
                need = _ATOM
            text = self.sub(child, need, closed=idx < last)
            glued_digit = n.value == "" and idx > 0 and _leads_with_number(child)
            if glued_digit and not text.startswith("\\left("):
                text = f"\\left({text}\\right)"  # 2 (3), not "2 3" that reads as 23
            parts.append(text)
        sep = " " if n.value == "" else f" {self.glyph(n, _MUL_GLYPHS[n.value], 'mathbin')} "
        return sep.join(parts)

    def p_div(self, n: Node) -> str:
        left, right = n.children
        glyph = "/" if n.value == "/" else "\\div"
        return (f"{self.sub(left, _TERM, closed=True)} {self.glyph(n, glyph, 'mathbin')} "
                f"{self.sub(right, _ATOM if right.kind is not Kind.POW else _TERM)}")  # fmt: skip

    def p_frac(self, n: Node) -> str:
        top, bottom = (self.node(c) for c in n.children)
        return f"\\{n.value}{{{top}}}{{{bottom}}}"

    def p_pow(self, n: Node) -> str:
        base, exp = n.children
        if base.kind is Kind.FUNC and base.value in _KATEX_FUNCTIONS and not self.ids:
            name = self.function_name(base)
            return f"{name}^{{{self.node(exp)}}}{self.arguments(base)}"
        return f"{self.base(base)}^{{{self.node(exp)}}}"

    def p_conjugate(self, n: Node) -> str:
        star = self.glyph(n, "\\star" if n.value == "star" else "*")
        return f"{self.base(n.children[0])}^{{{star}}}"

    def base(self, base: Node) -> str:
        """The base of a superscript, bracketed unless it is an atom."""
        if base.kind in (Kind.POW, Kind.CONJUGATE) or level(base) < _ATOM or (
            base.kind in _OPEN_ENDED
            or base.kind in (Kind.FRAC, Kind.LOG, Kind.INTEGRAL, Kind.DERIV)
        ):  # fmt: skip
            return f"\\left({self.node(base)}\\right)"
        return self.node(base)

    def p_sqrt(self, n: Node) -> str:
        index = f"[{self.node(n.children[1])}]" if len(n.children) > 1 else ""
        return f"\\sqrt{index}{{{self.node(n.children[0])}}}"

    def function_name(self, n: Node) -> str:
        if n.value in _KATEX_FUNCTIONS or n.value in GREEK:
            text = f"\\{n.value}"
        elif len(n.value) == 1:
            text = n.value
        else:
            text = f"\\operatorname{{{n.value}}}"
        return self.glyph(n, text)

    def arguments(self, n: Node) -> str:
        return "\\left(" + ", ".join(self.node(c) for c in n.children) + "\\right)"

    def p_func(self, n: Node) -> str:
        return f"{self.function_name(n)}{self.arguments(n)}"

    def p_log(self, n: Node) -> str:
        base, arg = n.children
        return (
            f"{self.glyph(n, chr(92) + 'log')}_{{{self.node(base)}}}\\left({self.node(arg)}\\right)"
        )

    def p_factorial(self, n: Node) -> str:
        return f"{self.sub(n.children[0], _ATOM, closed=True)}{self.glyph(n, '!')}"

    def p_binom(self, n: Node) -> str:
        top, bottom = (self.node(c) for c in n.children)
        if n.value == "choose":
            return f"{{{top} \\choose {bottom}}}"
        return f"\\binom{{{top}}}{{{bottom}}}"

    def p_abs(self, n: Node) -> str:
        return f"\\left|{self.node(n.children[0])}\\right|"

    def p_floor(self, n: Node) -> str:
        return f"\\left\\lfloor {self.node(n.children[0])}\\right\\rfloor"

    def p_ceil(self, n: Node) -> str:
        return f"\\left\\lceil {self.node(n.children[0])}\\right\\rceil"
