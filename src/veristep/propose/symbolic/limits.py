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
    standard = _standard_e_limit(f, x, a) or _conjugate(f, x, a, direction)
    if standard is not None:
        return standard
    over_x = _divide_root_by_x(f, num, den, x, a, direction)
    if over_x is not None:
        return over_x
    rational = f.is_rational_function(x) or _settles_at_infinity(f, x, a)
    negative = any(p.exp.is_negative for p in f.atoms(sp.Pow) if p.base == x)
    if a in (sp.oo, -sp.oo) and rational and negative:
        return Move(
            "evaluate-limit",
            "let the negative powers of $x$ tend to $0$",
            "$\\frac{c}{x^m} \\to 0$ as $x \\to \\infty$",
            "rewrite",
            sp.limit(f, x, a),
        )
    infinite = _infinite_over_infinite(num, den, x, a)
    if infinite is not None:
        return infinite
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
    """``(1 + c/x)^{kx} → e^{ck}``: first written as ``((1 + c/x)^{x/c})^{ck}``, the inner power
    the standard limit ``(1 + 1/u)^u → e`` with ``u = x/c``."""
    if a != sp.oo or not isinstance(f, sp.Pow):
        return None
    k = sp.simplify(f.exp / x)
    c = sp.simplify((f.base - 1) * x)
    if k.has(x) or k == 0 or c.has(x) or c == 0:
        return None
    why = math("\\lim_{u \\to \\infty} \\left(1 + \\frac{1}{u}\\right)^u = e")
    why += f" with {math('u = ' + bare_tex(x / c))}"
    inner = f"\\left({bare_tex(f.base)}\\right)"
    lim = f"\\lim_{{{bare_tex(x)} \\to \\infty}} "
    shown = f"{lim}\\left({inner}^{{{bare_tex(x / c)}}}\\right)^{{{bare_tex(c * k)}}}"
    op = "write the power so that its exponent is " + math(bare_tex(x / c))
    before = ((op, math("(b^m)^n = b^{mn}"), shown),)
    return Move("known-limit", "use the standard limit", why, "rewrite", sp.exp(c * k),
                before=before)  # fmt: skip


def _root_minus(f: sp.Basic, x: sp.Symbol) -> tuple[sp.Basic, sp.Basic, int] | None:
    """``sqrt(P) - Q`` (sign 1) or ``Q - sqrt(P)`` (sign -1) with P and Q polynomials in x."""
    terms = sp.Add.make_args(f)
    if len(terms) != 2:
        return None
    for root, other in (terms, terms[::-1]):
        sign = -1 if root.could_extract_minus_sign() else 1
        r = -root if sign < 0 else root
        if isinstance(r, sp.Pow) and r.exp == sp.S.Half and r.base.is_polynomial(x):
            q = -other * sign
            if q.is_polynomial(x) and q.has(x):
                return r.base, q, sign
    return None


def _conjugate(f, x, a, direction) -> Move | None:
    """``sqrt(P) - Q`` as x → ∞ (∞ − ∞): multiply top and bottom by the conjugate
    ``sqrt(P) + Q``; the difference of squares leaves ``P - Q^2`` on top."""
    found = _root_minus(f, x) if a in (sp.oo, -sp.oo) else None
    if found is None:
        return None
    body, q, sign = found
    root = sp.sqrt(body)
    conj = root + q
    # Written root first, as in the task: sqrt(P) - Q and its conjugate sqrt(P) + Q.
    rt, qt = f"\\sqrt{{{bare_tex(body)}}}", bare_tex(q)
    shown = (f"\\frac{{\\left({rt} - {qt}\\right) \\left({rt} + {qt}\\right)}}"
             f"{{{rt} + {qt}}}")  # fmt: skip
    if sign < 0:
        shown = "-" + shown
    top = sp.expand(sign * (body - q**2))
    new = sp.Limit(sp.Mul(top, sp.Pow(conj, -1, evaluate=False), evaluate=False), x, a, direction)
    lim = f"\\lim_{{{bare_tex(x)} \\to {bare_tex(a)}}} "
    before = ((f"multiply the top and the bottom by the conjugate {math(rt + ' + ' + qt)}",
               "the value is unchanged: the factor is " + math("\\frac{u}{u} = 1"),
               lim + shown),)  # fmt: skip
    return Move("conjugate", "multiply out the difference of two squares on top",
                math("(a - b)(a + b) = a^2 - b^2"), "rewrite", new, before=before)  # fmt: skip


def _divide_root_by_x(f, num, den, x, a, direction) -> Move | None:
    """``c(x) / (sqrt(P) + Q)`` as x → ∞ with P of degree 2 and Q, c linear: divide top and
    bottom by x, taking x into the root as x² (x > 0 near ∞)."""
    if a != sp.oo or not num.is_polynomial(x) or sp.degree(num, x) != 1:
        return None
    parts = sp.Add.make_args(den)
    roots = [t for t in parts if isinstance(t, sp.Pow) and t.exp == sp.S.Half]
    if len(roots) != 1 or sp.degree(roots[0].base, x) != 2:
        return None
    rest = sp.Add(*[t for t in parts if t is not roots[0]])
    if not rest.is_polynomial(x) or sp.degree(rest, x) > 1:
        return None
    inside = sp.expand(roots[0].base / x**2)
    bottom = sp.Add(sp.sqrt(inside), sp.expand(rest / x), evaluate=False)
    top = sp.expand(num / x)
    over = sp.Pow(bottom, -1, evaluate=False)
    new = sp.Limit(over if top == 1 else sp.Mul(top, over, evaluate=False), x, a, direction)
    why = "for " + math("x > 0") + ", " + math("\\frac{\\sqrt{P}}{x} = \\sqrt{\\frac{P}{x^2}}")
    return Move("divide-power", f"divide numerator and denominator by {tex(x)}", why, "rewrite",
                new)  # fmt: skip


def _settles_at_infinity(f: sp.Basic, x: sp.Symbol, a: sp.Basic) -> bool:
    """Whether f, written in u = 1/x, is continuous at u = 0 (every power of x in it negative),
    so its limit is its value with each negative power set to 0."""
    if a != sp.oo or any(p.exp.is_positive for p in f.atoms(sp.Pow) if p.base == x):
        return False
    u = sp.Dummy("u", positive=True)
    value = f.subs(x, 1 / u).subs(u, 0)
    return _finite(value) and value.is_real is True


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
    # Lines written before the move show the limit alone: kept only when it is the whole state.
    before = move.before if state == pending[0] else ()
    return [
        Move(
            move.name,
            move.operation,
            move.justification,
            move.change_type,
            state.xreplace({pending[0]: move.state}),
            before=before,
        )
    ]


def has_pending_limit(state: sp.Basic) -> bool:
    return bool(_pending(state))
