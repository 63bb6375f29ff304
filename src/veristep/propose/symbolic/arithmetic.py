"""Closed arithmetic as a teacher writes it: one operation per line, innermost first.

A start without letters (``\\frac12 + \\frac13``, ``\\log_3 81``, ``\\sqrt{50}``) is read
unevaluated, so the planner sees what was written rather than SymPy's value of it. Each move here
does one thing a reader can check by hand: bring fractions over their least common denominator,
add the numerators, cancel a common factor, write 81 as 3^4 before ``\\log_3 3^4 = 4``, take the
largest square factor out of a root, or compute one operation whose operands are plain numbers.

>>> import sympy as sp
>>> with sp.evaluate(False):
...     state = sp.Add(sp.Pow(2, -1), sp.Pow(3, -1))
>>> [m.operation for m in closed_moves(state)]
['write the fractions over the common denominator $6$']
"""

from __future__ import annotations

from collections.abc import Callable
from math import gcd, lcm

import sympy as sp

from veristep.propose.symbolic.moves import Move, bare_tex, math, tex
from veristep.propose.symbolic.printer import decimal_text, to_latex

# A rule looks at one node and returns (name, operation, justification, replacement) or None.
Rule = Callable[[sp.Basic], tuple[str, str, str, sp.Basic] | None]

_MAX_INT = 10**12  # past this a "plain number" is not something a reader computes by hand


def is_closed_arithmetic(expr: sp.Basic) -> bool:
    """An expression without letters and without calculus left to do."""
    return (
        isinstance(expr, sp.Expr)
        and not expr.free_symbols
        and not expr.has(sp.Derivative, sp.Integral, sp.Limit, sp.Sum, sp.Product)
    )


def closed_moves(state: sp.Basic, *, decimals: bool = False) -> list[Move]:
    """The next line of a closed computation, or [] when no teaching rule applies.

    ``decimals``: the computation was written in decimals, so an operation on terminating
    decimals is done as decimal arithmetic and every line prints its decimals as decimals.
    """
    if not isinstance(state, sp.Expr):
        return []
    found = _first(state, (_decimal_compute,) if decimals else ())
    if found is None:
        return []
    node, (name, operation, why, new) = found
    with sp.evaluate(False):
        replaced = _tidy(state.xreplace({node: new}))
    if sp.srepr(replaced) == sp.srepr(state):
        return []
    latex = to_latex(replaced, decimals=True) if decimals else None
    return [Move(name, operation, why, "rewrite", replaced, latex=latex)]


def _tidy(expr: sp.Basic, in_product: bool = False) -> sp.Basic:
    """Hold every fraction already in lowest terms as a Rational: it prints the same, and the
    finished state is then the target itself rather than an equal-valued SymPy shape. A
    reciprocal inside a product is part of a larger fraction and stays as it is."""
    parts = _fraction(expr)
    if parts is not None and not isinstance(expr, sp.Rational) and not in_product:
        top, bottom = parts
        if bottom > 0 and gcd(top, bottom) == 1:
            return sp.Rational(top, bottom)
        return expr
    if not expr.args or isinstance(expr, sp.Rational):
        return expr
    args = [_tidy(a, isinstance(expr, sp.Mul)) for a in expr.args]
    if all(a is b for a, b in zip(args, expr.args, strict=True)):
        return expr
    with sp.evaluate(False):
        return expr.func(*args)


def _first(
    node: sp.Basic, extra: tuple[Rule, ...] = ()
) -> tuple[sp.Basic, tuple[str, str, str, sp.Basic]] | None:
    """The node to rewrite next: innermost and leftmost first, except that a logarithm, a root
    or an exponential of a logarithm is read whole before its parts (``\\log_3 3^4`` is 4, not
    ``\\log_3 81`` again), and a fraction or a sum of fractions is one unit, never entered."""
    for rule in (*extra, *_WHOLE_FIRST):
        result = rule(node)
        if result is not None:
            return node, result
    if _fraction(node) is None and not _fraction_sum(node):
        for arg in node.args:
            found = _first(arg, extra)
            if found is not None:
                return found
    for rule in _RULES:
        result = rule(node)
        if result is not None:
            return node, result
    return None


def _fraction_sum(node: sp.Basic) -> bool:
    return isinstance(node, sp.Add) and all(_fraction(a) is not None for a in node.args)


# -- fractions -----------------------------------------------------------------------------------


def _fraction(e: sp.Basic) -> tuple[int, int] | None:
    """(numerator, denominator) of a fraction of integers as written, not reduced; else None.

    A product with more than one reciprocal (a product of fractions) is not one fraction.
    """
    if isinstance(e, sp.Integer):
        return int(e), 1
    if isinstance(e, sp.Rational):
        return int(e.p), int(e.q)
    if _inverse(e) is not None:
        return 1, _inverse(e)
    if not isinstance(e, sp.Mul):
        return None
    top, bottom, inverses = 1, 1, 0
    for arg in e.args:
        if isinstance(arg, sp.Integer):
            top *= int(arg)
        elif _inverse(arg) is not None:
            bottom, inverses = bottom * _inverse(arg), inverses + 1
        elif isinstance(arg, sp.Mul) and _fraction(arg) is not None:
            inner_top, inner_bottom = _fraction(arg)
            top, bottom = top * inner_top, bottom * inner_bottom
            inverses += inner_bottom != 1
        else:
            return None
    return (top, bottom) if inverses == 1 else None


def _inverse(e: sp.Basic) -> int | None:
    if isinstance(e, sp.Pow) and e.exp == -1 and isinstance(e.base, sp.Integer) and e.base != 0:
        return int(e.base)
    return None


def _written(top: int, bottom: int) -> sp.Expr:
    """The fraction top/bottom as written (unreduced, sign on the numerator)."""
    if bottom < 0:
        top, bottom = -top, -bottom
    if bottom == 1:
        return sp.Integer(top)
    with sp.evaluate(False):
        if top == 1:
            return sp.Pow(sp.Integer(bottom), -1)
        return sp.Mul(sp.Integer(top), sp.Pow(sp.Integer(bottom), -1))


def _result(top: int, bottom: int) -> sp.Expr:
    """A computed fraction: in lowest terms already, or written out so the next line cancels."""
    if gcd(top, bottom) == 1 or top == 0:
        return sp.Rational(top, bottom)
    return _written(top, bottom)


def _is_fraction_written(e: sp.Basic) -> bool:
    # A fraction SymPy holds unevaluated (1/6 as Pow(6, -1)), not an Integer or Rational atom.
    return _fraction(e) is not None and not isinstance(e, sp.Rational)


def _cancel(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    parts = _fraction(e)
    if parts is None or not _is_fraction_written(e):
        return None
    top, bottom = parts
    if bottom == 0:
        return None
    g = gcd(top, bottom)
    if g == 1:
        return None  # already in lowest terms; only its SymPy shape differs
    value = sp.Rational(top, bottom)
    if value.q == 1:
        operation = f"divide: {math(f'{bare_tex(e)} = {bare_tex(value)}')}"
        return "divide", operation, f"{abs(bottom)} divides {abs(top)}", value
    operation = f"cancel the common factor {tex(sp.Integer(g))}"
    why = "divide the numerator and the denominator by their greatest common divisor"
    return "cancel", operation, why, value


def _common_denominator(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    if not isinstance(e, sp.Add):
        return None
    parts = [_fraction(a) for a in e.args]
    if any(p is None for p in parts) or all(p[1] == 1 for p in parts):  # type: ignore[index]
        return None
    bottoms = {p[1] for p in parts}  # type: ignore[index]
    if len(bottoms) == 1:
        (bottom,) = bottoms
        total = sum(p[0] for p in parts)  # type: ignore[index]
        why = "fractions with the same denominator add by their numerators"
        return "add-numerators", "add the numerators", why, _result(total, bottom)
    common = lcm(*(abs(b) for b in bottoms))
    with sp.evaluate(False):
        terms = [_written(top * common // bottom, common) for top, bottom in parts]  # type: ignore[misc]
        new = sp.Add(*terms)
    operation = f"write the fractions over the common denominator {tex(sp.Integer(common))}"
    why = f"{common} is the least common multiple of the denominators"
    return "common-denominator", operation, why, new


def _product(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    if not isinstance(e, sp.Mul) or _fraction(e) is not None:
        return None
    parts = [_fraction(a) for a in e.args]
    if any(p is None for p in parts) or all(p[1] == 1 for p in parts):  # type: ignore[index]
        return None
    top = bottom = 1
    for t, b in parts:  # type: ignore[misc]
        top, bottom = top * t, bottom * b
    why = "fractions multiply numerator by numerator and denominator by denominator"
    return (
        "multiply-fractions",
        "multiply the numerators and the denominators",
        why,
        _result(top, bottom),
    )


def _power_of_fraction(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    if not (isinstance(e, sp.Pow) and isinstance(e.exp, sp.Integer)):
        return None
    parts = _fraction(e.base)
    if parts is None or parts[1] == 1 or parts[0] == 0:
        return None
    top, bottom = parts
    k = int(e.exp)
    if k == -1:
        operation = f"dividing by {tex(e.base)} is multiplying by its reciprocal"
        return "reciprocal", operation, "1/(a/b) = b/a", _result(bottom, top)
    if k < 0:
        with sp.evaluate(False):
            new = sp.Pow(_written(bottom, top), -k)
        return "invert", "a negative exponent inverts the base", "a^{-k} = (1/a)^k", new
    if abs(top) ** k > _MAX_INT or abs(bottom) ** k > _MAX_INT:
        return None
    operation = "raise the numerator and the denominator to the power"
    return "power-of-fraction", operation, "(a/b)^k = a^k / b^k", _result(top**k, bottom**k)


# -- roots, logarithms, exponentials ---------------------------------------------------------------


def _root(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    if not isinstance(e, sp.Pow) or _fraction(e.exp) is None or _fraction(e.exp)[1] == 0:
        return None
    exponent = sp.Rational(*_fraction(e.exp))  # \\sqrt[3]{27} holds its exponent as 3^{-1}
    if exponent.q == 1:
        return None
    p, q = int(exponent.p), int(exponent.q)
    base = e.base
    if isinstance(base, sp.Integer) and base > 0 and base < _MAX_INT:
        n = int(base)
        r, exact = sp.integer_nthroot(n, q)
        if exact and p != 1:
            with sp.evaluate(False):
                new = sp.Pow(sp.Pow(base, sp.Rational(1, q)), p)
            why = "a^{p/q} is the p-th power of the q-th root"
            return "root-first", f"take the root first: {tex(new)}", why, new
        if exact:
            operation = f"take the root: {math(f'{bare_tex(e)} = {r}')}"
            why = f"{r}^{q} = {n}"
            return "take-root", operation, why, sp.Integer(r)
        if p == 1:
            return _split_square_factor(e, n, q)
    if p == 1 and isinstance(base, sp.Mul) and len(base.args) == 2:
        outer, inner = base.args
        if not isinstance(outer, sp.Integer) or not isinstance(inner, sp.Integer) or outer <= 0:
            return None
        r, exact = sp.integer_nthroot(int(outer), q)
        if not exact or inner <= 0:
            return None
        with sp.evaluate(False):
            new = sp.Mul(sp.Integer(r), sp.Pow(inner, sp.Rational(1, q)))
        with sp.evaluate(False):
            root = bare_tex(sp.Pow(outer, sp.Rational(1, q)))
        operation = f"take {math(f'{root} = {r}')} out of the root"
        why = "the root of a product is the product of the roots (non-negative factors)"
        return "root-out", operation, why, new
    return None


def _split_square_factor(e: sp.Pow, n: int, q: int) -> tuple[str, str, str, sp.Basic] | None:
    power = 1  # the largest q-th power dividing n, found by trial (n is below _MAX_INT)
    for prime, mult in sp.factorint(n, limit=10**6).items():
        power *= prime ** (mult - mult % q)
    if power == 1 or power == n:
        return None
    with sp.evaluate(False):
        new = sp.Pow(sp.Mul(sp.Integer(power), sp.Integer(n // power)), sp.Rational(1, q))
    split = str(power) + " \\cdot " + str(n // power)
    operation = f"write {tex(sp.Integer(n))} as {math(split)}"
    which = "square" if q == 2 else f"{q}-th power"
    return "split-root", operation, f"{power} is the largest {which} dividing {n}", new


def _log(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    if not isinstance(e, sp.log):
        return None
    arg = e.args[0]
    base = e.args[1] if len(e.args) == 2 else sp.E
    if arg == 1:
        return "log-one", f"use {math(f'{bare_tex(e)} = 0')}", "any logarithm of 1 is 0", sp.S.Zero
    if arg == base:
        return "log-base", f"use {math(f'{bare_tex(e)} = 1')}", "log_b b = 1", sp.S.One
    if isinstance(arg, sp.Pow) and arg.base == base and arg.exp.is_number:
        operation = f"use {math(f'{bare_tex(e)} = {bare_tex(arg.exp)}')}"
        return "log-power", operation, "the logarithm to base b undoes the power b^k", arg.exp
    parts = _fraction(arg)
    if isinstance(base, sp.Integer) and base > 1 and parts is not None and parts[1] != 0:
        k = _exponent_of(int(base), sp.Rational(*parts))
        if k is None:
            return None
        if k < 0:  # 1/8 = 2^{-3}: one line, since 2^{-3} prints back as 1/8
            operation = f"use {math(f'{bare_tex(e)} = {k}')}"
            return "log-power", operation, f"{base}^{{{k}}} = {bare_tex(arg)}", sp.Integer(k)
        with sp.evaluate(False):
            power = sp.Pow(base, k)
        operation = f"write {tex(arg)} as {tex(power)}"
        return (
            "log-as-power",
            operation,
            f"{base}^{{{k}}} = {bare_tex(arg)}",
            sp.log(power, base, evaluate=False),
        )
    return None


def _exponent_of(base: int, value: sp.Rational) -> int | None:
    """k with base**k == value: k >= 2 for a whole number, k <= -1 for a unit fraction."""
    top, bottom = int(value.p), int(value.q)
    if bottom == 1:
        target, sign = top, 1
    elif top == 1:
        target, sign = bottom, -1
    else:
        return None
    k, acc = 0, 1
    while acc < target:
        acc, k = acc * base, k + 1
    if acc != target or (sign > 0 and k < 2):
        return None
    return sign * k


def _exp_of_log(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    if not (isinstance(e, sp.Pow) and isinstance(e.exp, sp.log)):
        return None
    log = e.exp
    base = log.args[1] if len(log.args) == 2 else sp.E
    if e.base != base:
        return None
    inner = log.args[0]
    operation = f"use {math(f'{bare_tex(e)} = {bare_tex(inner)}')}"
    return "exp-of-log", operation, "the power undoes the logarithm to the same base", inner


# -- decimals ------------------------------------------------------------------------------------


def _decimal_compute(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    """One sum, product, quotient or power of terminating decimals, done in decimals
    (0.2 · 0.3 = 0.06)."""
    if isinstance(e, sp.Pow) and isinstance(e.exp, sp.Integer) and 1 < e.exp <= 12:
        base = decimal_text(e.base) if isinstance(e.base, sp.Rational) else None
        shown = None if base is None else f"{base if e.base >= 0 else f'({base})'}^{{{e.exp}}}"
    elif isinstance(e, sp.Add | sp.Mul):
        shown = _decimal_operands(e)
    else:
        return None
    if shown is None:
        return None
    value = e.doit()
    if not isinstance(value, sp.Rational) or decimal_text(value) is None:
        return None
    operation = f"compute {math(f'{shown} = {decimal_text(value)}')}"
    return "decimal-compute", operation, "decimal arithmetic", value


def _decimal_operands(e: sp.Add | sp.Mul) -> str | None:
    """The operation written in decimals, or None unless every operand is a terminating decimal
    (a divisor may be one too: 0.2 ÷ 0.05)."""
    parts: list[str] = []
    for i, arg in enumerate(e.args):
        divisor = isinstance(e, sp.Mul) and isinstance(arg, sp.Pow) and arg.exp == -1
        operand = arg.base if divisor else arg
        if not isinstance(operand, sp.Rational) or decimal_text(operand) is None:
            return None
        text = decimal_text(operand)
        if isinstance(e, sp.Add):
            parts.append(
                text if i == 0 else (f"- {text[1:]}" if text.startswith("-") else f"+ {text}")
            )
        else:
            parts.append(f"\\div {text}" if divisor else (text if i == 0 else f"\\cdot {text}"))
    if isinstance(e, sp.Mul) and parts[0].startswith("\\div"):
        return None  # a quotient written with its divisor first: leave it to the fraction rules
    return " ".join(parts)


# -- special values and plain computation -------------------------------------------------------

_SPECIAL = (sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc, sp.Abs, sp.factorial, sp.binomial)


def _special_value(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    if not isinstance(e, _SPECIAL):
        return None
    value = e.doit()
    if sp.srepr(value) == sp.srepr(e) or isinstance(value, _SPECIAL) or value.has(*_SPECIAL):
        return None
    operation = f"use the exact value {math(f'{bare_tex(e)} = {bare_tex(value)}')}"
    return "special-value", operation, "a value known exactly", value


def _compute(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    if not isinstance(e, sp.Add | sp.Mul | sp.Pow) or not e.args or _fraction(e) is not None:
        return None
    if not all(isinstance(a, sp.Rational) for a in e.args):
        return None
    if isinstance(e, sp.Pow) and (not isinstance(e.exp, sp.Integer) or abs(e.exp) > 64):
        return None
    if isinstance(e, sp.Pow) and e.base == 0 and e.exp <= 0:
        return None  # 0^0 and 0^{-k}: a convention or no value, never a line of arithmetic
    value = e.doit()
    if not isinstance(value, sp.Rational) or abs(value.p) > _MAX_INT or value.q > _MAX_INT:
        return None
    if sp.srepr(value) == sp.srepr(e):
        return None
    written = bare_tex(e)
    if isinstance(e, sp.Pow) and e.exp.is_negative:
        # SymPy prints 10^{-2} as 1/100 already: say the power as it was written.
        written = f"{_grouped(e.base)}^{{{bare_tex(e.exp)}}}"
    return "compute", f"compute {math(f'{written} = {bare_tex(value)}')}", "arithmetic", value


def _grouped(base: sp.Basic) -> str:
    text = bare_tex(base)
    return text if isinstance(base, sp.Integer) and base >= 0 else f"\\left({text}\\right)"


def _like_roots(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    """2√3 + 3√3 = 5√3: whole multiples of one root of a whole number."""
    if not isinstance(e, sp.Add):
        return None
    radicands, total = set(), 0
    for term in e.args:
        coefficient, rest = term.as_coeff_Mul()
        if not (isinstance(coefficient, sp.Integer) and isinstance(rest, sp.Pow)):
            return None
        if not (isinstance(rest.base, sp.Integer) and isinstance(rest.exp, sp.Rational)):
            return None
        radicands.add(rest)
        total += int(coefficient)
    if len(radicands) != 1:
        return None
    (root,) = radicands
    value = sp.Integer(total) * root
    operation = f"add the like terms: {math(f'{bare_tex(e)} = {bare_tex(value)}')}"
    return "like-roots", operation, "a·r + b·r = (a + b)·r", value


def _same_base(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    """2^5 · 2^3 / 2^6 = 2^{5+3-6}: a product and quotient of powers of one whole number."""
    if not isinstance(e, sp.Mul):
        return None
    exponents: list[int] = []
    bases: set[sp.Basic] = set()
    for factor in _factors(e):
        sign = 1
        if (
            isinstance(factor, sp.Pow)
            and factor.exp == -1
            and not isinstance(factor.base, sp.Integer)
        ):
            factor, sign = factor.base, -1
        if isinstance(factor, sp.Pow) and isinstance(factor.exp, sp.Integer):
            bases.add(factor.base)
            exponents.append(sign * int(factor.exp))
        else:
            return None
    if len(bases) != 1 or len(exponents) < 2:
        return None
    (base,) = bases
    if not isinstance(base, sp.Integer) or base <= 1:
        return None
    total = sum(exponents)
    with sp.evaluate(False):
        new = sp.Pow(base, total)
    written = " ".join(
        (f"+ {k}" if k >= 0 else f"- {-k}") if i else str(k) for i, k in enumerate(exponents)
    )
    operation = f"add the exponents: {math(f'{base}^{{{written}}} = {base}^{{{total}}}')}"
    return "index-laws", operation, "a^m · a^n = a^{m+n} and a^m / a^n = a^{m-n}", new


def _factors(e: sp.Basic) -> list[sp.Basic]:
    if isinstance(e, sp.Mul):
        return [f for arg in e.args for f in _factors(arg)]
    return [e]


def _rationalize(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    """a/√n = a√n/n for a whole n that is not a square."""
    factors = _factors(e)
    roots = [f for f in factors if _inverse_root(f) is not None]
    rest = [f for f in factors if _inverse_root(f) is None]
    if len(roots) != 1 or not all(isinstance(f, sp.Integer) for f in rest):
        return None
    n = _inverse_root(roots[0])
    top = sp.Mul(*rest) if rest else sp.Integer(1)
    with sp.evaluate(False):
        root = sp.Pow(sp.Integer(n), sp.Rational(1, 2))
        parts = [root, sp.Pow(sp.Integer(n), -1)]
        new = sp.Mul(top, *parts) if top != 1 else sp.Mul(*parts)
    operation = f"multiply the numerator and the denominator by {tex(root)}"
    return "rationalize", operation, f"{bare_tex(root)} \\cdot {bare_tex(root)} = {n}", new


def _inverse_root(f: sp.Basic) -> int | None:
    if not (isinstance(f, sp.Pow) and f.exp == -1 and isinstance(f.base, sp.Pow)):
        return None
    base = f.base
    if base.exp != sp.Rational(1, 2) or not isinstance(base.base, sp.Integer) or base.base <= 1:
        return None
    n = int(base.base)
    return None if sp.integer_nthroot(n, 2)[1] else n


def _cancel_beside_root(e: sp.Basic) -> tuple[str, str, str, sp.Basic] | None:
    """6√3/3 = 2√3: the whole numbers of a fraction with one root beside them."""
    factors = _factors(e)
    roots = [f for f in factors if isinstance(f, sp.Pow) and f.exp == sp.Rational(1, 2)]
    inverses = [f for f in factors if _inverse(f) is not None]
    whole = [f for f in factors if isinstance(f, sp.Integer)]
    if len(roots) != 1 or len(inverses) != 1 or len(whole) + 2 != len(factors):
        return None
    top = int(sp.Mul(*whole)) if whole else 1
    bottom = _inverse(inverses[0])
    g = gcd(top, bottom)
    if g == 1 or bottom <= 0:
        return None
    with sp.evaluate(False):
        numerator = [sp.Integer(top // g)] if top // g != 1 else []
        new = sp.Mul(*numerator, roots[0], *([sp.Pow(bottom // g, -1)] if bottom != g else []))
    operation = f"cancel the common factor {tex(sp.Integer(g))}"
    return "cancel", operation, "divide the numerator and the denominator by it", new


# Read whole before their parts: the outermost match wins (a/√n is rationalized as one
# fraction, not as a and 1/√n apart).
_WHOLE_FIRST: tuple[Rule, ...] = (_root, _log, _exp_of_log, _same_base, _rationalize)
_RULES: tuple[Rule, ...] = (
    _cancel,
    _common_denominator,
    _product,
    _power_of_fraction,
    _like_roots,
    _cancel_beside_root,
    _special_value,
    _compute,
)
