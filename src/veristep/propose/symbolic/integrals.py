"""Definite integrals from SymPy's own integration steps, then the evaluation at the bounds.

Linearity first (split sums, take constants out), then integration by parts when SymPy's
``integral_steps`` chooses it, otherwise the antiderivative of one piece, evaluated as F(b) − F(a).

>>> x = sp.Symbol("x")
>>> s = sp.Integral(3 * x**2 + 2 * x, (x, 0, 1))
>>> [m.name for m in integral_moves(s, None)]
['integral-sum']
"""

from __future__ import annotations

import sympy as sp

from veristep.propose.symbolic import goals
from veristep.propose.symbolic.moves import Move, Problem, apply_first_rule, bare_tex, math, tex
from veristep.propose.symbolic.printer import to_latex


def _definite(expr: sp.Basic) -> list[sp.Integral]:
    return [
        i
        for i in sp.preorder_traversal(expr)
        if isinstance(i, sp.Integral) and len(i.limits) == 1 and len(i.limits[0]) == 3
    ]


def _bounds(F: sp.Basic, x: sp.Symbol, a: sp.Basic, b: sp.Basic) -> sp.Basic:
    """F(b) - F(a), simplified: the value of the integral."""
    return sp.simplify(F.subs(x, b) - F.subs(x, a))


def _bounds_shown(F: sp.Basic, x: sp.Symbol, a: sp.Basic, b: sp.Basic) -> sp.Basic:
    """F(b) - F(a) written out, the arithmetic left for the next line."""
    with sp.evaluate(False):
        return sp.Add(F.xreplace({x: b}), sp.Mul(-1, F.xreplace({x: a})))


def _one(i: sp.Integral) -> Move | None:
    f, (x, a, b) = i.function, i.limits[0]
    if isinstance(f, sp.Add):
        new = sp.Add(*[sp.Integral(t, (x, a, b)) for t in f.args])
        return Move(
            "integral-sum",
            "split the integral of the sum",
            "linearity of the integral",
            "rewrite",
            new,
        )
    const, rest = f.as_independent(x, as_Add=False)
    if const != 1 and rest != 1:
        return Move(
            "integral-constant",
            f"take the constant {tex(const)} out of the integral",
            "linearity of the integral",
            "rewrite",
            const * sp.Integral(rest, (x, a, b)),
        )
    from sympy.integrals.manualintegrate import PartsRule, integral_steps  # costly: only when used

    rule = integral_steps(f, x)
    if isinstance(rule, PartsRule):
        u, dv = rule.u, rule.dv
        v = sp.integrate(dv, x)
        boundary, rest = _bounds(u * v, x, a, b), sp.Integral(v * sp.diff(u, x), (x, a, b))
        with sp.evaluate(False):
            new = sp.Add(boundary, sp.Mul(-1, rest))
        parts = math("\\int u\\,dv = [uv] - \\int v\\,du")
        why = f"{parts} with {math('u = ' + bare_tex(u))}, {math('dv = ' + bare_tex(dv) + ' dx')}"
        return Move("parts", "integrate by parts", why, "rewrite", new)
    F = rule.eval() if not rule.contains_dont_know() else sp.integrate(f, x)
    if F.has(sp.Integral):
        return None
    bounds = math(f"F({bare_tex(b)}) - F({bare_tex(a)})")
    why = f"an antiderivative of {tex(f)} is {math('F = ' + bare_tex(F))}; {bounds}"
    return Move(
        "antiderivative",
        "evaluate the antiderivative at the bounds",
        why,
        "rewrite",
        _bounds_shown(F, x, a, b),
    )


def integral_moves(state: sp.Basic, p: Problem | None) -> list[Move]:
    """Apply the rule of the first pending integral wherever that same rule applies."""
    if _definite(state):
        return apply_first_rule(state, _definite(state), _one)
    pending = _indefinite(state)
    if pending == [state]:
        # The whole state is the integral: its move keeps the lines written before it (the
        # integrand with the inner derivative beside it), which show the whole state.
        one = _one_indefinite(state, p)
        moves = [one] if one is not None else []
    else:
        moves = apply_first_rule(state, pending, lambda i: _one_indefinite(i, p))
    return [_with_constant(m, p) for m in moves]


def has_pending_integral(state: sp.Basic) -> bool:
    return bool(_definite(state) or _indefinite(state))


def _indefinite(expr: sp.Basic) -> list[sp.Integral]:
    return [
        i
        for i in sp.preorder_traversal(expr)
        if isinstance(i, sp.Integral) and len(i.limits) == 1 and len(i.limits[0]) == 1
    ]


def _one_indefinite(i: sp.Integral, p: Problem | None = None) -> Move | None:
    """Linearity, then parts or substitution as SymPy's integrator would choose, else the
    antiderivative of a standard integral."""
    f, (x,) = i.function, i.limits[0]
    if isinstance(f, sp.Add):
        new = sp.Add(*[sp.Integral(t, x) for t in f.args])
        return Move("integral-sum", "split the integral of the sum", "linearity of the integral",
                    "rewrite", new)  # fmt: skip
    const, rest = f.as_independent(x, as_Add=False)
    if const != 1 and rest != 1 and not _derivative_inside(f, x):
        op = f"take the constant {tex(const)} out of the integral"
        return Move("integral-constant", op, "linearity of the integral", "rewrite",
                    const * sp.Integral(rest, x))  # fmt: skip
    from sympy.integrals.manualintegrate import PartsRule, integral_steps

    rule = integral_steps(f, x)
    chosen = _liate(f, x) or ((rule.u, rule.dv) if isinstance(rule, PartsRule) else None)
    if chosen is not None:
        u, dv = chosen
        v = sp.integrate(dv, x)
        rest = sp.Integral(sp.expand(v * sp.diff(u, x)), x)
        with sp.evaluate(False):
            new = sp.Add(u * v, sp.Mul(-1, rest))
        parts = math("\\int u\\,dv = uv - \\int v\\,du")
        why = f"{parts} with {math('u = ' + bare_tex(u))}, {math('dv = ' + bare_tex(dv) + ' dx')}"
        return Move("parts", "integrate by parts", why, "rewrite", new)
    F = rule.eval() if not rule.contains_dont_know() else sp.integrate(f, x)
    if F.has(sp.Integral):
        return None
    if f == 1 / x:
        F = sp.log(sp.Abs(x))
    substitution = _substitution_rule(rule)
    if substitution is not None:
        u, const, inner = _chosen_substitution(f, x, substitution, p)
        if inner is not None:
            F = sp.expand(const * sp.integrate(inner, _U)).subs(_U, u)
        du = math("du = " + bare_tex(sp.diff(u, x)) + " dx")
        why = f"substitute {math('u = ' + bare_tex(u))}, {du}"
        before = _inner_derivative_line(f, x, u, const, inner)
        return Move("substitution", f"integrate by the substitution {math('u = ' + bare_tex(u))}",
                    why, "rewrite", F, before=before)  # fmt: skip
    formula = math("\\int " + bare_tex(f) + " \\, d" + bare_tex(x) + " = " + bare_tex(F))
    why = f"a standard integral: {formula}"
    return Move("antiderivative", "integrate term by term", why, "rewrite", F)


_U = sp.Dummy("u")


def _chosen_substitution(
    f: sp.Basic, x: sp.Symbol, rule: object, p: Problem | None
) -> tuple[sp.Basic, sp.Basic, sp.Basic | None]:
    """(u, k, h) with f = k·h(u)·u': the substitution whose antiderivative is written as the
    target writes it (∫ sin x cos x dx is sin²x/2 with u = sin x, −cos²x/2 with u = cos x), else
    the integrator's own choice; h is None when the integrand does not split that way."""
    from sympy.integrals.manualintegrate import find_substitutions

    # A constant h (∫ 1 du) would hide the whole integrand in u: not a line anyone writes.
    found = [(u, k, h) for u, k, h in find_substitutions(f, x, _U) if h.has(_U)]
    # The plainest integral in u first: (ln x)^2 / x is u^2 with u = ln x, not with u = 1/x.
    found.sort(key=lambda c: (sp.count_ops(c[2]), sp.count_ops(c[0])))
    wanted = _target_antiderivative(p)
    if wanted is not None:
        for u, k, h in found:
            if goals.identical(sp.expand(k * sp.integrate(h, _U)).subs(_U, u), wanted):
                return u, k, h
    for u, k, h in found:
        if u == rule.u_func:
            return u, k, h
    return rule.u_func, sp.S.One, None


def _derivative_inside(f: sp.Basic, x: sp.Symbol) -> bool:
    """The integrand is exactly h(u)·u' for an inner function u (2x (x^2 + 1)^3, with its
    constant part of u' = 2x): the substitution applies as it stands, the constant stays."""
    from sympy.integrals.manualintegrate import find_substitutions

    return any(k == 1 and h.has(_U) for _, k, h in find_substitutions(f, x, _U))


def _target_antiderivative(p: Problem | None) -> sp.Basic | None:
    """The target without its constant of integration (``F + C`` gives F)."""
    if p is None or not isinstance(p.target, sp.Expr):
        return None
    c = [s for s in p.target.free_symbols if s.name == "C"]
    return p.target.subs(c[0], 0) if len(c) == 1 else None


def _inner_derivative_line(
    f: sp.Basic, x: sp.Symbol, u: sp.Basic, const: sp.Basic, inner: sp.Basic | None
) -> tuple[tuple[str, str, str], ...]:
    """The line a teacher writes before substituting: the integrand as h(u)·u', the derivative
    of the inner function standing beside it (and the constant that makes it appear outside)."""
    if inner is None or not const.is_number:
        return ()
    derivative = sp.Derivative(u, x)
    shown = to_latex(sp.Integral(sp.Mul(inner.subs(_U, u), derivative), x))
    line = {1: shown, -1: f"-{shown}"}.get(const, f"{to_latex(const)} {shown}")
    operation = f"write the integrand with the derivative of {tex(u)} beside it"
    why = math(f"{to_latex(derivative)} = {bare_tex(sp.diff(u, x))}")
    if const != 1:
        why += f", so {tex(const)} in front balances the factor {tex(1 / const)} inside"
    return ((operation, why, line),)


def _liate(f: sp.Basic, x: sp.Symbol) -> tuple[sp.Basic, sp.Basic] | None:
    """Integration by parts for a power of x times ln, exp, sin or cos: u by the LIATE order."""
    if not isinstance(f, sp.Mul):
        return None
    factors = sp.Mul.make_args(f)
    logs = [g for g in factors if isinstance(g, sp.log) and g.args[0] == x]
    powers = [g for g in factors if g == x or (isinstance(g, sp.Pow) and g.base == x
                                               and g.exp.is_Integer and g.exp > 0)]  # fmt: skip
    # e^{sin x} is no LIATE factor (and its argument has no degree): only a linear argument.
    others = [g for g in factors if isinstance(g, sp.exp | sp.sin | sp.cos)
              and g.args[0].is_polynomial(x) and sp.degree(g.args[0], x) == 1]  # fmt: skip
    if logs and powers and len(factors) == 2:
        return logs[0], powers[0]
    if powers and others and len(factors) == 2:
        return powers[0], others[0]
    return None


def _substitution_rule(rule: object, depth: int = 0) -> object | None:
    """The substitution SymPy's integrator used (possibly under a constant factor), or None."""
    from sympy.integrals.manualintegrate import URule

    if isinstance(rule, URule):
        return rule
    if depth > 6:
        return None
    children = [getattr(rule, "substep", None), *(getattr(rule, "substeps", None) or [])]
    children += getattr(rule, "alternatives", None) or []  # ∫ sin x cos x: u = cos x or sin x
    for child in children:
        found = _substitution_rule(child, depth + 1) if child is not None else None
        if found is not None:
            return found
    return None


def _with_constant(move: Move, p: Problem | None) -> Move:
    """The last integral done: the constant of integration joins the answer."""
    if _indefinite(move.state) or move.name in ("integral-sum", "integral-constant", "parts"):
        return move
    c = _constant_symbol(p)
    op = move.operation + ", and add the constant of integration"
    return Move(move.name, op, move.justification, move.change_type, move.state + c,
                before=move.before)  # fmt: skip


def _constant_symbol(p: Problem | None) -> sp.Symbol:
    if p is not None and p.target is not None:
        for s in p.target.free_symbols:
            if isinstance(s, sp.Symbol) and s.name == "C":
                return s
    return sp.Symbol("C", real=True)
