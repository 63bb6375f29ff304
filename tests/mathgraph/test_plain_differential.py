"""Random expressions typed in several student spellings read back as the expression built
directly in SymPy: a differential check of the plain reader's conventions."""

from __future__ import annotations

import random
from collections.abc import Callable

import sympy as sp

from veristep.core.errors import InputError
from veristep.mathgraph import branches, parse_plain

X, Y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
Typed = tuple[str, sp.Expr, bool]  # text, value, whether the text is a single atom

ATOMS: list[Typed] = [
    ("x", X, True), ("y", Y, True), ("2", sp.Integer(2), True), ("3", sp.Integer(3), True),
    ("pi", sp.pi, True), ("e", sp.E, True), ("0.5", sp.Rational(1, 2), True),
]  # fmt: skip
FUNCTIONS: dict[str, Callable[[sp.Expr], sp.Expr]] = {
    "sin": sp.sin, "cos": sp.cos, "ln": sp.log, "exp": sp.exp, "sqrt": sp.sqrt, "abs": sp.Abs,
}  # fmt: skip


def _group(t: Typed) -> str:
    return t[0] if t[2] else f"({t[0]})"


def _expr(rng: random.Random, depth: int) -> Typed:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(ATOMS)
    a, b = _expr(rng, depth - 1), _expr(rng, depth - 1)
    kind = rng.choice(["add", "sub", "mul", "jux", "div", "pow", "neg", "func", "negpow",
                       "spaced", "bare"])  # fmt: skip
    if kind == "spaced":  # 3/4 y: the quotient times what follows the space
        n, m = rng.randint(1, 9), rng.randint(2, 9)
        return f"{n}/{m} {_group(b)}", sp.Rational(n, m) * b[1], False
    if kind == "bare" and a[2] and a[0].isalpha() and len(a[0]) == 1:  # sin x, ln y
        name = rng.choice(["sin", "cos", "ln", "tan"])
        func = {"sin": sp.sin, "cos": sp.cos, "ln": sp.log, "tan": sp.tan}[name]
        return f"{name} {a[0]}", func(a[1]), False
    if kind == "add":
        return f"{a[0]} + {_group(b) if b[0].startswith('-') else b[0]}", a[1] + b[1], False
    if kind == "sub":
        return f"{a[0]} - {_group(b)}", a[1] - b[1], False
    if kind == "mul":
        return f"{_group(a)}*{_group(b)}", a[1] * b[1], False
    if kind == "jux":  # 2x, 3(x + 1), (x + 1)(y - 2): a number or a bracket in front
        left = a if a[0].isdigit() else (f"({a[0]})", a[1], True)
        right = b if b[0].isalpha() and len(b[0]) == 1 else (f"({b[0]})", b[1], True)
        return f"{left[0]}{right[0]}", left[1] * right[1], False
    if kind == "div":
        return f"{_group(a)}/{_group(b)}", a[1] / b[1], False
    if kind == "pow":
        return f"{_group(a)}^{_group(b)}", a[1] ** b[1], False
    if kind == "negpow":  # x^-2, e^-(x + 1)
        return f"{_group(a)}^-{_group(b)}", a[1] ** (-b[1]), False
    if kind == "neg":
        return f"-{_group(a)}", -a[1], False
    name = rng.choice(sorted(FUNCTIONS))
    return f"{name}({a[0]})", FUNCTIONS[name](a[1]), True


def test_typed_expressions_mean_what_was_built() -> None:
    rng = random.Random(31)
    checked = 0
    for _ in range(600):
        text, value, _atom = _expr(rng, 3)
        if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or value.count_ops() > 60:
            continue
        try:
            forms = branches(parse_plain(text))
        except InputError as exc:
            if "division by zero" in str(exc) or "not defined" in str(exc):
                continue  # a literal 1/0 inside: refused by design
            raise AssertionError(f"{text!r} was refused: {exc}") from None
        except Exception as exc:  # every spelling here is unambiguous: it must be read
            raise AssertionError(f"{text!r} was refused: {exc}") from None
        assert len(forms) == 1, text
        assert sp.simplify(forms[0] - value) == 0, f"{text!r} read as {forms[0]}, built {value}"
        checked += 1
    assert checked > 400
