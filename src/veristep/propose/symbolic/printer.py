"""LaTeX for planner states: SymPy's style, with the few notations a reader (and our parser) needs.

SymPy's own printer is almost right; the exceptions are exactly the places where its output would be
ambiguous or outside the whitelisted notation: an unevaluated derivative must bracket its body
(``\\frac{d}{dx} x^{2} \\sin x`` could mean either factor), integrals drop ``\\limits``, and a
disjunction of roots is written with ``\\lor``.

>>> import sympy as sp
>>> x = sp.Symbol("x")
>>> to_latex(sp.Derivative(x**2, x) * sp.sin(x))
'\\\\sin{\\\\left(x \\\\right)} \\\\frac{d}{dx}\\\\left(x^{2}\\\\right)'
>>> to_latex(sp.Or(sp.Eq(x, 2), sp.Eq(x, -2)))
'x = -2 \\\\lor x = 2'
>>> to_latex(sp.Integral(x**2, (x, 0, 1)))
'\\\\int_{0}^{1} x^{2} \\\\, dx'
"""

from __future__ import annotations

import re

import sympy as sp
from sympy.printing.latex import LatexPrinter


class _StatePrinter(LatexPrinter):
    def __init__(self, carried: dict[sp.Basic, list[sp.Basic]] | None = None) -> None:
        super().__init__({"ln_notation": True})
        self._carried = carried or {}  # sums printed in the previous line's order of terms

    def _print_Derivative(self, expr: sp.Derivative) -> str:
        (var, count), *rest = expr.variable_count
        if rest or count != 1:
            return super()._print_Derivative(expr)
        return rf"\frac{{d}}{{d{self._print(var)}}}\left({self._print(expr.expr)}\right)"

    def _print_Integral(self, expr: sp.Integral) -> str:
        if len(expr.limits) != 1 or len(expr.limits[0]) != 3:
            return super()._print_Integral(expr)
        var, low, high = expr.limits[0]
        body = self._print(expr.function)
        if isinstance(expr.function, sp.Add):
            body = rf"\left({body}\right)"
        return rf"\int_{{{self._print(low)}}}^{{{self._print(high)}}} {body} \, d{self._print(var)}"

    def _print_Limit(self, expr: sp.Limit) -> str:
        body, var, point, direction = expr.args
        approach = self._print(point)
        if point.is_finite and str(direction) in ("+", "-"):
            approach += "^{" + str(direction) + "}"
        return rf"\lim_{{{self._print(var)} \to {approach}}} \left({self._print(body)}\right)"

    def _print_log(self, expr: sp.log, exp: str | None = None) -> str:
        # A logarithm held with its base (log(81, 3), unevaluated) keeps the base in print.
        if len(expr.args) != 2:
            return super()._print_log(expr, exp)
        arg, base = expr.args
        text = rf"\log_{{{self._print(base)}}}{{\left({self._print(arg)} \right)}}"
        return rf"{text}^{{{exp}}}" if exp else text

    def _print_Add(self, expr: sp.Add, order: str | None = None) -> str:
        ordered = self._carried.get(expr)
        if ordered is not None:
            return super()._print_Add(sp.Add(*ordered, evaluate=False), order="none")
        # A polynomial in several letters in the conventional order: by degree, then the later
        # letters' powers first among equals (b^2 - 4ac, never -4ac + b^2).
        if order is None and len(expr.free_symbols) > 1 and expr.is_polynomial():
            order = "grevlex"
        return super()._print_Add(expr, order=order)

    def _print_Mul(self, expr: sp.Mul) -> str:
        written = _odd_roots_as_written(expr)
        if written is not None:
            return self._print(written)
        # Factors as a teacher writes them: letters first, then the linear brackets by their
        # roots in increasing order ((x - 2)(x - 3), never (x - 3)(x - 2)).
        found = _teacher_factors(expr)
        if found is None:
            return super()._print_Mul(expr)
        coeff, letters, brackets = found
        parts = [self._print(f) for f in letters]
        for base, exp in brackets:
            power = "" if exp == 1 else f"^{{{self._print(exp)}}}"
            parts.append(f"\\left({self._print(base)}\\right){power}")
        prefix = {1: "", -1: "-"}.get(coeff)
        return (self._print(coeff) + " " if prefix is None else prefix) + " ".join(parts)

    def _print_Or(self, expr: sp.Or) -> str:
        return " \\lor ".join(self._grouped(arg, sp.And) for arg in _ordered_cases(expr))

    def _print_And(self, expr: sp.And) -> str:
        # As a person writes a conjunction: the equations, then "k ∈ ℤ", then the bounds.
        rank = {sp.Eq: 0, sp.Or: 0, sp.Contains: 1}
        args = sorted(expr.args, key=lambda a: rank.get(type(a), 2))
        return " \\land ".join(self._grouped(arg, sp.Or) for arg in args)

    def _grouped(self, arg: sp.Basic, inner: type) -> str:
        # ∧ and ∨ mixed: brackets make the grouping explicit.
        text = self._print(arg)
        return f"\\left({text}\\right)" if isinstance(arg, inner) else text


def _odd_roots_as_written(expr: sp.Mul) -> sp.Basic | None:
    """sgn(u)·|u|^(1/n), n odd, is the real n-th root of u: printed \\sqrt[n]{u}, which the
    parser reads back as that same real root (never SymPy's sgn and absolute value)."""
    for f in expr.args:
        if isinstance(f, sp.sign):
            u = f.args[0]
            for g in expr.args:
                if (
                    isinstance(g, sp.Pow)
                    and g.base == sp.Abs(u)
                    and g.exp.is_Rational
                    and g.exp.p == 1
                    and g.exp.q % 2 == 1
                ):
                    rest = [h for h in expr.args if h not in (f, g)]
                    return sp.Mul(*rest, sp.Pow(u, g.exp, evaluate=False), evaluate=False)
    return None


def _ordered_cases(expr: sp.Or) -> list[sp.Basic]:
    # Roots read best in increasing order when they are numbers (x - 2 = 0 before x - 3 = 0 as
    # well as x = 2 before x = 3); otherwise keep SymPy's order.
    args = list(expr.args)
    try:
        return sorted(args, key=case_value)
    except (TypeError, ValueError):
        return args


def case_value(case: sp.Basic) -> float:
    """The value a case gives its unknown, as a number: letters other than the unknown take fixed
    sample values, so the same root sorts the same way on every line (the quadratic formula's
    minus branch stays on the left from "take the square root" to the simplified values)."""
    if isinstance(case, sp.And):
        return _interval_key(case)
    if not isinstance(case, sp.Eq):
        return 0.0
    e = case.lhs - case.rhs
    letters = sorted(e.free_symbols, key=lambda v: (v.name != "x", v.name))
    root = None
    # The unknown, or a function of it the case is solved for (sin x = 1/2, e^x = 3).
    functions = sorted(e.atoms(sp.Function), key=sp.default_sort_key)
    for unknown in [*letters, *functions]:
        root = _root_in(e, unknown)
        if root is not None:
            break
    if root is None:
        root = case.rhs
    if not root.free_symbols:
        return float(root)
    others = sorted(root.free_symbols, key=lambda v: v.name)
    for sample in _SAMPLES:
        value = complex(root.subs({v: sample[i % len(sample)] for i, v in enumerate(others)}))
        if abs(value.imag) < 1e-12:
            return value.real
    raise ValueError("no real sample value")


def _interval_key(case: sp.And) -> float:
    """A case restricted to an interval sorts by where the interval lies (its lower bound, or
    just below its upper one); a case without number bounds by the root of its equation."""
    lower = [float(r.rhs) for r in case.args if isinstance(r, sp.GreaterThan | sp.StrictGreaterThan)
             and r.lhs.is_Symbol and r.rhs.is_number]  # fmt: skip
    upper = [float(r.rhs) for r in case.args if isinstance(r, sp.LessThan | sp.StrictLessThan)
             and r.lhs.is_Symbol and r.rhs.is_number]  # fmt: skip
    if lower:
        return max(lower)
    if upper:
        return min(upper) - 1.0
    equations = [a for a in case.args if isinstance(a, sp.Eq)]
    return case_value(equations[0]) if equations else 0.0


# Values for the other letters when a root is compared by its value: the first makes b^2 - 4ac
# positive for (a, b, c), the others cover different signs.
_SAMPLES = ((0.37, 2.71, 0.53, 1.9, 0.77, 1.3), (2.3, -0.41, -1.7, 0.59, 3.1, 0.83))


def _root_in(e: sp.Basic, unknown: sp.Symbol) -> sp.Basic | None:
    """The root of ``e`` in ``unknown`` when e is linear in it, else None."""
    try:
        poly = sp.Poly(e, unknown)
    except sp.PolynomialError:
        return None
    if poly.degree() != 1 or any(c.free_symbols & unknown.free_symbols for c in poly.all_coeffs()):
        return None
    a, b = poly.all_coeffs()
    return -b / a


def _linear_root(e: sp.Basic) -> sp.Basic | None:
    """The root of ``e`` when it is linear with number coefficients in its one letter."""
    letters = e.free_symbols
    if len(letters) != 1:
        return None
    if not e.is_polynomial(*letters):
        # Linear in one function of the letter (sin x - 1): its root is that function's value.
        functions = e.atoms(sp.Function)
        return _root_in(e, functions.pop()) if len(functions) == 1 else None
    poly = sp.Poly(e, *letters)
    if poly.degree() != 1 or not all(c.is_number for c in poly.all_coeffs()):
        return None
    a, b = poly.all_coeffs()
    return -b / a


def _teacher_factors(expr: sp.Mul) -> tuple[sp.Basic, list, list] | None:
    """A product in one letter of the letter's powers and two or more linear brackets:
    (number coefficient, the letter's powers, the brackets as (base, exponent) by root).
    None for any other product, which SymPy prints as it does."""
    coeff, rest = expr.as_coeff_Mul()
    if len(rest.free_symbols) != 1 or not coeff.is_Rational:
        return None
    letters, brackets = [], []
    for factor in sp.Mul.make_args(rest):
        base, exp = factor.as_base_exp()
        if base.is_Symbol or _function_of_letter(base):
            letters.append(factor)
        elif isinstance(base, sp.Add) and exp.is_Integer and exp > 0:
            root = _linear_root(base)
            if root is None or not root.is_real:
                return None
            brackets.append((float(root), base, exp))
        else:
            return None
    # One bracket beside a function factor still needs the teacher's order: the common factor
    # first (\sin x (2 \cos x - 1)), as the cases it splits into are then ordered.
    functions = [f for f in letters if not f.as_base_exp()[0].is_Symbol]
    if len(brackets) < 2 and not (brackets and functions):
        return None
    brackets.sort(key=lambda b: b[0])
    return coeff, letters, [(base, exp) for _, base, exp in brackets]


def _function_of_letter(base: sp.Basic) -> bool:
    """``\\sin x``, ``\\cos x``, ``\\tan x``, ``e^x``: a factor a teacher writes like a letter."""
    return isinstance(base, (sp.sin, sp.cos, sp.tan, sp.exp)) and base.args[0].is_Symbol


class _DecimalPrinter(_StatePrinter):
    """For a computation written in decimals: a fraction whose denominator has no prime but 2
    and 5 prints as the exact decimal it is (15/4 as 3.75); any other stays a fraction."""

    def _print_Rational(self, expr: sp.Rational) -> str:
        text = decimal_text(expr)
        return text if text is not None else super()._print_Rational(expr)


def decimal_text(value: sp.Rational) -> str | None:
    """The exact decimal of a terminating fraction, else None.

    >>> [decimal_text(sp.Rational(p, q)) for p, q in [(15, 4), (-3, 50), (1, 3)]]
    ['3.75', '-0.06', None]
    """
    q, twos, fives = int(value.q), 0, 0
    while q % 2 == 0:
        q, twos = q // 2, twos + 1
    while q % 5 == 0:
        q, fives = q // 5, fives + 1
    if q != 1:
        return None
    places = max(twos, fives)
    scaled = abs(int(value.p)) * 10**places // int(value.q)
    whole, frac = divmod(scaled, 10**places) if places else (scaled, 0)
    sign = "-" if value < 0 else ""
    return f"{sign}{whole}" + (f".{frac:0{places}d}" if places else "")


_PRINTER = _StatePrinter()
_DECIMAL_PRINTER = _DecimalPrinter()

# A product ``f·(u + v)`` prints as ``f \left(u + v\right)``, which reads back as the function f
# applied to u + v (f, g, h, F, G always; y, u, v of one variable). An explicit \cdot keeps it a
# product. SymPy prints a real application with braces (``f{\left(x \right)}``), left alone.
_READS_AS_APPLICATION = re.compile(r"(?<![\\A-Za-z])([fghFGyuv]) \\left\(")


def to_latex(expr: sp.Basic, *, decimals: bool = False, previous: sp.Basic | None = None) -> str:
    """The LaTeX of one planner state (``decimals``: terminating fractions as decimals).

    With ``previous`` (the line before), a sum whose terms the previous line had keeps their
    order there, and a new term takes the place of the one it replaced, as a teacher copies a
    line: ``m x + c = y`` becomes ``m x = y - c``, never ``m x = - c + y``. A polynomial in one
    letter keeps descending powers whatever the line before did. :class:`Lines` carries the
    order along a whole derivation.

    >>> m, x, c, y = sp.symbols("m x c y")
    >>> to_latex(sp.Eq(m * x, y - c)), to_latex(sp.Eq(m * x, y - c), previous=sp.Eq(m * x + c, y))
    ('m x = - c + y', 'm x = y - c')
    """
    return _printed(expr, decimals, _carried_orders(expr, previous, {}))[0]


class Lines:
    """Prints a derivation's lines in turn, each in the order of terms of the line before (as
    that line was printed).

    >>> a, b = sp.symbols("a b")
    >>> lines = Lines()
    >>> [lines.line(e) for e in (sp.Eq(b + a, 3), sp.Eq(b, 3 - a), sp.Eq(b, -a + 3))]
    ['a + b = 3', 'b = 3 - a', 'b = 3 - a']
    """

    def __init__(self, *, decimals: bool = False) -> None:
        self.decimals = decimals
        self.previous: sp.Basic | None = None
        self.orders: dict[sp.Basic, list[sp.Basic]] = {}

    def start(self, expr: sp.Basic, written: sp.Basic | None = None) -> None:
        """The first line, shown as the learner typed it: ``written`` (the same start converted
        unevaluated, so each sum's terms stand in the typed order) gives the order to carry."""
        self.previous, self.orders = expr, _written_orders(written) if written is not None else {}

    def line(self, expr: sp.Basic) -> str:
        carried = _carried_orders(expr, self.previous, self.orders)
        text, _ = _printed(expr, self.decimals, carried)
        self.previous, self.orders = expr, carried
        return text


def _written_orders(written: sp.Basic) -> dict[sp.Basic, list[sp.Basic]]:
    """Each sum of an unevaluated start, keyed by its evaluated form, with its terms in the
    order they were typed (``\\sec x - \\cos x``: sec first, whatever SymPy's order)."""
    out: dict[sp.Basic, list[sp.Basic]] = {}
    try:
        for node in sp.preorder_traversal(written):
            if isinstance(node, sp.Add):
                terms = [t.doit() for t in _flat_terms(node)]
                key = node.doit()
                if isinstance(key, sp.Add) and sorted(map(sp.srepr, terms)) == sorted(
                    map(sp.srepr, sp.Add.make_args(key))
                ):
                    out[key] = terms
    except (TypeError, ValueError, AttributeError, RecursionError):
        return {}
    return out


def _flat_terms(node: sp.Basic) -> list[sp.Basic]:
    if isinstance(node, sp.Add):
        return [t for a in node.args for t in _flat_terms(a)]
    return [node]


def _printed(
    expr: sp.Basic, decimals: bool, carried: dict[sp.Basic, list[sp.Basic]]
) -> tuple[str, dict[sp.Basic, list[sp.Basic]]]:
    if expr is sp.true:
        return r"\top", carried
    if expr is sp.false:
        return r"\bot", carried
    if carried:
        printer: _StatePrinter = (_DecimalPrinter if decimals else _StatePrinter)(carried)
    else:
        printer = _DECIMAL_PRINTER if decimals else _PRINTER
    return _READS_AS_APPLICATION.sub(r"\1 \\cdot \\left(", printer.doprint(expr)), carried


def _carried_orders(
    expr: sp.Basic, previous: sp.Basic | None, previous_orders: dict[sp.Basic, list[sp.Basic]]
) -> dict[sp.Basic, list[sp.Basic]]:
    """For each sum of ``expr`` (not a polynomial in one letter) that shares terms with a sum or
    a side of ``previous``: its terms in the order they were printed there."""
    if previous is None or not isinstance(expr, sp.Basic) or not isinstance(previous, sp.Basic):
        return {}
    references = [_printed_terms(a, previous_orders) for a in _sums_and_sides(previous)]
    out: dict[sp.Basic, list[sp.Basic]] = {}
    for node in sp.preorder_traversal(expr):
        if not isinstance(node, sp.Add) or not node.free_symbols or _univariate_polynomial(node):
            continue  # a computation held unevaluated prints as it stands
        terms = list(sp.Add.make_args(node))
        if len(set(terms)) != len(terms):
            continue
        best, score = None, 0
        for ref in references:
            found = sum(1 for t in terms if _place(t, ref) is not None)
            if found > score:
                best, score = ref, found
        if best is not None:
            out[node] = _in_order_of(terms, best)
    return out


def _printed_terms(e: sp.Basic, orders: dict[sp.Basic, list[sp.Basic]]) -> list[sp.Basic]:
    """The terms of ``e`` in the order its line printed them."""
    if not isinstance(e, sp.Add):
        return [e]
    if e in orders:
        return orders[e]
    return _default_order(e)


def _default_order(e: sp.Add) -> list[sp.Basic]:
    many = len(e.free_symbols) > 1 and e.is_polynomial()
    return list(e.as_ordered_terms(order="grevlex" if many else None))


def _sums_and_sides(e: sp.Basic) -> list[sp.Basic]:
    found = []
    for node in sp.preorder_traversal(e):
        if isinstance(node, sp.Add):
            found.append(node)
        elif isinstance(node, sp.Rel):
            found += [side for side in node.args if not isinstance(side, sp.Add)]
    return found


def _univariate_polynomial(e: sp.Add) -> bool:
    """A polynomial in one letter or in one function of it (2 \\sin^2 x + \\sin x - 1): printed
    in descending powers, never in a carried order."""
    if len(e.free_symbols) != 1:
        return False
    try:
        gens = sp.Poly(e).gens
    except (sp.PolynomialError, sp.GeneratorsNeeded, TypeError, ValueError):
        return False
    # 1/\sin^2 x - 1 is no polynomial: its generator 1/\sin x is a reciprocal.
    return len(gens) == 1 and not (gens[0].is_Pow and gens[0].exp.is_negative)


def _monomial(term: sp.Basic) -> sp.Basic:
    return term.as_coeff_Mul()[1]


def _place(term: sp.Basic, ref: list[sp.Basic]) -> int | None:
    """Where ``term`` stood in the previous sum: the same term, else the same term up to its
    number coefficient (4x became 2x, c became -c)."""
    if term in ref:
        return ref.index(term)
    same = [i for i, r in enumerate(ref) if _monomial(r) == _monomial(term)]
    return same[0] if len(same) == 1 else None


def _in_order_of(terms: list[sp.Basic], ref: list[sp.Basic]) -> list[sp.Basic]:
    """``terms`` by their place in ``ref``; a new term takes a free place left by a term that
    is gone (in the printer's order), the rest follow at the end."""
    default = _default_order(sp.Add(*terms))
    if set(default) != set(terms):  # the sum was held unevaluated: its own order is the default
        default = list(terms)
    placed = {t: _place(t, ref) for t in terms}
    taken = {i for i in placed.values() if i is not None}
    free = [i for i in range(len(ref)) if i not in taken]
    for t in default:
        if placed[t] is None and free:
            placed[t] = free.pop(0)
    end = len(ref)
    keyed = [(placed[t] if placed[t] is not None else end + default.index(t), t) for t in terms]
    return [t for _, t in sorted(keyed, key=lambda kt: kt[0])]
