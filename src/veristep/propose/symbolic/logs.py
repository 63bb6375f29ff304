"""Logarithm laws on expressions, one law per move (product, quotient, power).

>>> x, y = sp.symbols("x y", positive=True)
>>> [m.operation for m in log_law_moves(sp.log(x**2 * y**3), None)]
['use $\\\\ln(ab) = \\\\ln a + \\\\ln b$']
"""

from __future__ import annotations

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem
from veristep.propose.symbolic.printer import to_latex


def log_law_moves(state: sp.Basic, p: Problem | None) -> list[Move]:
    if not isinstance(state, sp.Expr) or not state.has(sp.log):
        return []
    moves = [_product(state), _power(state), _quotient(state), _integer_power(state)]
    return [m for m in moves if m is not None]


def _logs(e: sp.Basic) -> list[sp.log]:
    return [a for a in sp.preorder_traversal(e) if isinstance(a, sp.log)]


def _product(e: sp.Basic) -> Move | None:
    for lg in _logs(e):
        arg = lg.args[0]
        if isinstance(arg, sp.Mul) and len(arg.args) >= 2:
            new = e.xreplace({lg: sp.Add(*[sp.log(f) for f in arg.args])})
            why = "the product law (for positive factors)"
            return Move("log-product", "use $\\ln(ab) = \\ln a + \\ln b$", why, "rewrite", new)
    return None


def _power(e: sp.Basic) -> Move | None:
    for lg in _logs(e):
        arg = lg.args[0]
        if isinstance(arg, sp.Pow) and arg.exp.is_number:
            new = e.xreplace({lg: arg.exp * sp.log(arg.base)})
            why = "the power law (for a positive base)"
            return Move("log-power", "use $\\ln a^k = k \\ln a$", why, "rewrite", new)
    return None


def _quotient(e: sp.Basic) -> Move | None:
    if not isinstance(e, sp.Add):
        return None
    pos = [t for t in e.args if isinstance(t, sp.log)]
    neg = [t for t in e.args if isinstance(-t, sp.log)]
    if not pos or not neg:
        return None
    a, b = pos[0].args[0], (-neg[0]).args[0]
    rest = e - pos[0] - neg[0]
    with sp.evaluate(False):
        quotient = sp.log(sp.Mul(a, sp.Pow(b, -1)))
        shown = sp.Add(quotient, rest) if rest != 0 else quotient
    new = rest + sp.log(a / b)
    before = ()
    if to_latex(shown) != to_latex(new):
        before = (
            ("use $\\ln a - \\ln b = \\ln \\frac{a}{b}$", "the quotient law", to_latex(shown)),
        )
        return Move("log-quotient", "simplify the fraction", "arithmetic", "rewrite", new,
                    before=before)  # fmt: skip
    why = "the quotient law"
    return Move("log-quotient", "use $\\ln a - \\ln b = \\ln \\frac{a}{b}$", why, "rewrite", new)


def _integer_power(e: sp.Basic) -> Move | None:
    for lg in _logs(e):
        n = lg.args[0]
        if not (n.is_Integer and n > 3):
            continue
        for b in range(2, int(sp.sqrt(n)) + 1):
            k = sp.log(n, b)
            if k.is_Integer:
                shown = f"\\ln {b}^{{{k}}}"
                line = to_latex(e).replace(to_latex(lg), shown)
                new = e.xreplace({lg: k * sp.log(b)})
                before = ((f"write ${n}$ as ${b}^{{{k}}}$", "arithmetic", line),)
                why = "the power law"
                return Move("log-power", "use $\\ln a^k = k \\ln a$", why, "rewrite", new,
                            before=before)  # fmt: skip
    return None
