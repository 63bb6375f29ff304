"""Differentiation rule by rule: each move applies one named rule to every place it fits.

The state keeps unevaluated ``Derivative`` objects for what is still to be differentiated, so the
reader sees, for example, the product rule written out before the factors are differentiated.

>>> x = sp.Symbol("x")
>>> s = sp.Derivative(x**2 * sp.sin(x), x)
>>> [m.name for m in derivative_moves(s, None)]
['product']
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem

# Derivatives of the elementary functions at their argument u (the chain rule multiplies by u').
_BASIC: dict[type, Callable[[sp.Basic], sp.Basic]] = {
    sp.sin: sp.cos,
    sp.cos: lambda u: -sp.sin(u),
    sp.tan: lambda u: 1 / sp.cos(u) ** 2,
    sp.exp: sp.exp,
    sp.log: lambda u: 1 / u,
    sp.asin: lambda u: 1 / sp.sqrt(1 - u**2),
    sp.acos: lambda u: -1 / sp.sqrt(1 - u**2),
    sp.atan: lambda u: 1 / (1 + u**2),
}

_RULES = {
    "constant": ("apply the constant rule", "the derivative of a constant is 0"),
    "identity": ("differentiate $x$", "$\\frac{d}{dx} x = 1$"),
    "sum": ("apply the sum rule", "$(f + g)' = f' + g'$"),
    "constant-multiple": ("take the constant factor out", "$(c f)' = c f'$"),
    "power": ("apply the power rule", "$\\frac{d}{dx} x^n = n x^{n-1}$"),
    "product": ("apply the product rule", "$(f g)' = f' g + f g'$"),
    "quotient": ("apply the quotient rule", "$(f/g)' = (f' g - f g') / g^2$"),
    "elementary": ("differentiate the elementary function", "standard derivatives"),
    "exponential": ("differentiate the exponential", "$\\frac{d}{dx} a^x = a^x \\ln a$"),
    "chain": ("apply the chain rule", "$(f(u))' = f'(u) u'$"),
    "tan-quotient": ("write $\\tan$ as $\\frac{\\sin}{\\cos}$", "the quotient identity"),
    "exp-form": ("write the power as an exponential", "$u^v = e^{v \\ln u}$ for $u > 0$"),
}


def _rule(d: sp.Derivative) -> tuple[str, sp.Basic] | None:
    """The one rule that applies to the derivative ``d`` at its top, and its result."""
    f, x = d.expr, d.variables[0]
    if not f.has(x):
        return "constant", sp.S.Zero
    if f == x:
        return "identity", sp.S.One
    if isinstance(f, sp.Add):
        return "sum", sp.Add(*[sp.Derivative(t, x) for t in f.args])
    if isinstance(f, sp.Mul):
        return _mul_rule(f, x)
    if isinstance(f, sp.Pow):
        return _pow_rule(f, x)
    if isinstance(f, sp.tan):
        # tan as sin/cos, then the quotient rule: the derivative is shown, not recalled.
        with sp.evaluate(False):
            quotient = sp.Mul(sp.sin(f.args[0]), sp.Pow(sp.cos(f.args[0]), -1))
        return "tan-quotient", sp.Derivative(quotient, x)
    if type(f) in _BASIC and len(f.args) == 1:
        u = f.args[0]
        outer = _BASIC[type(f)](u)
        if u == x:
            return "elementary", outer
        return "chain", outer * sp.Derivative(u, x)
    return None


def _mul_rule(f: sp.Mul, x: sp.Symbol) -> tuple[str, sp.Basic]:
    const, rest = f.as_independent(x, as_Add=False)
    if const != 1:
        return "constant-multiple", const * sp.Derivative(rest, x)
    num, den = sp.fraction(f)
    if den.has(x) and num.has(x) and den != 1:
        top = sp.Derivative(num, x) * den - num * sp.Derivative(den, x)
        return "quotient", top / sp.Pow(den, 2)
    first, *others = f.args
    second = sp.Mul(*others)
    return "product", sp.Derivative(first, x) * second + first * sp.Derivative(second, x)


def _pow_rule(f: sp.Pow, x: sp.Symbol) -> tuple[str, sp.Basic] | None:
    base, expo = f.base, f.exp
    if not expo.has(x):
        if base == x:
            return "power", expo * x ** (expo - 1)
        return "chain", expo * base ** (expo - 1) * sp.Derivative(base, x)
    if not base.has(x):
        outer = f * sp.log(base)
        if expo == x:
            return "exponential", outer
        return "chain", outer * sp.Derivative(expo, x)
    # x^x: base and exponent both vary; write it as e^{v ln u} (logarithmic differentiation)
    with sp.evaluate(False):
        rewritten = sp.exp(sp.Mul(expo, sp.log(base)))
    return "exp-form", sp.Derivative(rewritten, x)


def _pending(expr: sp.Basic) -> list[sp.Derivative]:
    return [d for d in sp.preorder_traversal(expr) if isinstance(d, sp.Derivative)]


def derivative_moves(state: sp.Basic, p: Problem | None) -> list[Move]:
    """Apply the rule of the outermost pending derivative wherever that same rule applies."""
    pending = _pending(state)
    if not pending:
        return []
    outer = [d for d in pending if not any(o != d and o.has(d) for o in pending)]
    first = _rule(outer[0])
    if first is None:
        return []
    name = first[0]
    replacements = {}
    for d in outer:
        found = _rule(d)
        if found is not None and found[0] == name:
            replacements[d] = found[1]
    operation, why = _RULES[name]
    new = state.xreplace(replacements)
    return [Move(name, operation, why, "rewrite", new)]


def has_pending_derivative(state: sp.Basic) -> bool:
    return bool(_pending(state))
