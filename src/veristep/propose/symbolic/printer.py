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
    def __init__(self) -> None:
        super().__init__({"ln_notation": True})

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
        # A polynomial in several letters in the conventional order: by degree, then the later
        # letters' powers first among equals (b^2 - 4ac, never -4ac + b^2).
        if order is None and len(expr.free_symbols) > 1 and expr.is_polynomial():
            order = "grevlex"
        return super()._print_Add(expr, order=order)

    def _print_Mul(self, expr: sp.Mul) -> str:
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


def to_latex(expr: sp.Basic, *, decimals: bool = False) -> str:
    """The LaTeX of one planner state (``decimals``: terminating fractions as decimals)."""
    if expr is sp.true:
        return r"\top"
    if expr is sp.false:
        return r"\bot"
    printer = _DECIMAL_PRINTER if decimals else _PRINTER
    return _READS_AS_APPLICATION.sub(r"\1 \\cdot \\left(", printer.doprint(expr))
