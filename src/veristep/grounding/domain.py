"""The real domain a state restricts to *as written*, and what SymPy's automatic evaluation hides.

SymPy evaluates while it builds: ``x/x`` becomes ``1``, ``sqrt(x)**2`` becomes ``x``,
``exp(log x)`` becomes ``x`` and ``(x-1)/(x-1) = 1`` becomes ``True``. Each of those drops a
restriction the written state carries (x ≠ 0, x ≥ 0, x > 0, x ≠ 1), so two states can look
identical to every check while one of them excludes a value. The written form is therefore also
converted unevaluated, and the conditions it imposes that the evaluated form no longer shows are
kept beside the state (:func:`hidden_conditions`); the judge re-examines a step with them.

>>> from sympy import Pow, Symbol, evaluate, log, sqrt
>>> x = Symbol("x", real=True)
>>> with evaluate(False):
...     written = Pow(x, -1) * x
>>> sorted(map(str, hidden_conditions(written, x / x)))
['Ne(x, 0)']
>>> sorted(map(str, conditions(log(x) + sqrt(x - 1))))
['x - 1 >= 0', 'x > 0']
>>> hidden_conditions(x**2 / (x - 1), x**2 / (x - 1))
frozenset()
"""

from __future__ import annotations

from sympy import Basic, Ge, Gt, Ne, Pow, Rational, acos, asin, log
from sympy.core.relational import Relational

from veristep.grounding.statements import CALCULUS, primitive_factors


def conditions(s: Basic) -> frozenset[Basic]:
    """The real-domain conditions of ``s``: nonzero denominators, nonnegative even-root radicands,
    positive logarithm arguments, arcsine/arccosine arguments in [−1, 1].

    Calculus constructs are skipped (their bound variables are not the state's unknowns)."""
    found: set[Basic] = set()
    _collect(s, found)
    return frozenset(found)


def hidden_conditions(written: Basic | set[Basic], evaluated: Basic) -> frozenset[Basic]:
    """The conditions of the written form (or a set of them already collected) that the
    evaluated form no longer imposes."""
    found = written if isinstance(written, (set, frozenset)) else conditions(written)
    return frozenset(found) - conditions(evaluated)


def describe(conds: frozenset[Basic]) -> str:
    """The conditions as a person writes them.

    >>> from sympy import Symbol
    >>> x = Symbol("x", real=True)
    >>> describe(frozenset({Ne(x, 0), Ge(x - 1, 0)}))
    'x - 1 ≥ 0, x ≠ 0'
    """
    signs = {Ne: "≠", Ge: "≥", Gt: ">"}
    return ", ".join(sorted(f"{c.lhs} {signs.get(type(c), c.rel_op)} {c.rhs}" for c in conds))


def _collect(node: Basic, found: set[Basic]) -> None:
    if isinstance(node, CALCULUS) or not node.free_symbols:
        return
    for arg in node.args:
        _collect(arg, found)
    if isinstance(node, Pow) and node.exp.is_number and node.exp.is_real:
        base = _rebuilt(node.base)
        if node.exp.is_negative:
            # Only the zeros of a denominator matter: x² ≠ 0, −2x ≠ 0 and x ≠ 0 are one condition.
            for factor in primitive_factors(base, signed=False):
                _add(found, Ne(factor, 0))
        if isinstance(node.exp, Rational) and node.exp.q % 2 == 0:
            _add(found, Ge(base, 0) if node.exp.is_positive else Gt(base, 0))
    elif isinstance(node, log):
        _add(found, Gt(_rebuilt(node.args[0]), 0))
    elif isinstance(node, (asin, acos)):
        arg = _rebuilt(node.args[0])
        _add(found, Ge(1 - arg, 0))
        _add(found, Ge(arg + 1, 0))


def _add(found: set[Basic], cond: Basic) -> None:
    # Conditions that evaluate to True (a positive symbol, a number) restrict nothing; False
    # ones (log of a negative number) are left to the checks, which see an undefined value.
    if isinstance(cond, Relational) and cond.free_symbols:
        found.add(cond)


def _rebuilt(e: Basic) -> Basic:
    """``e`` rebuilt with evaluation on, so that written and evaluated conditions compare."""
    # Constant subterms stay as written: rebuilding 2^(10^9) would evaluate it, unbounded, here
    # in the main process; only the parts that carry the unknowns need the canonical form.
    if not e.args or isinstance(e, CALCULUS) or not e.free_symbols:
        return e
    return e.func(*(_rebuilt(a) for a in e.args))
