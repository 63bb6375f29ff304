"""Expression algebra shown, not jumped: the lines a teacher writes between an expression and its
factored (or combined, or completed) form.

Each family returns one move whose ``before`` lines show the intermediate forms (the common factor
written into every term, the squares named, the middle term split, each fraction over the common
denominator); every line has the same value as the one before it, so each step is an identity.

>>> x = sp.Symbol("x")
>>> m = shown_moves(x**2 + 7 * x + 12, None)[0]
>>> [op for op, _, _ in m.before][1:], m.operation
(['factor each pair of terms'], 'take out the common factor $x + 3$')
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem, bare_tex, math

t = bare_tex


def _join(terms: list[sp.Basic]) -> str:
    """Terms written as a sum, the signs folded in (``a - b``, not ``a + -b``)."""
    out = t(terms[0])
    for term in terms[1:]:
        out += f" - {t(-term)}" if term.could_extract_minus_sign() else f" + {t(term)}"
    return out


def _paren(e: sp.Basic) -> str:
    return f"\\left({t(e)}\\right)" if isinstance(e, sp.Add) else t(e)


def _times(a: sp.Basic, b: sp.Basic) -> str:
    """``a`` times the bracket ``b``: ``3x(2x + 3)``, or the bracket alone when a is 1."""
    if a == 1:
        return _paren(b) if isinstance(b, sp.Add) else t(b)
    if a == -1:
        return f"-{_paren(b)}"
    return f"{t(a)} {_paren(b)}" if isinstance(b, sp.Add) else f"{t(a)} \\cdot {t(b)}"


def _signed_sum(parts: list[tuple[sp.Basic, str]]) -> str:
    """Pieces ``(sign carrier, latex of the positive piece)`` joined with their signs."""
    out = ""
    for i, (sign, text) in enumerate(parts):
        negative = sign.could_extract_minus_sign()
        out += ("-" if negative else "") + text if i == 0 else (" - " if negative else " + ") + text
    return out


def _unsigned(v: sp.Basic) -> sp.Basic:
    return -v if v.could_extract_minus_sign() else v


def _unknown(e: sp.Basic) -> sp.Symbol | None:
    syms = sorted(e.free_symbols, key=lambda s: s.name)
    return syms[0] if len(syms) == 1 else None


# --- common factor ----------------------------------------------------------------------------


def _common_factor(e: sp.Basic) -> Move | None:
    terms = e.as_ordered_terms() if isinstance(e, sp.Add) else [e]
    if len(terms) < 2 or not e.is_polynomial():
        return None
    g = sp.gcd(terms)
    if g == 1 or (not g.free_symbols and abs(g) == 1):
        return None
    rest = [sp.expand(term / g) for term in terms]
    parts = [(q, f"{t(g)} \\cdot {t(-q if q.could_extract_minus_sign() else q)}") for q in rest]
    shown = _signed_sum(parts)
    new = sp.Mul(g, sp.Add(*rest))
    before = (("write each term with the common factor " + math(t(g)),
               "every term is a multiple of " + math(t(g)), shown),)  # fmt: skip
    why = math("ab + ac = a(b + c)")
    return Move("common-factor", f"take out the common factor {math(t(g))}", why, "rewrite", new,
                before=before)  # fmt: skip


# --- squares and cubes -------------------------------------------------------------------------


def _root(term: sp.Basic, n: int) -> sp.Basic | None:
    """A polynomial n-th root of a monomial (``9x^2`` → ``3x``), or None."""
    r = sp.powdenest(sp.root(term, n), force=True)
    if r.has(sp.Abs) or not r.is_polynomial() or sp.expand(r**n - term) != 0:
        return None
    if any(isinstance(a, sp.Pow) and not a.exp.is_Integer for a in sp.preorder_traversal(r)):
        return None
    return r


def _power_tex(base: sp.Basic, n: int) -> str:
    simple = base.is_Symbol or (base.is_Integer and base > 0)
    return f"{t(base)}^{n}" if simple else f"\\left({t(base)}\\right)^{n}"


def _difference_of_squares(e: sp.Basic) -> Move | None:
    terms = sp.Add.make_args(e)
    if len(terms) != 2:
        return None
    pos = [s for s in terms if not s.could_extract_minus_sign()]
    neg = [s for s in terms if s.could_extract_minus_sign()]
    if len(pos) != 1 or len(neg) != 1:
        return None
    a, b = _root(pos[0], 2), _root(-neg[0], 2)
    if a is None or b is None or not (a.free_symbols or b.free_symbols):
        return None
    shown = f"{_power_tex(a, 2)} - {_power_tex(b, 2)}"
    new = sp.Mul(a - b, a + b)
    named = [math(f"{t(v)} = {_power_tex(r, 2)}") for v, r in ((pos[0], a), (-neg[0], b))
             if not (r.is_Symbol and v == r**2)]  # fmt: skip
    before = (("write both terms as squares", " and ".join(named), shown),)
    why = f"difference of squares $a^2 - b^2 = (a - b)(a + b)$ with {math('a = ' + t(a))}, "
    why += math("b = " + t(b))
    return Move("difference-of-squares", "factor the difference of two squares", why, "rewrite",
                new, before=before)  # fmt: skip


def _cubes(e: sp.Basic) -> Move | None:
    terms = sp.Add.make_args(e)
    if len(terms) != 2:
        return None
    first, second = sorted(terms, key=lambda s: (not s.free_symbols, sp.default_sort_key(s)))
    sign = -1 if second.could_extract_minus_sign() else 1
    a, b = _root(first, 3), _root(sign * second, 3)
    if a is None or b is None or first.could_extract_minus_sign():
        return None
    op_sign = "+" if sign > 0 else "-"
    shown = f"{_power_tex(a, 3)} {op_sign} {_power_tex(b, 3)}"
    if sign > 0:
        new = sp.Mul(a + b, sp.expand(a**2 - a * b + b**2))
        rule, name = "a^3 + b^3 = (a + b)(a^2 - ab + b^2)", "sum"
    else:
        new = sp.Mul(a - b, sp.expand(a**2 + a * b + b**2))
        rule, name = "a^3 - b^3 = (a - b)(a^2 + ab + b^2)", "difference"
    before = (("write both terms as cubes", math(t(sign * second) + " = " + _power_tex(b, 3)),
               shown),)  # fmt: skip
    why = f"{name} of cubes {math(rule)} with {math('a = ' + t(a))}, {math('b = ' + t(b))}"
    return Move(f"{name}-of-cubes", f"factor the {name} of two cubes", why, "rewrite", new,
                before=before)  # fmt: skip


# --- quadratic trinomials and grouping ---------------------------------------------------------


def _trinomial(e: sp.Basic) -> Move | None:
    """``ax^2 + bx + c`` with integer coefficients, or its two-letter form ``ax^2 + bxy + cy^2``
    (a quadratic in the first letter whose coefficients carry the second): split the middle
    term, then factor each pair."""
    letters = sorted(e.free_symbols, key=lambda s: s.name)
    if not 1 <= len(letters) <= 2 or not e.is_polynomial(*letters):
        return None
    x, y = letters[0], (letters[1] if len(letters) == 2 else sp.Integer(1))
    poly = sp.Poly(e, *letters)
    if len(poly.terms()) != 3 or not poly.is_primitive:
        return None
    if poly.total_degree() != 2 or (len(letters) == 2 and not poly.is_homogeneous):
        return None
    a, b, c = (poly.as_expr().coeff(x, k).coeff(y, 2 - k) if y != 1 else
               poly.as_expr().coeff(x, k) for k in (2, 1, 0))  # fmt: skip
    if not all(v.is_Integer for v in (a, b, c)) or 0 in (a, b, c):
        return None
    for p in sorted(sp.divisors(abs(a * c)) + [-d for d in sp.divisors(abs(a * c))], key=abs):
        q = b - p
        if p * q != a * c:
            continue
        for first, second in ((p, q), (q, p)):
            move = _split_and_group(a, first, second, c, x, y)
            if move is not None:
                return move
    return None


def _split_and_group(a, p, q, c, x, y=sp.Integer(1)) -> Move | None:
    """``ax^2 + px·y + qx·y + cy^2`` grouped in pairs (``y`` is 1 for one letter)."""
    g1 = sp.gcd(a, p) * x
    g2 = sp.gcd(q, c) * y * (-1 if q < 0 else 1)
    inner = sp.expand((a * x**2 + p * x * y) / g1)
    if sp.expand((q * x * y + c * y**2) / g2) != inner:
        return None
    split = _join([a * x**2, p * x * y, q * x * y, c * y**2])
    grouped = _signed_sum([(g1, _times(g1, inner)), (g2, _times(_unsigned(g2), inner))])
    why1 = f"two numbers with product {math('ac = ' + t(a * c))} and sum {math('b = ' + t(p + q))}"
    op1 = f"split the middle term: {math(f'{t(p)} + {_paren_num(q)} = {t(p + q)}')} and "
    op1 += math(f"{t(p)} \\cdot {_paren_num(q)} = {t(a * c)}")
    before = (
        (op1, why1, split),
        ("factor each pair of terms", "take out the common factor of each pair", grouped),
    )
    new = sp.Mul(g1 + g2, inner)
    why = math("ub + vb = (u + v)b")
    return Move("trinomial", f"take out the common factor {math(t(inner))}", why, "rewrite", new,
                before=before)  # fmt: skip


def _paren_num(v: sp.Basic) -> str:
    return f"({t(v)})" if v.could_extract_minus_sign() else t(v)


def _grouping(e: sp.Basic) -> Move | None:
    if not isinstance(e, sp.Add) or len(e.args) != 4 or not e.is_polynomial():
        return None
    terms = e.as_ordered_terms()
    for order in ((0, 1, 2, 3), (0, 2, 1, 3)):
        t1, t2, t3, t4 = (terms[i] for i in order)
        g1, g2 = sp.gcd(t1, t2), sp.gcd(t3, t4)
        if t3.could_extract_minus_sign():
            g2 = -g2
        inner = sp.expand((t1 + t2) / g1)
        if g1 == 1 or sp.expand((t3 + t4) / g2) != inner or not isinstance(inner, sp.Add):
            continue
        grouped = _signed_sum([(g1, _times(g1, inner)), (g2, _times(_unsigned(g2), inner))])
        before = (("group the terms in pairs and factor each pair",
                   "take out the common factor of each pair", grouped),)  # fmt: skip
        new = sp.Mul(inner, g1 + g2)
        why = math("ub + vb = (u + v)b")
        return Move("grouping", f"take out the common factor {math(t(inner))}", why, "rewrite",
                    new, before=before)  # fmt: skip
    return None


def factor_theorem(e: sp.Basic) -> Move | None:
    """A polynomial of degree 3 or more with a rational root r: (x − r) is a factor (the factor
    theorem), and polynomial division gives the other one. Only when no family above applies
    first (a common factor, grouping), so the lines stay the ones a teacher would pick."""
    x = _unknown(e)
    if x is None or not e.is_polynomial(x):
        return None
    poly = sp.Poly(e, x)
    if poly.degree() < 3 or not all(c.is_Integer for c in poly.all_coeffs()):
        return None
    if poly.TC() == 0 or _common_factor(e) is not None or _grouping(e) is not None:
        return None
    lead, const = abs(poly.LC()), abs(poly.TC())
    signs = (1, -1)
    candidates = {sp.Rational(s * p, q) for p in sp.divisors(const) for q in sp.divisors(lead)
                  for s in signs}  # fmt: skip
    ordered = sorted(candidates, key=lambda r: (abs(r), bool(r.is_negative)))[:200]
    root = next((r for r in ordered if poly.eval(r) == 0), None)
    if root is None:
        return None
    factor = root.q * x - root.p
    quotient, rest = sp.div(poly, sp.Poly(factor, x))
    if not rest.is_zero:
        return None
    values = [c * root**k for k, c in _by_power(poly) if c]
    shown = t(values[0]) + "".join(
        f" - {t(-v)}" if v.could_extract_minus_sign() else f" + {t(v)}" for v in values[1:]
    )
    check = "at " + math(f"{t(x)} = {t(root)}") + " it is " + math(f"{shown} = 0")
    why = (f"factor theorem: {check}, so {math(t(factor))} is a factor; the other factor is the "
           "quotient of the polynomial division")  # fmt: skip
    new = sp.Mul(factor, quotient.as_expr())
    operation = f"take out the factor {math(t(factor))} (factor theorem, then division)"
    return Move("factor-theorem", operation, why, "rewrite", new)


def _by_power(poly: sp.Poly) -> list[tuple[int, sp.Basic]]:
    coeffs = poly.all_coeffs()
    return list(zip(range(len(coeffs) - 1, -1, -1), coeffs, strict=True))


# --- fractions ---------------------------------------------------------------------------------


def _cancel(e: sp.Basic) -> Move | None:
    num, den = sp.fraction(sp.together(e))
    if not den.free_symbols:
        return None
    common = sp.gcd(num, den)
    if common == 1 or not common.free_symbols:
        return None
    fn, fd = sp.factor(num), sp.factor(den)
    shown = f"\\frac{{{t(fn)}}}{{{t(fd)}}}"
    new = sp.factor(sp.cancel(e))
    zeros = sp.solveset(common, _unknown(common) or sp.Symbol("x"), sp.Reals)
    where = (
        ", ".join(math(f"{t(_unknown(common))} \\ne {t(z)}") for z in zeros)
        if isinstance(zeros, sp.FiniteSet)
        else ""
    )
    before = (("factor the numerator and the denominator", "factorisation", shown),)
    why = f"{math(t(common))} divides out" + (f" (for {where})" if where else "")
    return Move("cancel", f"cancel the common factor {math(t(common))}", why, "rewrite", new,
                before=before)  # fmt: skip


def _add_fractions(e: sp.Basic) -> Move | None:
    if not isinstance(e, sp.Add):
        return None
    ordered = sorted(e.as_ordered_terms(), key=lambda s: s.could_extract_minus_sign())
    parts = [sp.fraction(sp.factor(term)) for term in ordered]
    if not any(d.free_symbols for _, d in parts):
        return None
    lcd = sp.factor(sp.lcm([d for _, d in parts]))
    over = []
    numerators = []
    for n, d in parts:
        m = sp.factor(lcd / d)
        shown_n = n if m == 1 else sp.Mul(n, m, evaluate=False)
        sign = n.could_extract_minus_sign()
        positive = -n if sign else n
        top = _times(positive, m) if m != 1 else t(positive)
        if m != 1 and positive == 1:
            top = t(m)
        over.append((n, f"\\frac{{{top}}}{{{t(lcd)}}}"))
        numerators.append((n, top, shown_n))
    step1 = _signed_sum(over)
    joined = _signed_sum([(n, _wrap(top, n)) for n, top, _ in numerators])
    step2 = f"\\frac{{{joined}}}{{{t(lcd)}}}"
    total = sp.expand(sum(sp.expand(n * sp.factor(lcd / d)) for n, d in parts))
    new = sp.Mul(total, sp.Pow(lcd, -1))
    before = (("write each fraction over the common denominator " + math(t(lcd)),
               "multiply the top and the bottom of each fraction by the same factor", step1),
              ("add the numerators", "fractions with the same denominator", step2))  # fmt: skip
    return Move("add-fractions", "expand and collect the numerator", "distributive law",
                "rewrite", new, before=before)  # fmt: skip


def _wrap(top: str, n: sp.Basic) -> str:
    # A subtracted numerator with several terms keeps its bracket: 2(x + 1) - (x - 1).
    several = " + " in top or " - " in top
    if n.could_extract_minus_sign() and several and not top.startswith("\\left("):
        return f"\\left({top}\\right)"
    return top


def _partial_fractions(e: sp.Basic) -> Move | None:
    x = _unknown(e)
    if x is None:
        return None
    num, den = sp.fraction(sp.together(e))
    if not (num.is_polynomial(x) and den.is_polynomial(x)) or not den.has(x):
        return None
    if sp.degree(num, x) >= sp.degree(den, x):
        return None
    factors = [f for f in sp.Mul.make_args(sp.factor(den)) if f.has(x)]
    const = sp.factor(den) / sp.Mul(*factors)
    if len(factors) < 2 or any(sp.degree(f, x) != 1 or isinstance(f, sp.Pow) for f in factors):
        return None
    fd = sp.factor(den)
    coeffs = []
    for f in factors:
        rest = sp.Mul(*[g for g in factors if g != f]) * const
        root = sp.solve(f, x)[0]
        coeffs.append((sp.simplify(num.subs(x, root) / rest.subs(x, root)), rest))
    names = "ABCD"[: len(coeffs)]
    ansatz = " + ".join(f"{n} {_paren(r)}" for n, (_, r) in zip(names, coeffs, strict=True))
    values = ", ".join(math(f"{n} = {t(c)}") for n, (c, _) in zip(names, coeffs, strict=True))
    identity = _signed_sum([(c, _times(abs(c), r)) for c, r in coeffs])
    before = []
    if sp.factor(den) != den:
        before.append(("factor the denominator", "factorisation", f"\\frac{{{t(num)}}}{{{t(fd)}}}"))
    before.append(("write the numerator in terms of the factors",
                   f"matching coefficients in {math(ansatz + ' = ' + t(num))} gives {values}",
                   f"\\frac{{{identity}}}{{{t(fd)}}}"))  # fmt: skip
    split = _signed_sum([(c, f"\\frac{{{_times(abs(c), r)}}}{{{t(fd)}}}") for c, r in coeffs])
    before.append(("split into one fraction per term", "$\\frac{a + b}{c} = \\frac{a}{c} + "
                   "\\frac{b}{c}$", split))  # fmt: skip
    new = sp.apart(e, x)
    return Move("partial-fractions", "cancel the common factor in each fraction",
                "a common factor of numerator and denominator divides out", "rewrite", new,
                before=tuple(before))  # fmt: skip


def _partial_fractions_general(e: sp.Basic) -> Move | None:
    """Partial fractions where the distinct-linear family does not apply: an improper fraction
    is divided first (quotient plus a proper remainder), and a repeated linear factor or an
    irreducible quadratic factor gets its own fractions (``A/(x+1) + B/(x+1)^2``,
    ``(Bx + C)/(x^2 + 1)``); the numerators come from matching coefficients."""
    x = _unknown(e)
    if x is None or _partial_fractions(e) is not None:
        return None
    num, den = sp.fraction(sp.together(e))
    if not (num.is_polynomial(x) and den.is_polynomial(x)) or not den.has(x):
        return None
    quotient, rest = sp.div(sp.expand(num), sp.expand(den), x)
    pieces = sp.Add.make_args(sp.apart(rest / den, x)) if rest != 0 else ()
    improper = quotient != 0
    if not pieces or (not improper and len(pieces) < 2):
        return None
    fd = sp.factor(den)
    head = f"{t(quotient)} + " if improper else ""
    before = []
    if improper:
        before += _division_lines(num, den, quotient, rest, head)
    if len(pieces) >= 2:
        if fd != den:
            before.append(("factor the denominator", "factorisation",
                           f"{head}\\frac{{{t(rest)}}}{{{t(fd)}}}"))  # fmt: skip
        parts = [_numerator_over(piece, fd, x) for piece in pieces]
        identity = _signed_sum([(n, _product(_unsigned(n), m)) for n, m in parts])
        numerators = ", ".join(math(t(n)) for n, _ in parts)
        before.append(("write the numerator in terms of the factors",
                       f"matching coefficients in {math(identity + ' = ' + t(rest))} gives the "
                       f"numerators {numerators}",
                       f"{head}\\frac{{{identity}}}{{{t(fd)}}}"))  # fmt: skip
        split = _signed_sum([(n, f"\\frac{{{_product(_unsigned(n), m, bare=True)}}}{{{t(fd)}}}")
                             for n, m in parts])  # fmt: skip
        before.append(("split into one fraction per term", "$\\frac{a + b}{c} = \\frac{a}{c} + "
                       "\\frac{b}{c}$", head + split))  # fmt: skip
        operation, why = (
            "cancel the common factor in each fraction",
            ("a common factor of numerator and denominator divides out"),
        )
    else:
        operation, why, _ = before.pop()
    new = sp.Add(quotient, *pieces)
    return Move("partial-fractions", operation, why, "rewrite", new, before=tuple(before))


def _division_lines(num, den, quotient, rest, head: str) -> list[tuple[str, str, str]]:
    """An improper fraction divided: the numerator as quotient × denominator + remainder, the
    two fractions, then the denominator cancelled from the first."""
    times = _product(quotient, den)
    over = f"\\frac{{{times}}}{{{t(den)}}}{_plus_fraction(rest, den)}"
    why = "polynomial division: " + math(f"{t(num)} = {times}{_plus(rest)}")
    return [
        ("write the numerator as the quotient times the denominator plus the remainder", why,
         f"\\frac{{{times}{_plus(rest)}}}{{{t(den)}}}"),
        ("split into one fraction per term", "$\\frac{a + b}{c} = \\frac{a}{c} + \\frac{b}{c}$",
         over),
        ("cancel the common factor " + math(t(den)), "the denominator divides out",
         f"{head}\\frac{{{t(rest)}}}{{{t(den)}}}"),
    ]  # fmt: skip


def _plus_fraction(rest: sp.Basic, den: sp.Basic) -> str:
    sign = " - " if rest.could_extract_minus_sign() else " + "
    return f"{sign}\\frac{{{t(_unsigned(rest))}}}{{{t(den)}}}"


def _numerator_over(piece: sp.Basic, den: sp.Basic, x: sp.Symbol) -> tuple[sp.Basic, sp.Basic]:
    """A partial fraction ``n/d`` as its numerator ``n`` and the factor ``den/d`` that brings
    it over the whole denominator."""
    n, d = sp.fraction(sp.factor(piece))
    return sp.expand(n), sp.factor(sp.cancel(den / d))


def _product(a: sp.Basic, m: sp.Basic, *, bare: bool = False) -> str:
    """``a`` times the factors ``m``, each sum in brackets (a lone sum bare when ``bare``, as a
    numerator of its own), ones left out."""
    factors = [f for f in (a, *sp.Mul.make_args(m)) if f != 1]
    if len(factors) == 1 and bare:
        return t(factors[0])
    return " ".join(_paren(f) for f in factors) if factors else "1"


# --- completing the square ---------------------------------------------------------------------


def _plus(c: sp.Basic) -> str:
    """`` + c`` or `` - |c|`` to append to a sum, nothing for zero."""
    if c == 0:
        return ""
    return f" - {t(-c)}" if c.could_extract_minus_sign() else f" + {t(c)}"


def _complete_square(e: sp.Basic) -> Move | None:
    x = _unknown(e)
    if x is None or not e.is_polynomial(x) or sp.degree(e, x) != 2:
        return None
    a, b, c = (sp.Poly(e, x).coeff_monomial(x**k) for k in (2, 1, 0))
    if b == 0:
        return None
    h = b / (2 * a)
    k = c - a * h**2
    new = a * (x + h) ** 2 + k
    sq = t(h**2) if h.is_Integer else f"\\left({t(h)}\\right)^2"
    if a == 1:
        shown = f"{t(x**2 + b * x)} + {sq} - {sq}{_plus(c)}"
        half = math(f"\\left(\\frac{{{t(b)}}}{{2}}\\right)^2 = {t(h**2)}")
        op = "add and subtract the square of half the coefficient of " + math(t(x))
        before = ((op, half, shown),)
    else:
        inside = x**2 + (b / a) * x
        shown0 = f"{t(a)} \\left({t(inside)}\\right){_plus(c)}"
        shown1 = f"{t(a)} \\left({t(inside)} + {sq} - {sq}\\right){_plus(c)}"
        before = (
            (
                "take the leading coefficient out of the terms with " + math(t(x)),
                "distributive law",
                shown0,
            ),
            (
                "add and subtract the square of half the coefficient of " + math(t(x)),
                math(f"\\left(\\frac{{{t(b / a)}}}{{2}}\\right)^2 = {t(h**2)}"),
                shown1,
            ),
        )
    why = math(
        f"{t(x)}^2 + 2 \\cdot {_paren_num(h)} {t(x)} + {_paren_num(h)}^2 = {t((x + h) ** 2)}"
    )
    return Move("complete-square", "write the perfect square and collect the constants", why,
                "rewrite", new, before=before)  # fmt: skip


def _expand_shown(e: sp.Basic) -> Move | None:
    """Squares of brackets expanded in place first, then like terms collected."""
    squares = [s for s in sp.Add.make_args(e) if _bracket_power(s) is not None]
    if not squares or not isinstance(e, sp.Add):
        return None
    parts = []
    for term in sp.Add.make_args(e):
        coeff, rest = term.as_coeff_Mul()
        if _bracket_power(rest) is None:
            parts.append((term, t(abs(coeff) * rest) if coeff.is_negative else t(term)))
            continue
        inner = sp.expand(rest)
        shown = _times(abs(coeff), inner) if abs(coeff) != 1 or coeff.is_negative else t(inner)
        parts.append((term, shown))
    new = sp.expand(e)
    before = (("expand each square", "$(a + b)^2 = a^2 + 2ab + b^2$", _signed_sum(parts)),)
    return Move("expand-shown", "collect like terms", "add the like terms", "rewrite", new,
                before=before)  # fmt: skip


def _expand_product(e: sp.Basic) -> Move | None:
    """Two brackets multiplied out as a teacher does: each term of the shorter bracket times the
    other bracket, every product written, then the like terms collected."""
    factors = sp.Mul.make_args(e)
    if not isinstance(e, sp.Mul) or len(factors) != 2 or not all(isinstance(f, sp.Add)
                                                                 for f in factors):  # fmt: skip
        return None
    first, second = sorted(factors, key=lambda f: len(f.args))
    if not e.is_polynomial():
        return None
    outer = [(a, _times(_unsigned(a), second)) for a in first.as_ordered_terms()]
    products = [
        sp.expand(a * b) for a in first.as_ordered_terms() for b in second.as_ordered_terms()
    ]
    new = sp.expand(e)
    before = [("multiply each term of " + math(t(first)) + " by the other bracket",
               "distributive law", _signed_sum(outer))]  # fmt: skip
    if len(sp.Add.make_args(new)) == len(products):
        return Move("expand-product", "multiply out each bracket", "distributive law", "rewrite",
                    new, before=tuple(before))  # fmt: skip
    before.append(("multiply out each bracket", "distributive law", _join(products)))
    return Move("expand-product", "collect like terms", "add the like terms", "rewrite", new,
                before=tuple(before))  # fmt: skip


def _bracket_power(s: sp.Basic) -> sp.Basic | None:
    return s if isinstance(s, sp.Pow) and isinstance(s.base, sp.Add) and s.exp == 2 else None


_FAMILIES: tuple[Callable[[sp.Basic], Move | None], ...] = (
    _common_factor, _difference_of_squares, _cubes, _trinomial, _grouping, factor_theorem,
    _cancel, _add_fractions, _partial_fractions, _partial_fractions_general, _complete_square,
    _expand_shown, _expand_product,
)  # fmt: skip


def shown_moves(state: sp.Basic, p: Problem | None) -> list[Move]:
    """Every family that applies to the expression, or to a bracket inside a product."""
    if not isinstance(state, sp.Expr) or isinstance(state, sp.Eq) or not state.free_symbols:
        return []
    moves = [m for m in (_safe(f, state) for f in _FAMILIES) if m is not None]
    if isinstance(state, sp.Mul):
        moves += _inside_product(state)
    return moves


def _safe(family: Callable[[sp.Basic], Move | None], e: sp.Basic) -> Move | None:
    try:
        return family(e)
    except (sp.PolynomialError, NotImplementedError, ValueError, TypeError, IndexError,
            ZeroDivisionError, sp.GeneratorsNeeded):  # fmt: skip
        return None


def _inside_product(state: sp.Mul) -> list[Move]:
    """``2x(x^2 - 9)``: factor the bracket, keep the factors around it."""
    out = []
    for f in sp.Mul.make_args(state):
        if not isinstance(f, sp.Add):
            continue
        others = sp.Mul(*[g for g in sp.Mul.make_args(state) if g is not f])
        for family in (_difference_of_squares, _cubes, _trinomial, factor_theorem):
            m = _safe(family, f)
            if m is None:
                continue
            around = _product_tex(others)
            before = tuple((op, why, f"{around} \\left({shown}\\right)")
                           for op, why, shown in m.before)  # fmt: skip
            out.append(Move(m.name, m.operation, m.justification, m.change_type,
                            others * m.state, before=before))  # fmt: skip
    return out


def _product_tex(e: sp.Basic) -> str:
    """The factors kept around a bracket, each sum in its own brackets: ``(x - 2)``, never the
    bare ``x - 2`` that would read as a sum with the bracket after it."""
    return " ".join(_paren(f) for f in sp.Mul.make_args(e))


def circle_moves(state: sp.Basic, p: Problem | None) -> list[Move]:
    """``x^2 + y^2 + Dx + Ey + F = 0`` → ``(x - a)^2 + (y - b)^2 = r^2``, squares completed."""
    if not isinstance(state, sp.Eq) or len(state.free_symbols) != 2:
        return []
    syms = sorted(state.free_symbols, key=lambda s: s.name)
    expr = sp.expand(state.lhs - state.rhs)
    try:
        poly = sp.Poly(expr, *syms)
    except sp.PolynomialError:
        return []
    if poly.total_degree() != 2 or any(poly.coeff_monomial(s**2) != 1 for s in syms):
        return []
    if poly.coeff_monomial(syms[0] * syms[1]) != 0:
        return []
    lin = [poly.coeff_monomial(s) for s in syms]
    const = poly.coeff_monomial(1)
    halves = [c / 2 for c in lin]
    groups = " + ".join(f"\\left({t(s**2 + c * s)}\\right)" for s, c in zip(syms, lin, strict=True))
    completed = " + ".join(f"\\left({t(s**2 + c * s)} + {t(h**2)}\\right)"
                           for s, c, h in zip(syms, lin, halves, strict=True))  # fmt: skip
    rhs_terms = " + ".join([t(-const), *(t(h**2) for h in halves)])
    radius2 = -const + sum(h**2 for h in halves)
    new = sp.Eq(sp.Add(*[(s + h) ** 2 for s, h in zip(syms, halves, strict=True)]), radius2)
    before = (("group the terms in each unknown and move the constant to the right",
               "collect like terms", f"{groups} = {t(-const)}"),
              ("complete the square in each group, adding the same to the right side",
               "half the coefficient, squared", f"{completed} = {rhs_terms}"))  # fmt: skip
    why = "perfect squares; the radius squared is the right side"
    return [Move("complete-squares", "write each group as a perfect square", why, "rewrite", new,
                 before=before)]  # fmt: skip
