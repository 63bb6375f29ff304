"""Printing of statements, calculus constructs and collections (a part of ``latex_out``)."""

from __future__ import annotations

from typing import Protocol

from veristep.mathgraph.nodes import Kind, Node

_STATEMENT_LEVEL = {Kind.IFF: 1, Kind.IMPLIES: 2, Kind.OR: 3, Kind.AND: 4, Kind.NOT: 5,
                    Kind.RELATION: 6}  # fmt: skip
_EXPR, _TERM, _ATOM = 7, 8, 12
_RELATIONS = {"=": "=", "<": "<", ">": ">", "ne": "\\neq", "le": "\\leq", "ge": "\\geq",
              "approx": "\\approx", "in": "\\in", "notin": "\\notin"}  # fmt: skip
_COMMANDS = {"lor", "vee", "land", "wedge", "neg", "lnot", "Rightarrow", "implies", "iff",
             "Longrightarrow", "Leftrightarrow", "Longleftrightarrow"}  # fmt: skip


class _PrinterCore(Protocol):
    ids: bool

    def node(self, node: Node) -> str: ...
    def sub(self, node: Node, need: int, closed: bool = False) -> str: ...
    def glyph(self, node: Node, text: str, cls: str = "") -> str: ...


def connective_glyph(value: str) -> str:
    if value in _COMMANDS:
        return f"\\{value}"
    return f"\\text{{ {value} }}"


# An operand of these kinds is bracketed after d/dx, \\lim, \\sum, \\prod and \\int, so the
# printed form cannot be misread (d/dx (x^2 sin x) is never printed as d/dx x^2 sin x).
_COMPOUND = frozenset({Kind.ADD, Kind.MUL, Kind.DIV, Kind.NEG, Kind.PM})


class StatementPrinting:
    def operand(self: _PrinterCore, node: Node) -> str:
        text = self.node(node)
        return f"\\left({text}\\right)" if node.kind in _COMPOUND else self.sub(node, _TERM)

    # --- statements ----------------------------------------------------------------------------
    def p_relation(self: _PrinterCore, n: Node) -> str:
        ops = n.value.split(",")
        out = [self.sub(n.children[0], _EXPR)]
        for op, child in zip(ops, n.children[1:], strict=True):
            out.append(self.glyph(n, _RELATIONS[op], "mathrel"))
            out.append(self.sub(child, _EXPR))
        return " ".join(out)

    def _nary(self: _PrinterCore, n: Node) -> str:
        own = _STATEMENT_LEVEL[n.kind]
        glyph = connective_glyph(n.value)
        sep = f" {self.glyph(n, glyph, '' if glyph.startswith(chr(92) + 'text') else 'mathbin')} "
        return sep.join(self.sub(c, own + 1) for c in n.children)

    p_and = _nary
    p_or = _nary

    def p_not(self: _PrinterCore, n: Node) -> str:
        glyph = "\\text{not }" if n.value == "not" else connective_glyph(n.value)
        return f"{self.glyph(n, glyph)} {self.sub(n.children[0], _STATEMENT_LEVEL[Kind.NOT])}"

    def p_implies(self: _PrinterCore, n: Node) -> str:
        left, right = n.children
        glyph = self.glyph(n, connective_glyph(n.value), "mathrel")
        return f"{self.sub(left, 3)} {glyph} {self.sub(right, 2)}"

    def p_iff(self: _PrinterCore, n: Node) -> str:
        left, right = n.children
        glyph = self.glyph(n, connective_glyph(n.value), "mathrel")
        return f"{self.sub(left, 1)} {glyph} {self.sub(right, 2)}"

    def p_system(self: _PrinterCore, n: Node) -> str:
        rows = " \\\\ ".join(self.node(c) for c in n.children)
        if n.value == "cases":
            return f"\\begin{{cases}} {rows} \\end{{cases}}"
        if n.value == "aligned":
            return f"\\left\\{{\\begin{{aligned}} {rows} \\end{{aligned}}\\right."
        return f"\\left\\{{\\begin{{array}}{{l}} {rows} \\end{{array}}\\right."

    def p_continuation(self: _PrinterCore, n: Node) -> str:
        return f"{self.glyph(n, '=', 'mathrel')} {self.node(n.children[0])}"

    # --- calculus ------------------------------------------------------------------------------
    def p_deriv(self: _PrinterCore, n: Node) -> str:
        target, var, order = n.children
        if n.value == "prime":
            func = target
            args = ", ".join(self.node(c) for c in func.children)
            name = func.value if len(func.value) == 1 else f"\\{func.value}"
            body = f"{self.glyph(func, name)}{chr(39) * int(order.value)}\\left({args}\\right)"
            return body
        d = "\\partial" if n.value.startswith("partial") else "d"
        power = "" if order.value == "1" else f"^{{{self.node(order)}}}"
        top = f"{d}{power}"
        if n.value.endswith("-frac"):
            top += " " + self.node(target)
        frac = f"\\frac{{{self.glyph(n, top)}}}{{{d} {self.node(var)}{power}}}"
        if n.value.endswith("-frac"):
            return frac
        return f"{frac} {self.operand(target)}"  # type: ignore[attr-defined]

    def p_integral(self: _PrinterCore, n: Node) -> str:
        integrand, var = n.children[:2]
        bounds = ""
        if len(n.children) == 4:
            bounds = f"_{{{self.node(n.children[2])}}}^{{{self.node(n.children[3])}}}"
        body = self.operand(integrand)  # type: ignore[attr-defined]
        return f"{self.glyph(n, chr(92) + 'int')}{bounds} {body} \\, d{self.node(var)}"

    def p_limit(self: _PrinterCore, n: Node) -> str:
        operand, var, point = n.children
        where = self.node(point)
        if n.value:
            if point.kind not in (Kind.NUMBER, Kind.SYMBOL, Kind.CONSTANT):
                where = f"{{{where}}}"
            where += f"^{{{n.value}}}"
        head = self.glyph(n, "\\lim")
        return f"{head}_{{{self.node(var)} \\to {where}}} {self.operand(operand)}"  # type: ignore[attr-defined]

    def _big(self: _PrinterCore, n: Node, command: str) -> str:
        body, index, lower, upper = n.children
        head = self.glyph(n, command)
        bounds = f"_{{{self.node(index)}={self.node(lower)}}}^{{{self.node(upper)}}}"
        return f"{head}{bounds} {self.operand(body)}"  # type: ignore[attr-defined]

    def p_sum(self, n: Node) -> str:
        return self._big(n, "\\sum")  # type: ignore[misc]

    def p_product(self, n: Node) -> str:
        return self._big(n, "\\prod")  # type: ignore[misc]

    # --- collections ---------------------------------------------------------------------------
    def p_matrix(self: _PrinterCore, n: Node) -> str:
        rows = " \\\\ ".join(" & ".join(self.node(c) for c in row.children) for row in n.children)
        return f"\\begin{{{n.value}}} {rows} \\end{{{n.value}}}"

    def p_row(self: _PrinterCore, n: Node) -> str:
        return " & ".join(self.node(c) for c in n.children)

    def p_set(self: _PrinterCore, n: Node) -> str:
        return "\\left\\{" + ", ".join(self.node(c) for c in n.children) + "\\right\\}"

    def p_union(self: _PrinterCore, n: Node) -> str:
        return " \\cup ".join(self.node(c) for c in n.children)

    def p_interval(self: _PrinterCore, n: Node) -> str:
        lo, hi = (self.node(c) for c in n.children)
        return f"\\left{n.value[0]}{lo}, {hi}\\right{n.value[1]}"
