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

from veristep.propose.symbolic.moves import Move, Problem, apply_first_rule, bare_tex, math, tex


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
    moves = apply_first_rule(state, _indefinite(state), _one_indefinite)
    return [_with_constant(m, p) for m in moves]


def has_pending_integral(state: sp.Basic) -> bool:
    return bool(_definite(state) or _indefinite(state))


def _indefinite(expr: sp.Basic) -> list[sp.Integral]:
    return [
        i
        for i in sp.preorder_traversal(expr)
        if isinstance(i, sp.Integral) and len(i.limits) == 1 and len(i.limits[0]) == 1
    ]


def _one_indefinite(i: sp.Integral) -> Move | None:
    """Linearity, then parts or substitution as SymPy's integrator would choose, else the
    antiderivative of a standard integral."""
    f, (x,) = i.function, i.limits[0]
    if isinstance(f, sp.Add):
        new = sp.Add(*[sp.Integral(t, x) for t in f.args])
        return Move("integral-sum", "split the integral of the sum", "linearity of the integral",
                    "rewrite", new)  # fmt: skip
    const, rest = f.as_independent(x, as_Add=False)
    if const != 1 and rest != 1:
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
        u = substitution.u_func
        du = math("du = " + bare_tex(sp.diff(u, x)) + " dx")
        why = f"substitute {math('u = ' + bare_tex(u))}, {du}"
        return Move("substitution", f"integrate by the substitution {math('u = ' + bare_tex(u))}",
                    why, "rewrite", F)  # fmt: skip
    formula = math("\\int " + bare_tex(f) + " \\, d" + bare_tex(x) + " = " + bare_tex(F))
    why = f"a standard integral: {formula}"
    return Move("antiderivative", "integrate term by term", why, "rewrite", F)


def _liate(f: sp.Basic, x: sp.Symbol) -> tuple[sp.Basic, sp.Basic] | None:
    """Integration by parts for a power of x times ln, exp, sin or cos: u by the LIATE order."""
    if not isinstance(f, sp.Mul):
        return None
    factors = sp.Mul.make_args(f)
    logs = [g for g in factors if isinstance(g, sp.log) and g.args[0] == x]
    powers = [g for g in factors if g == x or (isinstance(g, sp.Pow) and g.base == x
                                               and g.exp.is_Integer and g.exp > 0)]  # fmt: skip
    others = [g for g in factors if isinstance(g, sp.exp | sp.sin | sp.cos)
              and sp.degree(g.args[0], x) == 1]  # fmt: skip
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
    return Move(move.name, op, move.justification, move.change_type, move.state + c)


def _constant_symbol(p: Problem | None) -> sp.Symbol:
    if p is not None and p.target is not None:
        for s in p.target.free_symbols:
            if isinstance(s, sp.Symbol) and s.name == "C":
                return s
    return sp.Symbol("C", real=True)
