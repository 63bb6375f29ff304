"""Plots in the payload: what a reader would rather look at than read.

A calculus state gets one too: ``\\frac{d}{dx} f = g`` plots f, its derivative and g;
``\\int_a^b f\\,dx = v`` plots f with the area between a and b shaded.

For an equation in one unknown (``2x + 3 = 9``, ``\\sqrt{x} = 3``) the payload carries both sides
as small expression trees; the player evaluates them in the browser, draws them with the vendored
uPlot and marks where they meet (the roots). For a refuted step it carries both states as
residuals (left − right) and the witness, drawn where one state holds and the other does not.

The trees are built from the parsed graph by a whitelist walk: no SymPy and no evaluation happen
here, so nothing in the main process can explode; the browser evaluates plain floating point.

>>> from veristep.mathgraph import parse_latex
>>> equation_sides(parse_latex("2x + 3 = 9"))
('x', ['add', ['mul', ['num', 2.0], ['var']], ['num', 3.0]], ['num', 9.0])
>>> equation_sides(parse_latex("a x = 1")) is None  # a parameter: no single curve to draw
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from veristep.mathgraph.nodes import Kind

MAX_NODES = 200  # a tree larger than this is not worth a plot
MAX_PLOTS = 4
_FUNCS = frozenset({"sin", "cos", "tan", "exp", "ln", "log", "sinh", "cosh", "tanh", "arctan"})
_CONSTS = {"pi": math.pi, "e": math.e}

Tree = list[Any]


def equation_sides(graph: Any) -> tuple[str, Tree, Tree] | None:
    """(unknown, left tree, right tree) of a one-unknown equation ``left = right``, else None."""
    root = graph.root
    if root.kind is not Kind.RELATION or root.value != "=" or len(root.children) != 2:
        return None
    names = {n.value for n in root.walk() if n.kind is Kind.SYMBOL}
    if len(names) != 1 or sum(1 for _ in root.walk()) > MAX_NODES:
        return None
    try:
        left, right = (_tree(child) for child in root.children)
    except _Unsupported:
        return None
    return names.pop(), left, right


class _Unsupported(Exception):
    pass


def _tree(node: Any) -> Tree:
    kind, kids = node.kind, node.children
    if kind is Kind.NUMBER:
        try:
            value = float(node.value)
        except ValueError:
            raise _Unsupported from None
        if not math.isfinite(value):
            raise _Unsupported
        return ["num", value]
    if kind is Kind.SYMBOL:
        return ["var"]
    if kind is Kind.CONSTANT and node.value in _CONSTS:
        return ["num", _CONSTS[node.value]]
    simple = _SIMPLE.get(kind)
    if simple is not None:
        return [simple, *(_tree(k) for k in kids)]
    if kind is Kind.SQRT:
        return ["sqrt", _tree(kids[0])] if len(kids) == 1 else ["root", *(_tree(k) for k in kids)]
    if kind is Kind.FUNC and node.value in _FUNCS and len(kids) == 1:
        return ["fn", node.value, _tree(kids[0])]
    if kind is Kind.LOG and len(kids) == 2:
        return ["log", _tree(kids[0]), _tree(kids[1])]
    raise _Unsupported


_SIMPLE = {
    Kind.ADD: "add", Kind.NEG: "neg", Kind.MUL: "mul", Kind.DIV: "div", Kind.FRAC: "div",
    Kind.POW: "pow", Kind.ABS: "abs",
}  # fmt: skip


def plots_for(
    derivation: Mapping[str, Any], parse: Callable[[str], Any], steps: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The plots of a derivation: its start (both sides, roots marked) and each refuted step
    whose witness is a number (both states' residuals, the witness marked)."""
    states = [s.get("latex") or "" for s in derivation.get("states") or []]
    sides: dict[int, tuple[str, Tree, Tree] | None] = {}

    def at(k: int) -> tuple[str, Tree, Tree] | None:
        if k not in sides:
            try:
                sides[k] = equation_sides(parse(states[k]))
            except Exception:  # an unparsable or odd state simply has no plot
                sides[k] = None
        return sides[k]

    plots: list[dict[str, Any]] = []
    for k, latex in enumerate(states[:40]):
        try:
            calculus = calculus_plot(parse(latex))
        except Exception:  # as above: no plot
            calculus = None
        if calculus is not None:
            plots.append({**calculus, "frame": k})
            break  # one calculus plot says it; more would repeat it
    if states and (start := at(0)) is not None:
        var, left, right = start
        plots.append({"kind": "equation", "frame": 0, "var": var, "left": left, "right": right})
    for step in steps:
        k = step.get("index") or 0
        witness = _number(step.get("witness"))
        if step.get("tier") != "refuted" or witness is None or not 0 < k < len(states):
            continue
        before, after = at(k - 1), at(k)
        if before is None or after is None or before[0] != after[0]:
            continue
        plots.append({
            "kind": "witness", "frame": k, "var": before[0], "witness": witness,
            "before": ["add", before[1], ["neg", before[2]]],
            "after": ["add", after[1], ["neg", after[2]]],
        })  # fmt: skip
    return plots[:MAX_PLOTS]


def calculus_plot(graph: Any) -> dict[str, Any] | None:
    """``d/dx f = g``: f, its derivative and g; ``∫_a^b f dx = v``: f with the area shaded."""
    root = graph.root
    if root.kind is not Kind.RELATION or root.value != "=" or len(root.children) != 2:
        return None
    names = {n.value for n in root.walk() if n.kind is Kind.SYMBOL}
    if len(names) != 1 or sum(1 for _ in root.walk()) > MAX_NODES:
        return None
    var = next(iter(names))
    left, right = root.children
    try:
        if left.kind is Kind.DERIV and len(left.children) >= 2:
            order = left.children[2] if len(left.children) > 2 else None
            if order is not None and not (order.kind is Kind.NUMBER and order.value == "1"):
                return None
            claimed = _tree(right)
            return {"kind": "derivative", "var": var, "function": _tree(left.children[0]),
                    "claimed": claimed}  # fmt: skip
        if left.kind is Kind.INTEGRAL and len(left.children) == 4:
            lower, upper = (_tree(b) for b in left.children[2:])
            if lower[0] != "num" or upper[0] != "num" or not lower[1] < upper[1]:
                return None
            return {"kind": "area", "var": var, "integrand": _tree(left.children[0]),
                    "lower": lower[1], "upper": upper[1]}  # fmt: skip
    except _Unsupported:
        return None
    return None


def _number(witness: Any) -> float | None:
    """The one number in a witness (``7``, ``[7]``, ``{"x": 7}``), if there is exactly one."""
    if isinstance(witness, Mapping):
        values = list(witness.values())
    elif isinstance(witness, (list, tuple)):
        values = list(witness)
    else:
        values = [witness]
    if len(values) != 1 or isinstance(values[0], bool):
        return None
    value = values[0]
    if isinstance(value, str) and len(value) > 40:  # never parse a huge number's digits
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) and abs(number) < 1e9 else None
