"""Polynomial equations in one unknown: linear moves; quadratics by factoring or completing the
square.

Every move transforms both sides at once, the way a teacher writes it, and names the operation.

>>> x = sp.Symbol("x")
>>> p = Problem(start=sp.Eq(3 * x + 5, 11), target=sp.Eq(x, 2), var=x)
>>> [m.operation for m in polynomial_moves(sp.Eq(3 * x + 5, 11), p)]
['subtract $5$ from both sides']
"""

from __future__ import annotations

import sympy as sp

from veristep.propose.symbolic.moves import Move, Problem, bare_tex, math, subtract_words, tex


def _split_terms(expr: sp.Basic, x: sp.Symbol) -> tuple[sp.Basic, sp.Basic]:
    """(terms with x, terms without x) of an expanded sum."""
    with_x, without = sp.S.Zero, sp.S.Zero
    for term in sp.Add.make_args(expr):
        if term.has(x):
            with_x += term
        else:
            without += term
    return with_x, without


def is_polynomial_equation(state: sp.Basic, x: sp.Symbol | None) -> bool:
    if x is None or not isinstance(state, sp.Eq):
        return False
    diff = state.lhs - state.rhs
    return diff.has(x) and diff.is_polynomial(x)


def degree(state: sp.Eq, x: sp.Symbol) -> int:
    """The degree in x; a power too high to expand (2(x - 1)^{99999} = 5, expanded for a
    minute) is taken at its written degree, which only chooses the moves: isolate, then root."""
    bound = _written_degree(state.lhs - state.rhs, x)
    if bound > _EXPANDED_DEGREE:
        return bound
    return sp.Poly(sp.expand(state.lhs - state.rhs), x).degree()


_EXPANDED_DEGREE = 64


def _written_degree(e: sp.Basic, x: sp.Symbol) -> int:
    """An upper bound of the degree of a polynomial e in x, read off its tree (no expansion)."""
    if not e.has(x):
        return 0
    if e == x:
        return 1
    if isinstance(e, sp.Add):
        return max(_written_degree(t, x) for t in e.args)
    if isinstance(e, sp.Mul):
        return sum(_written_degree(f, x) for f in e.args)
    if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp >= 0:
        return int(e.exp) * _written_degree(e.base, x)
    return _EXPANDED_DEGREE  # not a polynomial form: let Poly decide


def _add_both(state: sp.Eq, term: sp.Basic, why: str, name: str = "move-constant") -> Move:
    """Subtract ``term`` from both sides (or add its negative: the wording follows the sign)."""
    new = sp.Eq(sp.expand(state.lhs - term), sp.expand(state.rhs - term))
    return Move(name, subtract_words(term), why, "rewrite", new)


def _scale(state: sp.Eq, factor: sp.Basic, why: str) -> Move:
    """Divide both sides by ``factor``; a coefficient ``\\frac{1}{g}`` is undone by multiplying
    by ``g`` (nobody divides by a fraction with a letter underneath)."""
    num, den = sp.fraction(sp.together(factor))
    if num.is_number and num != 0 and den.free_symbols:
        by = den / num
        new = sp.Eq(sp.expand(state.lhs * by), sp.expand(state.rhs * by))
        why = f"isolate the unknown; {_nonzero(den)}, as it is a denominator"
        return Move("multiply", f"multiply both sides by {tex(by)}", why, "solve", new)
    new = sp.Eq(sp.expand(state.lhs / factor), sp.expand(state.rhs / factor))
    return Move("divide", f"divide both sides by {tex(factor)}", why, _division_type(factor), new)


def _nonzero(expr: sp.Basic) -> str:
    return math(bare_tex(expr) + " \\ne 0")


def _division_type(factor: sp.Basic) -> str:
    # Dividing by a parameter loses the case where it is zero: claim "solve", not "rewrite".
    return "solve" if factor.free_symbols else "rewrite"


def linear_moves(state: sp.Eq, p: Problem) -> list[Move]:
    """The next move toward ``x = value`` for an equation of degree one in x."""
    x = p.var
    lhs, rhs = state.lhs, state.rhs
    factored = _unknown_factored_out(lhs, x)
    if (sp.expand(lhs) != lhs and not factored) or sp.expand(rhs) != rhs:
        new = sp.Eq(sp.expand(lhs), sp.expand(rhs))
        return [Move("expand", "expand the brackets", "distributive law", "rewrite", new)]
    lcd = sp.lcm([sp.fraction(sp.together(t))[1] for t in sp.Add.make_args(lhs - rhs)])
    if lcd != 1 and lcd.is_number:
        new = sp.Eq(sp.expand(lhs * lcd), sp.expand(rhs * lcd))
        why = f"clear the fractions; {tex(lcd)} is the least common denominator and is non-zero"
        return [Move("clear-fractions", f"multiply both sides by {tex(lcd)}", why, "rewrite", new)]
    if not lhs.has(x) and rhs.has(x):
        return [
            Move("swap", "swap the two sides", "equality is symmetric", "rewrite", sp.Eq(rhs, lhs))
        ]
    x_right, _ = _split_terms(rhs, x)
    if x_right != 0:
        why = "collect the terms with the unknown on the left"
        return [_add_both(state, x_right, why, "collect-unknown")]
    _, const_left = _split_terms(lhs, x)
    if const_left != 0:
        return [_add_both(state, const_left, "isolate the term with the unknown")]
    coeff = sp.factor(sp.simplify(lhs / x))
    if coeff.as_coeff_Mul()[0].is_negative:
        # factor() makes the first letter's coefficient positive (3y^2 - 6x as -3(2x - y^2)):
        # keep the signs the terms were written with, only the common factor taken out.
        coeff = sp.factor_terms(sp.expand(lhs / x))
    several = len(sp.Add.make_args(lhs)) > 1
    if several and (coeff.free_symbols or not coeff.is_Rational) and not coeff.has(x):
        # a x − c x = d − b: a teacher writes (a − c) x first, then divides by the bracket;
        # the same for a coefficient that no arithmetic collects (x − e x is (1 − e) x)
        new = sp.Eq(sp.Mul(x, coeff), rhs)
        why = "the terms with the unknown share the factor " + math(bare_tex(x))
        return [Move("factor-unknown", f"factor {tex(x)} out", why, "rewrite", new)]
    if coeff != 1 and not coeff.has(x):
        why = "isolate the unknown; the coefficient is non-zero"
        if coeff.free_symbols:
            why += f" (assuming {_nonzero(coeff)})"
        return [_scale(state, coeff, why)]
    return []


def _unknown_factored_out(lhs: sp.Basic, x: sp.Symbol) -> bool:
    """``lhs`` is ``x`` times a bracket free of x, ``(a − c) x``: the form a division finishes."""
    if not isinstance(lhs, sp.Mul):
        return False
    rest = lhs / x
    return not rest.has(x) and isinstance(sp.factor(rest), (sp.Add, sp.Mul))


def standard_form_move(state: sp.Eq, x: sp.Symbol) -> Move:
    """Everything on one side, on the side where the leading coefficient is positive."""
    lhs, rhs = state.lhs, state.rhs
    diff = sp.expand(lhs - rhs)
    if sp.Poly(diff, x).LC().could_extract_minus_sign():
        square = tex(x**2)  # the unknown's square (or the function of x solved for, as sin^2 x)
        why = f"subtract {tex(lhs)} from both sides and swap them, so the {square} term stays "
        why += "positive"
        op = "bring every term to one side"
        return Move("standard-form", op, why, "rewrite", sp.Eq(-diff, 0))
    why = f"subtract {tex(rhs)} from both sides"
    return Move(
        "standard-form", "bring every term to the left side", why, "rewrite", sp.Eq(diff, 0)
    )


def _zero_product(state: sp.Eq, factored: sp.Basic, x: sp.Symbol) -> Move | None:
    factors = [f for f in sp.Mul.make_args(factored) if f.has(x)]
    if len(factors) < 2:
        return None
    cases = [sp.Eq(f.base if isinstance(f, sp.Pow) else f, 0) for f in factors]
    return Move(
        "zero-product",
        "set each factor equal to zero",
        "a product is zero exactly when one of its factors is zero",
        "rewrite",
        sp.Or(*cases),
    )


def quadratic_moves(state: sp.Eq, p: Problem) -> list[Move]:
    """Candidates for a degree-two equation, in the order a teacher would try them."""
    x = p.var
    lhs, rhs = state.lhs, state.rhs
    poly = sp.Poly(sp.expand(lhs - rhs), x)
    a, b, c = (poly.coeff_monomial(x**k) for k in (2, 1, 0))
    moves: list[Move] = []
    # A factored product equal to zero: split it.
    if rhs == 0 and isinstance(lhs, sp.Mul | sp.Pow):
        move = _zero_product(state, lhs, x)
        if move:
            return [move]
    if b == 0 and not rhs.has(x) and lhs == sp.expand(lhs) and not c.free_symbols - {x}:
        moves += _pure_square_moves(state, x, a, c)
    if p.wants_pm or a.free_symbols or b.free_symbols or c.free_symbols:
        moves += complete_square_moves(state, p)
    if rhs != 0:
        moves.append(standard_form_move(state, x))
    else:
        factored = sp.factor(lhs)
        if factored != lhs and _zero_product(state, factored, x) is not None:
            moves.append(
                Move(
                    "factor", "factor the left side", "factorisation", "rewrite", sp.Eq(factored, 0)
                )
            )
    moves += complete_square_moves(state, p)
    return _unique(moves)


def _pure_square_moves(state: sp.Eq, x: sp.Symbol, a: sp.Basic, c: sp.Basic) -> list[Move]:
    lhs, rhs = state.lhs, state.rhs
    if lhs == a * x**2 and a != 1:
        return [_scale(state, a, "isolate the square; the coefficient is non-zero")]
    if lhs == x**2 and not rhs.has(x):
        if rhs.is_negative:
            return [
                Move(
                    "no-real-root",
                    "note that a square is never negative",
                    "no real number squares to a negative number",
                    "rewrite",
                    sp.false,
                )
            ]
        root = sp.sqrt(rhs)
        cases = sp.Or(sp.Eq(x, -root), sp.Eq(x, root)) if root != 0 else sp.Eq(x, 0)
        return [
            Move(
                "square-root",
                "take the square root of both sides",
                "$u^2 = k$ with $k \\ge 0$ means $u = \\sqrt{k}$ or $u = -\\sqrt{k}$",
                "rewrite",
                cases,
            )
        ]
    _, const_left = _split_terms(lhs, x)
    if const_left != 0:
        return [_add_both(state, const_left, "isolate the square")]
    return []


def complete_square_moves(state: sp.Eq, p: Problem) -> list[Move]:
    """Completing the square on ``a x^2 + b x + c = 0``, one move at a time (the formula)."""
    x = p.var
    lhs, rhs = state.lhs, state.rhs
    if isinstance(lhs, sp.Pow) and lhs.exp == 2 and not rhs.has(x):
        if isinstance(rhs, sp.Add) and sp.together(rhs) != rhs and len(rhs.args) > 1:
            num, den = sp.fraction(sp.together(rhs))
            new = sp.Eq(lhs, sp.Mul(sp.expand(num), sp.Pow(den, -1)))
            return [
                Move(
                    "combine-rhs",
                    "combine the right side over a common denominator",
                    "add the fractions",
                    "rewrite",
                    new,
                )
            ]
        return [_square_root_of_square(lhs.base, rhs, x)]
    poly = sp.Poly(sp.expand(lhs - rhs), x) if (lhs - rhs).is_polynomial(x) else None
    if poly is None or poly.degree() != 2:
        return []
    a, b, c = (poly.coeff_monomial(x**k) for k in (2, 1, 0))
    if a == 1 and b != 0 and not rhs.has(x) and sp.expand(lhs - (x + b / 2) ** 2) == 0:
        return [_perfect_square(state, x, b / 2)]
    if rhs == 0 and c != 0:
        return [_add_both(state, c, "keep the terms with the unknown on the left")]
    if a != 1:
        why = "make the leading coefficient 1"
        if a.free_symbols:
            why += f"; assuming {_nonzero(a)}, as the equation is quadratic"
        new = sp.Eq(sp.expand(lhs / a), sp.expand(rhs / a))
        return [Move("divide", f"divide both sides by {tex(a)}", why, _division_type(a), new)]
    if b == 0:
        return []
    half = b / 2
    if lhs == sp.expand(x**2 + b * x) and not rhs.has(x):
        sq = half**2
        new = sp.Eq(lhs + sq, rhs + sq)
        return [
            Move(
                "add-square",
                f"add {tex(sq)} to both sides",
                "complete the square: half the coefficient of $x$, squared",
                "rewrite",
                new,
            )
        ]
    return []


def _perfect_square(state: sp.Eq, x: sp.Symbol, half: sp.Basic) -> Move:
    h = bare_tex(half)
    why = math(f"x^2 + 2 \\cdot {h} x + ({h})^2 = (x + {h})^2")
    operation = "write the left side as a perfect square"
    new = sp.Eq(sp.Pow(x + half, 2), state.rhs)
    if new is sp.false:
        # (x + 1)^2 = -4 is read as False over the reals: the line is printed as written, and
        # the next line says why no real number solves it.
        square = bare_tex(sp.Eq(sp.Pow(x + half, 2), state.rhs, evaluate=False))
        return _no_real_root(x, ((operation, why, square),))
    return Move("perfect-square", operation, why, "rewrite", new)


def _no_real_root(x: sp.Symbol, before: tuple[tuple[str, str, str], ...] = ()) -> Move:
    """The line after a square set equal to a negative number: no real solution, written as the
    empty solution set (a ⊥ means nothing to a learner)."""
    return Move(
        "no-real-root",
        "note that a square is never negative",
        "no real number squares to a negative number",
        "rewrite",
        sp.false,
        latex=f"{bare_tex(x)} \\in \\emptyset",
        before=before,
    )


def _square_root_of_square(base: sp.Basic, rhs: sp.Basic, x: sp.Symbol) -> Move:
    num, den = sp.fraction(sp.together(rhs))
    # sqrt(4 a^2) = 2|a|; the ± that follows absorbs the sign, so 2a may be written.
    root_den = sp.powdenest(sp.sqrt(den), force=True)
    root = sp.sqrt(num) / root_den
    why = (
        "$u^2 = k$ means $u = \\sqrt{k}$ or $u = -\\sqrt{k}$; "
        "$\\pm$ absorbs the sign of the denominator"
    )
    if num.is_number and num.is_negative:
        return _no_real_root(x)
    cases = sp.Or(sp.Eq(base, -root), sp.Eq(base, root))
    return Move("square-root", "take the square root of both sides", why, "rewrite", cases)


def _unique(moves: list[Move]) -> list[Move]:
    seen: set[str] = set()
    out = []
    for m in moves:
        key = sp.srepr(m.state)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def polynomial_moves(state: sp.Basic, p: Problem) -> list[Move]:
    """Moves for a polynomial equation in ``p.var`` of degree one or two."""
    if not is_polynomial_equation(state, p.var):
        return []
    deg = degree(state, p.var)
    if deg == 1:
        return linear_moves(state, p)
    if deg == 2:
        return quadratic_moves(state, p)
    return _higher_degree_moves(state, p)


def _higher_degree_moves(state: sp.Eq, p: Problem) -> list[Move]:
    x = p.var
    lhs, rhs = state.lhs, state.rhs
    if not lhs.has(x) and rhs.has(x):
        return [Move("swap", "swap the two sides", "equality is symmetric", "rewrite",
                     sp.Eq(rhs, lhs))]  # fmt: skip
    isolated = _isolate_power(state, x)
    if isolated is not None:
        return [isolated]
    root = _nth_root_move(lhs, rhs, x)
    if root is not None:
        return [root]
    if rhs != 0:
        return _power_alone(state, x) or [standard_form_move(state, x)]
    if isinstance(lhs, sp.Mul):
        move = _zero_product(state, lhs, x)
        return [move] if move else []
    return _power_alone(state, x) + _factor_moves(lhs)


def _power_alone(state: sp.Eq, x: sp.Symbol) -> list[Move]:
    """a u^n + c = d (n ≥ 3, u = x or linear in x, a, c and d free of x): the constant to the
    right first, as a teacher does (x^3 - 64 = 0 → x^3 = 64 → x = 4; 2t^3 + 5 = A → 2t^3 =
    A - 5); factoring stays the alternative. The power is kept as written ((x - 2)^3 is not
    expanded)."""
    terms = sp.Add.make_args(state.lhs)
    powers = [t for t in terms if t.has(x)]
    constant = sp.Add(*(t for t in terms if not t.has(x)))
    if len(powers) != 1 or constant == 0 or not _known_value(state.rhs, x):
        return []
    if _unknown_power(powers[0], x) is None or not _known_value(constant, x):
        return []
    new = sp.Eq(powers[0], state.rhs - constant)
    why = "isolate the power of the unknown"
    return [Move("move-constant", subtract_words(constant), why, "rewrite", new)]


def _unknown_power(term: sp.Basic, x: sp.Symbol) -> tuple[sp.Basic, sp.Pow] | None:
    """``term`` as (a, u^n) with a free of x (4π/3, ρ), n ≥ 3 and u = x or linear in x."""
    coeff, power = term.as_independent(x, as_Add=False)
    if coeff == 0 or (coeff.is_number and not coeff.is_real):
        return None
    if not (isinstance(power, sp.Pow) and power.exp.is_Integer and power.exp > 2):
        return None
    return (coeff, power) if _linear_in(power.base, x) else None


def _factor_moves(lhs: sp.Basic) -> list[Move]:
    from veristep.propose.symbolic.factoring import factor_theorem

    divided = factor_theorem(lhs)  # a root found by trial, then the division: two lines, shown
    if divided is not None:
        return [Move(divided.name, divided.operation, divided.justification, "rewrite",
                     sp.Eq(divided.state, 0))]  # fmt: skip
    factored = sp.factor(lhs)
    if factored != lhs and isinstance(factored, sp.Mul):
        return [
            Move("factor", "factor the left side", "factorisation", "rewrite", sp.Eq(factored, 0))
        ]
    return []


def _isolate_power(state: sp.Eq, x: sp.Symbol) -> Move | None:
    """a u^n = c with numbers a ≠ 1 and c: divide by a first, as a teacher does, so that the
    root of both sides is taken of u^n alone (2x^3 = -16 → x^3 = -8 → x = -2)."""
    found = _unknown_power(state.lhs, x)
    if found is None or found[0] in (0, 1) or not _known_value(state.rhs, x):
        return None
    coeff, power = found
    why = "isolate the power of the unknown"
    if coeff.free_symbols:  # ρa^3 = m: the formula's letter is assumed nonzero, and said so
        why += f" (assuming {_nonzero(coeff)})"
    kind = _division_type(coeff)
    if sp.fraction(coeff)[1] != 1:  # ½x^5: multiply by 2; 4πr^3/3: multiply by 3/4π
        op = f"multiply both sides by {tex(1 / coeff)}"
        return Move("multiply", op, why, kind, sp.Eq(power, state.rhs / coeff))
    op = f"divide both sides by {tex(coeff)}"
    return Move("divide", op, why, kind, sp.Eq(power, state.rhs / coeff))


def _nth_root_move(lhs: sp.Basic, rhs: sp.Basic, x: sp.Symbol) -> Move | None:
    """u^n = c, u = x or a linear expression in x ((x - 2)^3 = 27 → x - 2 = 3): the real n-th
    roots (two for even n and c > 0, one for odd n)."""
    if not (isinstance(lhs, sp.Pow) and lhs.exp.is_Integer and lhs.exp > 2):
        return None
    if not _linear_in(lhs.base, x) or not _known_value(rhs, x):
        return None
    n, u = int(lhs.exp), lhs.base
    if n % 2 == 1 and not rhs.is_number:
        # r^3 = 3V/4π → r = ∛(3V/4π): one real root whatever the sign of the right side, in
        # the form the parser gives \sqrt[3]{…} (the printer writes it back as a root).
        root = sp.sign(rhs) * sp.Pow(sp.Abs(rhs), sp.Rational(1, n))
        why = f"$u \\mapsto u^{n}$ is one-to-one for odd {n}"
        op = f"take the real {_ordinal(n)} root of both sides"
        return Move("nth-root", op, why, "rewrite", sp.Eq(u, root))
    if not rhs.is_number:
        return None  # an even root of a letter needs its sign: the formula's conditions decide
    if n % 2 == 1:
        root = sp.real_root(rhs, n)
        why = f"$u \\mapsto u^{n}$ is one-to-one for odd {n}"
        op = f"take the real {_ordinal(n)} root of both sides"
        return Move("nth-root", op, why, "rewrite", sp.Eq(u, root))
    if rhs.is_negative:
        return Move("no-real-root", "note that an even power is never negative",
                    "no real number has a negative even power", "rewrite", sp.false)  # fmt: skip
    root = sp.root(rhs, n)
    cases = sp.Or(sp.Eq(u, -root), sp.Eq(u, root)) if root != 0 else sp.Eq(u, 0)
    why = f"$u^{n} = k$ with $k \\ge 0$ means $u = \\pm k^{{1/{n}}}$"
    return Move("nth-root", f"take the {_ordinal(n)} root of both sides", why, "rewrite", cases)


def _known_value(c: sp.Basic, x: sp.Symbol) -> bool:
    """A real number, or an expression in the other letters of a formula (V in r^3 = 3V/4π)."""
    return bool(c.is_number and c.is_real) or (not c.is_number and not c.has(x))


def _linear_in(u: sp.Basic, x: sp.Symbol) -> bool:
    """``u`` is x, or a x + b with numbers a ≠ 0 and b."""
    if u == x:
        return True
    if not u.is_polynomial(x) or u.free_symbols != {x}:
        return False
    return sp.Poly(u, x).degree() == 1


def _ordinal(n: int) -> str:
    return {3: "cube", 4: "fourth", 5: "fifth", 6: "sixth"}.get(n, f"{n}th")
