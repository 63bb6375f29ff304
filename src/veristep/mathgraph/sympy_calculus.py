"""Graph → SymPy for the calculus constructs, all left unevaluated (evaluate=False / no doit).

The grounding engine evaluates them later, in killable workers under deadlines.
"""

from __future__ import annotations

from typing import Any

import sympy

from veristep.mathgraph.nodes import Node


class CalculusConversion:
    """Mixed into the converter; relies on its ``convert``, ``all`` and ``integer_names``."""

    integer_names: list[str]
    calculus_vars: list[str]

    def convert(self, node: Node) -> Any:  # pragma: no cover - provided by the converter
        raise NotImplementedError

    def binding(self, n: Node) -> Any:
        """Convert the first child (the operand) with the construct's variable bound."""
        self.calculus_vars.append(n.children[1].value)
        try:
            return self.convert(n.children[0])
        finally:
            self.calculus_vars.pop()

    def c_deriv(self, n: Node) -> Any:
        target = self.binding(n)
        var, order = (self.convert(c) for c in n.children[1:])
        return sympy.Derivative(target, (var, order), evaluate=False)

    def c_integral(self, n: Node) -> Any:
        integrand = self.binding(n)
        var, *bounds = (self.convert(c) for c in n.children[1:])
        return sympy.Integral(integrand, (var, *bounds))

    def c_limit(self, n: Node) -> Any:
        operand = self.binding(n)
        var, point = (self.convert(c) for c in n.children[1:])
        direction = n.value or "+-"
        if point in (sympy.oo, -sympy.oo):
            # at infinity only one side exists; SymPy wants that side named
            direction = "-" if point == sympy.oo else "+"
        return sympy.Limit(operand, var, point, dir=direction)

    def bound_index(self, n: Node) -> tuple[Any, Any, Any, Any]:
        body, index, lower, upper = n.children
        self.integer_names.append(index.value)
        try:
            converted = self.convert(body), self.convert(index)
        finally:
            self.integer_names.pop()
        return (*converted, self.convert(lower), self.convert(upper))

    def c_sum(self, n: Node) -> Any:
        body, index, lower, upper = self.bound_index(n)
        return sympy.Sum(body, (index, lower, upper))

    def c_product(self, n: Node) -> Any:
        body, index, lower, upper = self.bound_index(n)
        return sympy.Product(body, (index, lower, upper))
