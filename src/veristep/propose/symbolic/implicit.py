"""Implicit differentiation: from a relation between x and y to dy/dx, as a teacher writes it.

The first line differentiates both sides with respect to x, y a function of x (the chain rule on
each term in y, the product rule on each product of x and y); from there dy/dx is the unknown of a
linear equation, and the equation moves gather its terms, factor it out and divide by its
coefficient. Inside the planner dy/dx is a letter of its own (:class:`Slope`), printed as
``\\frac{dy}{dx}``; the grounding engine reads the printed lines back as y(x) and its derivative.

>>> x, y = sp.symbols("x y", real=True)
>>> start, target, slope = read_implicit(sp.Eq(x * y, 4), sp.Eq(sp.Derivative(
...     sp.Function("y", real=True)(x), x), -y / x))
>>> [m.state for m in implicit_moves(start, slope)]
[Eq(x*dy/dx + y, 0)]
"""

from __future__ import annotations

import sympy as sp
from sympy.core.function import AppliedUndef

from veristep.propose.symbolic.moves import Move, bare_tex, math, tex


class Slope(sp.Symbol):
    """dy/dx as the planner's unknown: a letter that prints as ``\\frac{dy}{dx}`` and stands
    last in a product, after the letters and brackets (``(x + 2y) \\frac{dy}{dx}``, as written
    by hand)."""

    @classmethod
    def class_key(cls) -> tuple[int, int, str]:
        return (5, 0, "Symbol")  # after Symbol (2), Pow and Add (3) in SymPy's canonical order

    def sort_key(self, order: object = None) -> tuple:
        # After every letter: named "dy/dx" it would sort before x.
        return self.class_key(), (1, ("~" + self.name,)), sp.S.One.sort_key(), sp.S.One

    def _latex(self, printer: object) -> str:
        y, x = self.name.removeprefix("d").split("/d")
        return rf"\frac{{d{y}}}{{d{x}}}"


def read_implicit(
    start: sp.Basic, target: sp.Basic | None, var: sp.Symbol | None = None
) -> tuple[sp.Basic, sp.Basic | None, sp.Symbol | None]:
    """A task "from F(x, y) = G(x, y) find dy/dx": the target with y(x) as the start's letter y
    and dy/dx as a :class:`Slope` unknown; any other task is returned as it came."""
    if not isinstance(start, sp.Eq) or not isinstance(target, sp.Eq) or start.has(sp.Derivative):
        return start, target, var
    derivatives = [
        d
        for d in target.atoms(sp.Derivative)
        if isinstance(d.expr, AppliedUndef) and d.variables == d.expr.args
    ]
    if len(derivatives) != 1 or len(target.atoms(sp.Derivative)) != 1:
        return start, target, var
    d = derivatives[0]
    name, x = d.expr.func.__name__, d.variables[0]
    letters = {s.name: s for s in start.free_symbols}
    if name not in letters or letters.get(x.name) != x:
        return start, target, var
    y = letters[name]
    slope = Slope(f"d{name}/d{x.name}", **({"real": True} if y.is_real else {}))
    applied = {f: y for f in target.atoms(AppliedUndef) if f.func.__name__ == name}
    read = target.xreplace({d: slope}).xreplace(applied)
    if read.atoms(AppliedUndef):
        return start, target, var
    return start, read, slope


def is_implicit(var: sp.Basic | None) -> bool:
    return isinstance(var, Slope)


def implicit_moves(state: sp.Basic, slope: Slope) -> list[Move]:
    """Differentiate both sides of an equation in x and y with respect to x; once differentiated,
    clear the fractions the derivatives left (of ln y, √y, 1/y) before solving for dy/dx."""
    if not isinstance(state, sp.Eq):
        return []
    if state.has(slope):
        return _clear_fractions(state, slope)
    name, x_name = slope.name.removeprefix("d").split("/d")
    letters = {s.name: s for s in state.free_symbols}
    if name not in letters or x_name not in letters:
        return []
    x, y = letters[x_name], letters[name]
    fn = sp.Function(name, **({"real": True} if y.is_real else {}))(x)

    def differentiate(side: sp.Expr) -> sp.Expr:
        d = sp.diff(side.subs(y, fn), x)
        return d.xreplace({sp.Derivative(fn, x): slope}).xreplace({fn: y})

    new = sp.Eq(differentiate(state.lhs), differentiate(state.rhs))
    if new.has(sp.Derivative) or new is sp.true or new is sp.false:
        return []
    operation = f"differentiate both sides with respect to {math(x_name)}"
    return [Move("implicit-differentiate", operation, _rules(state, x, y), "solve", new)]


def _clear_fractions(state: sp.Eq, slope: Slope) -> list[Move]:
    """Multiply both sides by the common denominator of the terms in dy/dx (a letter in it):
    the linear equation in dy/dx a teacher solves. Not once dy/dx stands alone on the left."""
    if state.lhs == slope:
        return []
    # Only the denominators under dy/dx: the coefficient to divide by then has no fraction.
    terms = [t for side in state.args for t in sp.Add.make_args(side) if t.has(slope)]
    denominators = [sp.fraction(sp.together(t))[1] for t in terms]
    lcd = sp.lcm_list([d for d in denominators if d.free_symbols])
    if not lcd.free_symbols or lcd.has(slope):
        return []
    new = sp.Eq(sp.expand(state.lhs * lcd), sp.expand(state.rhs * lcd))
    nonzero = math(bare_tex(lcd) + r" \ne 0")
    why = f"clear the fractions (assuming {nonzero})"
    return [Move("clear-fractions", f"multiply both sides by {tex(lcd)}", why, "solve", new)]


def _rules(state: sp.Eq, x: sp.Symbol, y: sp.Symbol) -> str:
    """Which rule each term in y needs, named on the terms themselves."""
    chain, product = [], []
    for side in (state.lhs, state.rhs):
        for term in sp.Add.make_args(side):
            _, rest = term.as_coeff_Mul()
            if not rest.has(y) or rest == y:
                continue  # y itself needs no rule: its derivative is dy/dx
            (product if rest.has(x) else chain).append(rest)
    parts = [] if chain or product else ["its derivative is written as the unknown"]
    if chain:
        parts.append("the chain rule on " + ", ".join(tex(t) for t in chain))
    if product:
        parts.append("the product rule on " + ", ".join(tex(t) for t in product))
    return f"{math(y.name)} is a function of {math(x.name)}: " + " and ".join(parts)
