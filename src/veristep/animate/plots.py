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

from veristep.core.errors import VeristepError
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


class _Unsupported(VeristepError):
    """A function the plotter cannot sample."""


def _tree(node: Any, named: bool = False) -> Tree:
    """The whitelisted tree of ``node``; ``named`` keeps each unknown's name (``["var", "y"]``)
    for a curve in two unknowns, where the player must know which is which."""
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
        return ["var", node.value] if named else ["var"]
    if kind is Kind.CONSTANT and node.value in _CONSTS:
        return ["num", _CONSTS[node.value]]
    simple = _SIMPLE.get(kind)
    if simple is not None:
        return [simple, *(_tree(k, named) for k in kids)]
    if kind is Kind.SQRT:
        if len(kids) == 1:
            return ["sqrt", _tree(kids[0], named)]
        return ["root", *(_tree(k, named) for k in kids)]
    if kind is Kind.FUNC and node.value in _FUNCS and len(kids) == 1:
        return ["fn", node.value, _tree(kids[0], named)]
    if kind is Kind.LOG and len(kids) == 2:
        return ["log", _tree(kids[0], named), _tree(kids[1], named)]
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
    following = state_plots(states[:MAX_STATE_PLOTS], parse, at)
    if following is not None:
        # It shows the start's sides itself when the start is an equation: no second copy.
        plots = [p for p in plots if not (p["kind"] == "equation" and p["frame"] == 0)]
        plots.insert(0, following)
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


MAX_STATE_PLOTS = 60  # states with a plot of their own; a longer chain keeps its first ones


def state_plots(
    states: list[str], parse: Callable[[str], Any], sides: Callable[[int], Any]
) -> dict[str, Any] | None:
    """A plot that follows the animation: for each state, both sides of a one-unknown equation,
    the solutions of an inequality or a solved form on a number line, or the two curves of a
    system of two equations in two unknowns. None when fewer than two states can be drawn (one
    picture does not follow anything)."""
    frames: list[list[Any]] = []
    for k, latex in enumerate(states):
        try:
            line = number_line(parse(latex))  # a solved form (x = 4, x > 2) is read off a line
        except Exception:  # an unparsable or odd state simply has no plot
            line = None
        if line is not None:
            frames.append([k, line])
            continue
        try:
            system = system_curves(parse(latex))
        except Exception:  # as above
            system = None
        if system is not None:
            frames.append([k, system])
            continue
        eq = sides(k)
        if eq is not None:
            frames.append([k, {"type": "equation", "var": eq[0], "left": eq[1], "right": eq[2]}])
    if len(frames) < 2:
        return None
    return {"kind": "states", "frame": frames[0][0], "var": frames[0][1]["var"], "frames": frames}


def system_curves(graph: Any) -> dict[str, Any] | None:
    """Two equations in two unknowns (a ``cases`` block or a conjunction) as two curves: each
    equation's sides as trees that name their unknowns (and its LaTeX, for the key); the
    player draws where left = right for each and marks where both hold. ``vars`` is
    (horizontal, vertical): x across if present.

    >>> from veristep.mathgraph import parse_latex
    >>> s = system_curves(parse_latex(r"\\begin{cases} x + y = 3 \\\\ x - y = 1 \\end{cases}"))
    >>> s["vars"], s["equations"][0]
    (['x', 'y'], [['add', ['var', 'x'], ['var', 'y']], ['num', 3.0]])
    >>> system_curves(parse_latex(r"x = 2 \\land y = 1"))["vars"]
    ['x', 'y']
    >>> system_curves(parse_latex(r"x = 2 \\lor y = 1")) is None  # a choice, not a system
    True
    """
    root = graph.root
    if root.kind not in (Kind.SYSTEM, Kind.AND) or len(root.children) != 2:
        return None
    if any(c.kind is not Kind.RELATION or c.value != "=" or len(c.children) != 2
           for c in root.children):  # fmt: skip
        return None
    names = {n.value for n in root.walk() if n.kind is Kind.SYMBOL}
    if len(names) != 2 or sum(1 for _ in root.walk()) > 2 * MAX_NODES:
        return None
    across = "x" if "x" in names else min(names)
    try:
        equations = [[_tree(side, named=True) for side in c.children] for c in root.children]
    except _Unsupported:
        return None
    from veristep.mathgraph.latex_out import to_latex

    return {"type": "system", "var": across, "vars": [across, (names - {across}).pop()],
            "equations": equations, "latex": [to_latex(c) for c in root.children]}  # fmt: skip


def function_tree(graph: Any, var: str) -> Tree | None:
    """A function of ``var`` alone as a tree the browser can sample (an exported page's plot
    zooms with no server), or None when it uses anything the tree cannot say.

    >>> from veristep.mathgraph import parse_math
    >>> function_tree(parse_math("x^2 - 4"), "x")
    ['add', ['pow', ['var'], ['num', 2.0]], ['neg', ['num', 4.0]]]
    >>> function_tree(parse_math("x y"), "x") is None
    True
    """
    root = graph.root
    if root.kind in _STATEMENTS or sum(1 for _ in root.walk()) > MAX_NODES:
        return None
    if {n.value for n in root.walk() if n.kind is Kind.SYMBOL} - {var}:
        return None
    try:
        return _tree(root)
    except _Unsupported:
        return None


_STATEMENTS = frozenset({Kind.RELATION, Kind.AND, Kind.OR, Kind.SYSTEM})


def number_line(graph: Any) -> dict[str, Any] | None:
    """The solutions of a one-unknown inequality or solved form as points and intervals.

    >>> from veristep.mathgraph import parse_latex
    >>> number_line(parse_latex(r"x = 2 \\lor x = 3"))["points"]
    [[2.0, True], [3.0, True]]
    >>> number_line(parse_latex(r"-1 < x \\le 4"))["intervals"]
    [[-1.0, 4.0, False, True]]
    >>> number_line(parse_latex("x^2 = 4")) is None  # not solved: both sides plot instead
    True
    """
    root = graph.root
    names = {n.value for n in root.walk() if n.kind is Kind.SYMBOL}
    if len(names) != 1 or sum(1 for _ in root.walk()) > MAX_NODES:
        return None
    try:
        pieces = _pieces(root)
    except _Unsupported:
        return None
    points = sorted([p[1], True] for p in pieces if p[0] == "point")
    intervals = [list(p[1:]) for p in pieces if p[0] == "interval"]
    return {"type": "numberline", "var": names.pop(), "points": points, "intervals": intervals}


_OPEN_BELOW = {"<": False, "le": True}  # x < a: (−∞, a); x ≤ a: (−∞, a]
_OPEN_ABOVE = {">": False, "ge": True}
_MIRROR = {"<": ">", ">": "<", "le": "ge", "ge": "le"}


def _pieces(node: Any) -> list[tuple[Any, ...]]:
    """("point", v) and ("interval", lo, hi, lo_closed, hi_closed) pieces of a solved form."""
    if node.kind is Kind.OR:
        return [piece for child in node.children for piece in _pieces(child)]
    if node.kind is Kind.AND and len(node.children) == 2:
        a, b = (_pieces(child) for child in node.children)
        if len(a) == len(b) == 1 and a[0][0] == b[0][0] == "interval":
            return [_meet(a[0], b[0])]
        raise _Unsupported
    if node.kind is not Kind.RELATION:
        raise _Unsupported
    ops, kids = str(node.value).split(","), node.children
    if len(ops) == 2 and len(kids) == 3 and kids[1].kind is Kind.SYMBOL:
        low, high = _value(kids[0]), _value(kids[2])
        if all(op in ("<", "le") for op in ops):
            return [("interval", low, high, ops[0] == "le", ops[1] == "le")]
        raise _Unsupported
    if len(ops) != 1 or len(kids) != 2:
        raise _Unsupported
    op, (left, right) = ops[0], kids
    if op == "in" and left.kind is Kind.SYMBOL and right.kind is Kind.INTERVAL:
        return [_interval(right)]
    if right.kind is Kind.SYMBOL and left.kind is not Kind.SYMBOL:
        left, right, op = right, left, _MIRROR.get(op, op)
    if left.kind is not Kind.SYMBOL:
        raise _Unsupported
    v = _value(right)
    if op == "=":
        return [("point", v)]
    if op in _OPEN_BELOW:
        return [("interval", None, v, False, _OPEN_BELOW[op])]
    if op in _OPEN_ABOVE:
        return [("interval", v, None, _OPEN_ABOVE[op], False)]
    raise _Unsupported


def _interval(node: Any) -> tuple[Any, ...]:
    brackets = str(node.value)
    if len(node.children) != 2 or len(brackets) != 2:
        raise _Unsupported
    ends = [None if _infinite(c) else _value(c) for c in node.children]
    return ("interval", ends[0], ends[1], brackets[0] == "[", brackets[1] == "]")


def _infinite(node: Any) -> bool:
    if node.kind is Kind.NEG and node.children:
        node = node.children[0]
    return node.kind is Kind.CONSTANT and node.value == "infty"


def _meet(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
    """The intersection of two intervals (a bound of None is infinite)."""
    _, lo1, hi1, c1, d1 = a
    _, lo2, hi2, c2, d2 = b
    lo, lo_closed = lo1, c1
    if lo2 is not None and (lo is None or lo2 > lo or (lo2 == lo and not c2)):
        lo, lo_closed = lo2, c2
    hi, hi_closed = hi1, d1
    if hi2 is not None and (hi is None or hi2 < hi or (hi2 == hi and not d2)):
        hi, hi_closed = hi2, d2
    return ("interval", lo, hi, lo_closed, hi_closed)


def _value(node: Any) -> float:
    """A number written without the unknown (``-\\frac{1}{2}``, ``\\sqrt 2``), in floating point."""
    if any(n.kind is Kind.SYMBOL for n in node.walk()):
        raise _Unsupported
    try:
        value = _evaluate(_tree(node))
    except (ArithmeticError, ValueError, TypeError):
        raise _Unsupported from None
    if not math.isfinite(value) or abs(value) > 1e9:
        raise _Unsupported
    return value


def _evaluate(tree: Tree) -> float:
    """The value of a constant tree (the player's evalTree, for numbers only)."""
    op, args = tree[0], tree[1:]
    if op == "num":
        return float(args[0])
    if op == "fn":
        return float(getattr(math, {"ln": "log", "arctan": "atan"}.get(args[0], args[0]))(
            _evaluate(args[1])))  # fmt: skip
    values = [_evaluate(a) for a in args]
    if op == "add":
        return math.fsum(values)
    if op == "mul":
        return math.prod(values)
    if op == "neg":
        return -values[0]
    if op == "div":
        return values[0] / values[1]
    if op == "pow":
        if abs(values[1]) > 1_000:
            raise ValueError("exponent too large to draw")
        return float(values[0] ** values[1])
    if op == "sqrt":
        return math.sqrt(values[0])
    if op == "root":
        return values[0] ** (1 / values[1])
    if op == "abs":
        return abs(values[0])
    if op == "log":
        return math.log(values[1]) / math.log(values[0])
    raise ValueError(op)


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
