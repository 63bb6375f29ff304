"""Implicit differentiation: an equation F(x, y) = G(x, y) differentiated on both sides with
respect to x, y a function of x (``x^2 + y^2 = 25`` → ``2x + 2y \\frac{dy}{dx} = 0``).

Along any differentiable curve y(x) on which the previous equation holds, F_x + F_y·y' = 0 (the
total derivative of F − G), so at each point where F_y ≠ 0 the slope is y' = −F_x / F_y. The next
line follows when it holds with that slope substituted, as an identity in x and y: then every
solution curve of the previous line satisfies it (a consequence — differentiating loses the
constant, so the converse does not follow: the relation is *widens*). It is refuted only at a
point of the curve with rational coordinates where F_y ≠ 0: there a solution curve passes with
that slope (implicit function theorem), and the next line is false on it. Anything else —
a next line that uses the curve's own equation, no rational point found — stays undecided.

>>> from sympy import Derivative, Eq, Function, symbols
>>> x, y = symbols("x y", real=True)
>>> Y = Function("y", real=True)
>>> differentiated(Eq(x**2 + y**2, 25), Eq(2*x + 2*Y(x) * Derivative(Y(x), x), 0), "y", x)
('follows', None)
>>> differentiated(Eq(x**2 + y**2, 25), Eq(2*x + 3*Y(x) * Derivative(Y(x), x), 0), "y", x)[0]
'refuted'
"""

from __future__ import annotations

from typing import Any

from sympy import (
    And,
    Basic,
    Derivative,
    Eq,
    Expr,
    Function,
    Ge,
    Gt,
    Le,
    Lt,
    Ne,
    Poly,
    PolynomialError,
    Rational,
    Symbol,
    cancel,
    diff,
    roots,
    together,
    true,
)
from sympy.core.function import AppliedUndef

from veristep.core.tiers import Relation
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.rewrite import zero_test
from veristep.grounding.statements import CALCULUS

_CONDITIONS = (Ne, Gt, Ge, Lt, Le)

# Where to look for a point of the curve: small x first, then small y.
_SAMPLES = (*(Rational(n) for n in (1, 2, 3, -1, -2, 0, 4, -3, 5)), Rational(1, 2))


def equation_of(state: Basic) -> tuple[Eq, tuple[Basic, ...]] | None:
    """A statement's equation and the domain conditions written beside it (the written-domain
    judgement adds them as conjuncts: ``x y'/(2\\sqrt{y}) + \\sqrt{y} = 0`` with √y ≠ 0)."""
    if isinstance(state, Eq):
        return state, ()
    if isinstance(state, And):
        equations = [a for a in state.args if isinstance(a, Eq)]
        conditions = tuple(a for a in state.args if not isinstance(a, Eq))
        if len(equations) == 1 and all(isinstance(c, _CONDITIONS) for c in conditions):
            return equations[0], conditions
    return None


def differentiation_pair(prev: Basic, nxt: Basic) -> tuple[str, Symbol] | None:
    """(the dependent's name, the variable) when ``prev`` is an equation without derivatives and
    ``nxt`` an equation with first derivatives of a dependent y(x) (either with its domain
    conditions beside it); else None."""
    read = equation_of(prev), equation_of(nxt)
    if read[0] is None or read[1] is None:
        return None
    prev, nxt = read[0][0], read[1][0]
    if prev.has(*CALCULUS):
        return None
    if prev.atoms(AppliedUndef):
        return None  # y(x) written out before differentiating: not a step this check reads
    found = {
        (f.func.__name__, f.args[0])
        for d in nxt.atoms(Derivative)
        for f in d.expr.atoms(AppliedUndef)
        if len(f.args) == 1 and isinstance(f.args[0], Symbol)
    }
    if len(found) != 1:
        return None
    name, var = found.pop()
    if any(set(d.variables) != {var} or len(d.variables) != 1 for d in nxt.atoms(Derivative)):
        return None
    if [c for c in nxt.atoms(*CALCULUS) if not isinstance(c, Derivative)]:
        return None
    if name not in {s.name for s in prev.free_symbols} or var not in prev.free_symbols:
        return None
    return name, var


def implicit_differentiation(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    pair = differentiation_pair(prev, nxt)
    if pair is None:
        return None
    name, var = pair
    (prev_eq, prev_where), (next_eq, next_where) = equation_of(prev), equation_of(nxt)
    where = prev_where + next_where
    out = cas.run(differentiated, prev_eq, next_eq, name, var, where, ctx=ctx)
    if not out.ok or out.value is None:
        return None
    verdict, witness = out.value
    slope = f"d{name}/d{var.name}"
    if verdict == "follows":
        return Decision.grounded(
            Relation.WIDENS,
            f"differentiating both sides with respect to {var.name} ({name} a function of "
            f"{var.name}): the next line holds with the slope {slope} of every curve of the "
            "previous one; the converse does not follow (differentiating loses the constant)",
        )
    reason = (
        f"at the point ({var.name}, {name}) = ({witness[var.name]}, {witness[name]}) of the "
        f"curve the slope is {slope} = {witness[slope]}, and there the next line's sides are "
        f"{witness['left']} and {witness['right']}"
    )
    return Decision.refuted(reason, witness)


def differentiated(
    prev: Eq, nxt: Eq, name: str, var: Symbol, where: tuple[Basic, ...] = ()
) -> tuple[str, dict[str, str] | None] | None:
    """CAS task: ('follows', None), ('refuted', witness) or None (undecided). ``where``: domain
    conditions written beside the lines; a refuting point must satisfy every one of them."""
    letter = next(s for s in prev.free_symbols if isinstance(s, Symbol) and s.name == name)
    y = Function(name, **({"real": True} if letter.is_real else {}))(var)
    slope_symbol = Symbol(f"d{name}/d{var.name}")
    total = prev.lhs - prev.rhs
    d_total = _read(diff(total.subs(letter, y), var), y, letter, slope_symbol, var)
    written = nxt.doit()
    if not isinstance(written, Eq) or (written.has(*CALCULUS) and _pending(written, y, var)):
        return None
    sides = [_read(side, y, letter, slope_symbol, var) for side in (written.lhs, written.rhs)]
    if d_total is None or None in sides:
        return None
    rest = sides[0] - sides[1]
    try:
        linear = Poly(d_total, slope_symbol)
    except PolynomialError:
        return None
    if linear.degree() != 1:
        return None
    f_y, f_x = linear.all_coeffs()
    slope = -f_x / f_y
    at_slope = cancel(together(rest.subs(slope_symbol, slope)))
    if zero_test(at_slope)[0] == "zero":
        return ("follows", None)
    conditions = [_read(c, y, letter, slope_symbol, var) for c in where]
    if None in conditions:
        return None
    point = _curve_point(total, letter, var, f_y, slope, sides, slope_symbol, conditions)
    return ("refuted", point) if point is not None else None


def _pending(state: Basic, y: Basic, var: Symbol) -> bool:
    """A derivative other than y'(x) left after evaluating: nothing to compare."""
    return any(d != Derivative(y, var) for d in state.atoms(Derivative))


def _read(e: Expr, y: Basic, letter: Symbol, slope: Symbol, var: Symbol) -> Expr | None:
    """``e`` with y'(x) as the unknown ``slope`` and y(x) as the letter y."""
    # The next line's own y(x) was built by the parser with the same name and assumptions.
    mapping: dict[Basic, Basic] = {}
    for d in e.atoms(Derivative):
        if isinstance(d.expr, AppliedUndef) and d.expr.func.__name__ == y.func.__name__:
            mapping[d] = slope
    for f in e.atoms(AppliedUndef):
        if f.func.__name__ == y.func.__name__ and f.args == (var,):
            mapping[f] = letter
    read = e.xreplace(mapping)
    return None if read.has(*CALCULUS) or read.atoms(AppliedUndef) else read


def _curve_point(
    total: Expr,
    letter: Symbol,
    var: Symbol,
    f_y: Expr,
    slope: Expr,
    sides: list[Expr],
    slope_symbol: Symbol,
    conditions: list[Basic],
) -> dict[str, Any] | None:
    """A point (x₀, y₀) of the curve total = 0 with rational coordinates and F_y ≠ 0 where the
    next line, at the curve's slope, is false; its coordinates, slope and the two sides."""
    if not total.is_polynomial(var, letter):
        return None  # a point of a curve through logs or roots could leave their domain
    for fixed, free in ((var, letter), (letter, var)):
        for value in _SAMPLES:
            for root in _rational_roots(total.subs(fixed, value), free):
                at = {fixed: value, free: root}
                if f_y.subs(at) == 0:
                    continue
                p0 = slope.subs(at)
                if not all(c.subs(at).subs(slope_symbol, p0) is true for c in conditions):
                    continue  # outside the domain written beside the lines
                left, right = (s.subs(at).subs(slope_symbol, p0) for s in sides)
                exact = all(v.is_Rational for v in (p0, left, right))
                if not exact or left == right:
                    continue
                return {
                    var.name: str(at[var]),
                    letter.name: str(at[letter]),
                    str(slope_symbol): str(p0),
                    "left": str(left),
                    "right": str(right),
                }
    return None


def _rational_roots(e: Expr, v: Symbol) -> list[Rational]:
    try:
        poly = Poly(e, v)
    except PolynomialError:
        return []
    if poly.is_zero or poly.degree() < 1 or not all(c.is_Rational for c in poly.all_coeffs()):
        return []
    return sorted(r for r in roots(poly, filter="Q") if r.is_Rational)
