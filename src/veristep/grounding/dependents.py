"""A dependent variable and its derivative read as unknowns, so the algebraic checks can judge
the lines of an implicit differentiation.

Once ``\\frac{dy}{dx}`` appears in a statement the parser reads every ``y`` there as ``y(x)``, and
``\\frac{dy}{dx}`` as the unevaluated ``Derivative(y(x), x)``, which no algebraic check can
handle. Between two statements that are relations among x, y(x) and y'(x) *at each x* — the same
highest derivative order on both sides of the step, every derivative that of the dependent
function itself — a step is an algebraic step at each point: it is read with y and dy/dx as plain
unknowns. A step that raises the order (differentiating both sides) is no pointwise algebra; it is
left to the implicit differentiation check, and nothing here reads it.

>>> from sympy import Derivative, Eq, Function, symbols
>>> x = symbols("x", real=True)
>>> y = Function("y", real=True)
>>> prev = Eq((x + 2 * y(x)) * Derivative(y(x), x), -2 * x - y(x))
>>> nxt = Eq(Derivative(y(x), x), -(2 * x + y(x)) / (x + 2 * y(x)))
>>> read_dependents(prev, nxt)[1]
Eq(dy/dx, (-2*x - y)/(x + 2*y))
"""

from __future__ import annotations

from sympy import Basic, Derivative, Symbol
from sympy.core.function import AppliedUndef

from veristep.grounding.statements import CALCULUS


def dependent_atoms(state: Basic) -> tuple[set[AppliedUndef], set[Derivative]] | None:
    """The applied dependents ``y(x)`` and their derivatives ``y'(x)`` in a state; None when the
    state holds any other calculus construct (a derivative of an expression, an integral) or a
    dependent of more than one variable."""
    if not isinstance(state, Basic):
        return None
    applied = {f for f in state.atoms(AppliedUndef)}
    if any(len(f.args) != 1 or not isinstance(f.args[0], Symbol) for f in applied):
        return None
    derivatives = {d for d in state.atoms(Derivative)}
    for d in derivatives:
        if not isinstance(d.expr, AppliedUndef) or len(d.variables) < 1:
            return None
        if set(d.variables) != {d.expr.args[0]}:
            return None
    others = [c for c in state.atoms(*CALCULUS) if not isinstance(c, Derivative)]
    return (applied, derivatives) if not others else None


def order(state: Basic) -> int:
    """The highest derivative order of a dependent in a state (0 with none)."""
    return max((len(d.variables) for d in state.atoms(Derivative)), default=0)


def derivative_name(d: Derivative) -> str:
    """``dy/dx``, ``d^2y/dx^2``: how a derivative reads once it is an unknown."""
    y, x, n = d.expr.func.__name__, d.variables[0].name, len(d.variables)
    return f"d{y}/d{x}" if n == 1 else f"d^{n}{y}/d{x}^{n}"


def read_dependents(prev: Basic, nxt: Basic) -> tuple[Basic, Basic] | None:
    """Both states with every ``y(x)`` read as the letter y and every derivative of it as an
    unknown of its own (``dy/dx``); None when the step is not pointwise algebra among them (no
    dependent at all, another calculus construct, or a step that changes the derivative order)."""
    found = [dependent_atoms(prev), dependent_atoms(nxt)]
    if found[0] is None or found[1] is None:
        return None
    applied = found[0][0] | found[1][0]
    derivatives = found[0][1] | found[1][1]
    if not applied and not derivatives:
        return None
    if order(prev) != order(nxt):
        return None
    letters = {s.name: s for s in prev.free_symbols | nxt.free_symbols if isinstance(s, Symbol)}
    names = {f.func.__name__ for f in applied}
    if any(f"d{n}/" in name or name.startswith("d^") for n in names for name in letters):
        return None  # a letter already spelled like the unknown we would introduce
    mapping: dict[Basic, Basic] = {}
    for d in derivatives:
        mapping[d] = Symbol(derivative_name(d), **_assumptions(d.expr))
    for f in applied:
        name = f.func.__name__
        mapping[f] = letters.get(name) or Symbol(name, **_assumptions(f))
    # Derivatives first: y(x) inside Derivative(y(x), x) must not be replaced on its own.
    return prev.xreplace(mapping), nxt.xreplace(mapping)


def _assumptions(f: Basic) -> dict[str, bool]:
    return {"real": True} if f.is_real else {}


def as_dependents(conditions: set[Basic], state: Basic) -> set[Basic]:
    """Conditions read from one part of a statement, with its letters y as the dependents y(x)
    the whole statement reads them as: ``-\\frac{2x + y}{x + 2y}`` alone has a letter y, yet
    beside ``\\frac{dy}{dx}`` it means y(x), so its x + 2y ≠ 0 is the statement's x + 2y(x) ≠ 0."""
    applied = state.atoms(AppliedUndef) if isinstance(state, Basic) else set()
    if not applied:
        return conditions
    by_name = {f.func.__name__: f for f in applied}
    out = set()
    for c in conditions:
        mapping = {s: by_name[s.name] for s in c.free_symbols if s.name in by_name}
        out.add(c.xreplace(mapping) if mapping else c)
    return out
