"""Limits: direct substitution, factor and cancel, the known limit sin(u)/u, L'Hôpital, and the
leading-power argument at infinity.

>>> x = sp.Symbol("x")
>>> s = sp.Limit((x**2 - 4) / (x - 2), x, 2, "+-")
>>> [m.name for m in limit_moves(s, None)]
['factor-limit']
"""

from __future__ import annotations

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem, bare_tex, math, tex


def _pending(expr: sp.Basic) -> list[sp.Limit]:
    return [e for e in sp.preorder_traversal(expr) if isinstance(e, sp.Limit)]


def _finite(v: sp.Basic) -> bool:
    return not v.has(sp.zoo, sp.nan, sp.oo, -sp.oo)


def _ne(x: sp.Basic, a: sp.Basic) -> str:
    return math(bare_tex(x) + " \\ne " + bare_tex(a))


def _one(lim: sp.Limit) -> Move | None:
    f, x, a, direction = lim.args
    num, den = sp.fraction(sp.together(f))
    if a.is_finite:
        direct = f.subs(x, a)
        if _finite(direct) and _finite(den.subs(x, a)) and den.subs(x, a) != 0:
            return Move(
                "substitute",
                f"substitute {math(bare_tex(x) + ' = ' + bare_tex(a))}",
                "the function is continuous there",
                "rewrite",
                sp.simplify(direct),
            )
    top, bottom = sp.fraction(f)  # as written: a factored quotient keeps its common factor
    polynomial = top.is_polynomial(x) and bottom.is_polynomial(x)
    common = sp.gcd(top, bottom) if polynomial else sp.S.One
    if a.is_finite and common.has(x) and isinstance(top, sp.Mul):
        return Move(
            "cancel-limit",
            f"cancel the common factor {tex(common)}",
            f"inside the limit {_ne(x, a)}, so the factor is non-zero",
            "rewrite",
            sp.Limit(sp.cancel(f), x, a, direction),
        )
    standard = _standard_e_limit(f, x, a)
    if standard is not None:
        return standard
    infinite = _infinite_over_infinite(num, den, x, a)
    if infinite is not None:
        return infinite
    rational = f.is_rational_function(x)
    negative = any(p.exp.is_negative for p in f.atoms(sp.Pow) if p.base == x)
    if a in (sp.oo, -sp.oo) and rational and negative:
        return Move(
            "evaluate-limit",
            "let the negative powers of $x$ tend to $0$",
            "$\\frac{c}{x^m} \\to 0$ as $x \\to \\infty$",
            "rewrite",
            sp.limit(f, x, a),
        )
    if f == sp.sin(x) / x and a == 0:
        return Move(
            "known-limit",
            "use the known limit",
            "$\\lim_{u \\to 0} \\frac{\\sin u}{u} = 1$",
            "rewrite",
            sp.S.One,
        )
    zero_zero = a.is_finite and num.subs(x, a) == 0 and den.subs(x, a) == 0
    if zero_zero and num.is_polynomial(x) and den.is_polynomial(x):
        fn, fd = sp.factor(num), sp.factor(den)
        factored = sp.Mul(fn, sp.Pow(fd, -1, evaluate=False), evaluate=False)
        if sp.srepr(factored) != sp.srepr(f):
            return Move(
                "factor-limit",
                "factor the numerator and the denominator",
                "factorisation inside the limit",
                "rewrite",
                sp.Limit(factored, x, a, direction),
            )
    if zero_zero:
        new = sp.Limit(
            sp.Mul(sp.diff(num, x), sp.Pow(sp.diff(den, x), -1, evaluate=False), evaluate=False),
            x,
            a,
            direction,
        )
        return Move(
            "lhopital",
            "apply L'Hôpital's rule",
            "0/0 form: differentiate the numerator and the denominator",
            "rewrite",
            new,
        )
    if a in (sp.oo, -sp.oo) and num.is_polynomial(x) and den.is_polynomial(x):
        return _leading_power(f, num, den, x, a, direction)
    value = sp.limit(f, x, a, str(direction))
    if _finite(value) or value in (sp.oo, -sp.oo):
        return Move(
            "evaluate-limit",
            "evaluate the limit",
            "SymPy's limit algorithm (Gruntz)",
            "rewrite",
            value,
        )
    return None


def _infinite_over_infinite(num, den, x, a) -> Move | None:
    """L'Hôpital for ∞/∞ (as x → ±∞): both parts grow without bound."""
    if a not in (sp.oo, -sp.oo) or not (num.has(x) and den.has(x)):
        return None
    if num.is_polynomial(x) and den.is_polynomial(x):
        return None  # a rational function: divide by the leading power instead
    try:
        big = [sp.limit(abs(part), x, a) for part in (num, den)]
    except (NotImplementedError, ValueError, TypeError):
        return None
    if big != [sp.oo, sp.oo]:
        return None
    new = sp.Limit(
        sp.Mul(sp.diff(num, x), sp.Pow(sp.diff(den, x), -1, evaluate=False), evaluate=False), x, a
    )
    why = "$\\frac{\\infty}{\\infty}$ form: differentiate the numerator and the denominator"
    return Move("lhopital", "apply L'Hôpital's rule", why, "rewrite", new)


def _standard_e_limit(f, x, a) -> Move | None:
    """``(1 + c/x)^x → e^c``: the standard limit, named."""
    if a != sp.oo or not isinstance(f, sp.Pow) or f.exp != x:
        return None
    c = sp.simplify((f.base - 1) * x)
    if c.has(x) or c == 0:
        return None
    why = math("\\lim_{x \\to \\infty} \\left(1 + \\frac{c}{x}\\right)^x = e^c")
    why += f" with {math('c = ' + bare_tex(c))}"
    return Move("known-limit", "use the standard limit", why, "rewrite", sp.exp(c))


def _leading_power(f, num, den, x, a, direction) -> Move | None:
    k = sp.degree(den, x)
    if k < 1:
        return None
    top = sp.expand(num / x**k)
    bottom = sp.expand(den / x**k)
    new = sp.Limit(sp.Mul(top, sp.Pow(bottom, -1, evaluate=False), evaluate=False), x, a, direction)
    if sp.srepr(new.args[0]) == sp.srepr(f):
        return None
    return Move(
        "divide-power",
        f"divide numerator and denominator by {tex(x**k)}",
        "the highest power of the denominator",
        "rewrite",
        new,
    )


def limit_moves(state: sp.Basic, p: Problem | None) -> list[Move]:
    pending = _pending(state)
    if not pending:
        return []
    move = _one(pending[0])
    if move is None:
        return []
    return [
        Move(
            move.name,
            move.operation,
            move.justification,
            move.change_type,
            state.xreplace({pending[0]: move.state}),
        )
    ]


def has_pending_limit(state: sp.Basic) -> bool:
    return bool(_pending(state))
