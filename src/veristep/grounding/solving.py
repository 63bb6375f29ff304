"""Real solution sets of one-variable statements and how two of them relate (CAS tasks).

Only sets SymPy can compare exactly — finite sets of real numbers, intervals and their unions — are
related; periodic families (``ImageSet``) and unsolved ones (``ConditionSet``) are "undecided".

>>> from sympy import Eq, Or, symbols
>>> x = symbols("x", real=True)
>>> real_solution_set(Or(Eq(x, 2), Eq(x, -2)), x)
{-2, 2}
>>> two_roots = real_solution_set(Eq(x**2, 4), x)
>>> change, kept, lost = compare_sets(two_roots, real_solution_set(Eq(x, 2), x))
>>> change.value, kept, lost
('narrows', [2], [-2])
>>> change, new, _ = compare_sets(two_roots, real_solution_set(Eq(x, 7), x))
>>> change.value, new
('new', [7])
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import Any

from sympy import (
    And,
    Basic,
    Complement,
    EmptySet,
    FiniteSet,
    Ge,
    Gt,
    Intersection,
    Interval,
    Le,
    Lt,
    Ne,
    Or,
    S,
    Set,
    Symbol,
    Union,
    solveset,
)
from sympy.logic.boolalg import BooleanFalse, BooleanTrue

from veristep.grounding.statements import RELATIONS, truth_value


def real_solution_set(s: Basic, var: Symbol) -> Set:
    """The set of real values of ``var`` that make ``s`` true (natural domain and the variable's
    own sign assumption respected: a positive ``x`` never has the root −3).

    The solver works on residuals (``lhs − rhs``), and SymPy cancels while it builds them:
    ``log₂x + x² − (log₂x + 4)`` is ``x² − 4``. So the solver's answer is never trusted alone:
    each value of a finite answer is substituted back into ``s`` as written (its natural real
    domain included) and kept only if it holds; an infinite answer is intersected with the
    natural domain, and left unsolved when that domain is not a set SymPy can compare.

    >>> from sympy import Eq, log, acos, pi, symbols
    >>> x = symbols("x", real=True)
    >>> real_solution_set(Eq(log(x) + x**2, log(x) + 4), x)
    {2}
    >>> real_solution_set(Eq(acos(x), 3*pi/2), x)
    EmptySet
    """
    found = _solve(s, var)
    if isinstance(s, Set):
        return found
    if isinstance(found, FiniteSet):
        kept = [v for v in found if holds(s, var, v) is not False]
        found = FiniteSet(*kept)
    else:
        found = _within_domain(found, s, var)
    if var.is_positive:
        return Intersection(found, Interval.open(0, S.Infinity))
    if var.is_nonnegative:
        return Intersection(found, Interval(0, S.Infinity))
    return found


def _within_domain(found: Set, s: Basic, var: Symbol) -> Set:
    from sympy import ConditionSet

    from veristep.grounding.domain import conditions

    conds = [c for c in conditions(s) if c.has(var)]
    if not conds:
        return found
    domain: Set = S.Reals
    for c in conds:
        part = solve_over_reals(c, var)
        if not comparable(part):
            return ConditionSet(var, s, S.Reals)  # a domain we cannot compare: undecided
        domain = Intersection(domain, part)
    return Intersection(found, domain)


def holds(s: Basic, var: Symbol, value: Any) -> bool | None:
    """Whether ``s`` is true at ``var = value`` *as written*: False when ``value`` lies outside
    the natural real domain of ``s`` (a logarithm of a non-positive number, a pole, an even
    root of a negative number), None when that cannot be decided.

    >>> from sympy import Eq, sqrt, cot, symbols
    >>> x = symbols("x", real=True)
    >>> holds(Eq(sqrt(x - 7), sqrt(2 - x)), x, S(9) / 2)
    False
    >>> holds(Eq(cot(x) + x, cot(x)), x, 0)
    False
    >>> holds(Eq(x**2, 4), x, -2)
    True
    """
    from sympy import sympify

    from veristep.grounding.domain import conditions

    if isinstance(s, Set):  # a line that names the solution set itself
        member = s.contains(sympify(value))
        return bool(member) if isinstance(member, (BooleanTrue, BooleanFalse)) else None
    value = sympify(value)
    verdicts = [truth_value(c.subs(var, value)) for c in conditions(s) if c.has(var)]
    if False in verdicts:
        return False
    if _undefined_at(s, var, value):
        return False
    truth = truth_value(s.subs(var, value))
    if truth is False:
        return False
    if None in verdicts:
        return None
    return truth


def _undefined_at(s: Basic, var: Symbol, value: Basic) -> bool:
    """Some subterm is infinite, NaN or non-real at the point: the state is undefined there."""
    from sympy import Expr, preorder_traversal

    for node in preorder_traversal(s):
        if not isinstance(node, Expr) or not node.has(var):
            continue
        v = node.subs(var, value)
        if v.has(S.ComplexInfinity, S.NaN) or v.is_real is False:
            return True
    return False


def _solve(s: Basic, var: Symbol) -> Set:
    if isinstance(s, Set):  # STACK-style lines such as \mathbb{R} or \emptyset name the set itself
        return s
    if isinstance(s, BooleanTrue):
        return S.Reals
    if isinstance(s, BooleanFalse):
        return S.EmptySet
    if isinstance(s, Or):
        return Union(*(_solve(a, var) for a in s.args))
    if isinstance(s, And):
        return Intersection(*(_solve(a, var) for a in s.args))
    if isinstance(s, Ne):
        return Complement(S.Reals, solve_over_reals(s.lhs - s.rhs, var))
    if isinstance(s, RELATIONS[0]):
        found = solve_over_reals(s.lhs - s.rhs, var)
        return _solve_combined_logs(s.lhs - s.rhs, var) or found
    if isinstance(s, RELATIONS):
        return solve_over_reals(s, var)
    raise ValueError(f"not a statement: {s}")


# A worker solves the same few statements again and again: a step's two states, their domain
# conditions (x + 2 ≥ 0 for every line under √(x + 2)), and the next step's. SymPy objects are
# immutable and hash by structure, so the answers are kept for the worker's life.
@lru_cache(maxsize=1024)
def solve_over_reals(f: Basic, var: Symbol) -> Set:
    """``solveset(f, var, S.Reals)``, remembered; a rational inequality with rational
    coefficients goes straight to SymPy's sign-chart solver.

    ``solveset`` sends every inequality through ``solve_univariate_inequality``, which first
    simplifies the expression to look for a period: most of the time of a ``x² − 2x − 15 < 0``.
    A ratio of polynomials over ℚ has no period, and ``reduce_rational_inequalities`` answers
    with the same set (poles excluded) several times faster.

    >>> from sympy import symbols
    >>> x = symbols("x", real=True)
    >>> solve_over_reals((x - 1) / (x + 2) <= 0, x)
    Interval.Lopen(-2, 1)
    """
    if isinstance(f, (Lt, Le, Gt, Ge)) and _rational_over_q(f, var):
        from sympy.solvers.inequalities import reduce_rational_inequalities

        return reduce_rational_inequalities([[f]], var, relational=False)
    return solveset(f, var, S.Reals)


def _rational_over_q(f: Basic, var: Symbol) -> bool:
    from sympy import Poly, PolynomialError, fraction, together

    if f.free_symbols != {var} or not var.is_real:
        return False
    num, den = fraction(together(f.lhs - f.rhs))
    try:
        return all(Poly(p, var).domain.is_QQ or Poly(p, var).domain.is_ZZ for p in (num, den))
    except PolynomialError:
        return False


def _solve_combined_logs(residual: Basic, var: Symbol) -> Set | None:
    """Roots of a sum of logarithms that ``solveset`` leaves unsolved (log₃(x+1) + log₃(x−1) = 1):
    the logarithms combined into one (log a + log b = log ab, c·log a = log aᶜ), which is an
    identity wherever every logarithm of the equation as written is defined, so no root there is
    lost. Roots it adds outside that domain are the caller's to drop: :func:`real_solution_set`
    substitutes each value of a finite answer back into the statement as written.

    >>> from sympy import log, symbols
    >>> x = symbols("x", real=True)
    >>> _solve_combined_logs(log(x + 1) / log(3) + log(x - 1) / log(3) - 1, x)
    {-2, 2}
    """
    from sympy import fraction, log, logcombine, together

    if not residual.has(log):
        return None
    num, den = fraction(together(residual))
    if den.has(var) or den.is_zero is not False:
        return None
    combined = solveset(logcombine(num.expand(), force=True), var, S.Reals)
    if combined is S.EmptySet or isinstance(combined, FiniteSet):
        return combined
    return None


def comparable(s: Set) -> bool:
    """Finite sets of explicit real numbers, intervals, and unions of those."""
    if s is EmptySet or isinstance(s, Interval) or s == S.Reals:
        return True
    if isinstance(s, FiniteSet):
        return all(v.is_number and v.is_real is not False and not v.free_symbols for v in s)
    if isinstance(s, Union):
        return all(comparable(a) for a in s.args)
    return False


class SetChange(StrEnum):
    """How the next solution set relates to the previous one (:func:`compare_sets`)."""

    EQUAL = "equal"
    NARROWS = "narrows"  # details: the kept values, the lost values
    WIDENS = "widens"  # detail: the extra values
    EMPTY = "empty"  # nothing left; detail: a value of the previous set
    NEW = "new"  # detail: the values of the next set outside the previous one
    UNDECIDED = "undecided"
    # Refinements the solution-set check makes (checks.solution_set):
    NARROWS_ALL = "narrows-all"  # narrows a finite set: the kept and lost values are all of it
    WIDENS_FROM_NOTHING = "widens-from-nothing"  # the previous set was empty


def compare_sets(a: Set, b: Set) -> tuple[SetChange, Any, Any]:
    """Relate the previous set ``a`` to the next set ``b``: the change and its two details."""
    if a == b:
        return (SetChange.EQUAL, None, None)
    if not (comparable(a) and comparable(b)):
        return (SetChange.UNDECIDED, None, None)
    if isinstance(a, FiniteSet) and isinstance(b, FiniteSet):
        b = _align(a, b)
        if b is None:
            return (SetChange.UNDECIDED, None, None)
    extra, lost = Complement(b, a), Complement(a, b)
    if extra is EmptySet and lost is EmptySet:
        return (SetChange.EQUAL, None, None)
    if b is EmptySet:
        return (SetChange.EMPTY, representative(a), None)
    if extra is EmptySet:
        return (SetChange.NARROWS, describe(b), describe(lost))
    if lost is EmptySet:
        return (SetChange.WIDENS, describe(extra), None)
    return (SetChange.NEW, describe(extra), None)


def _align(a: FiniteSet, b: FiniteSet) -> FiniteSet | None:
    """``b`` with each element replaced by the element of ``a`` it provably equals
    (``log 4 / log 2`` becomes 2); None when two values agree numerically but no rewrite proves it.
    """
    from veristep.grounding.rewrite import zero_test

    out = []
    for v in b:
        match = v
        for u in a:
            if abs(complex((u - v).evalf(30))) < 1e-20:
                if zero_test(u - v)[0] != "zero":
                    return None
                match = u
                break
        out.append(match)
    return FiniteSet(*out)


def describe(s: Set) -> list[Any]:
    """Up to five values of a finite set, or representative points of an infinite one."""
    if isinstance(s, FiniteSet):
        return sorted(s.args, key=lambda v: float(v.evalf()))[:5]
    return [representative(s)]


def representative(s: Set) -> Any:
    """A simple member of a non-empty set of reals, one a person can substitute by hand."""
    if isinstance(s, FiniteSet):
        return describe(s)[0]
    if isinstance(s, Union):
        return representative(s.args[0])
    if isinstance(s, Interval):
        lo, hi = s.inf, s.sup
        if lo == S.NegativeInfinity and hi == S.Infinity:
            return S.Zero
        if lo == S.NegativeInfinity:
            return hi - 1 if hi.is_number else hi
        if hi == S.Infinity:
            return lo + 1
        return lo if not s.left_open else (hi if not s.right_open else (lo + hi) / 2)
    for v in (0, 1, -1, 2, -2):
        if v in s:
            return S(v)
    return None


def members(s: Set, per_family: int = 5) -> list[Any]:
    """A few explicit members of a finite set or of a union of integer-indexed families
    (``{2nπ | n ∈ ℤ}``), smallest index first; [] for anything else.

    >>> from sympy import sin, symbols
    >>> x = symbols("x", real=True)
    >>> members(solveset(sin(x), x, S.Reals))[:3]
    [0, pi, 2*pi]
    """
    from sympy import ImageSet

    if isinstance(s, FiniteSet):
        return list(s.args)
    if isinstance(s, Union):
        out: list[Any] = []
        for part in s.args:
            found = members(part, per_family)
            if not found:
                return []
            out += found
        return _interleave(out, len(s.args))
    if isinstance(s, ImageSet) and s.base_sets == (S.Integers,) and len(s.lamda.variables) == 1:
        n = s.lamda.variables[0]
        return [s.lamda.expr.subs(n, k) for k in (0, 1, -1, 2, -2)[:per_family]]
    return []


def _interleave(values: list[Any], groups: int) -> list[Any]:
    size = len(values) // groups if groups else 0
    if size * groups != len(values):
        return values
    return [values[g * size + i] for i in range(size) for g in range(groups)]
