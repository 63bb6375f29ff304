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

from sympy import (
    Basic,
    Ge,
    Gt,
    Ne,
    Pow,
    Rational,
    acos,
    acosh,
    acot,
    acsc,
    asec,
    asin,
    atanh,
    cos,
    cot,
    csc,
    log,
    sec,
    sin,
    tan,
)
from sympy.core.relational import Relational

from veristep.grounding.statements import CALCULUS, primitive_factors


def conditions(s: Basic) -> frozenset[Basic]:
    """The real-domain conditions of ``s``: nonzero denominators, nonnegative even-root radicands,
    positive logarithm arguments, arcsine/arccosine arguments in [−1, 1], the poles of tan, cot,
    sec and csc, the domains of the inverse hyperbolic functions, and a base ≥ 0 under an
    irrational or symbolic exponent (``x^e``, ``x^π``, ``x^c`` are not real for negative x).

    Calculus constructs are skipped (their bound variables are not the state's unknowns)."""
    found: set[Basic] = set()
    _collect(s, found)
    return frozenset(found)


def undefined_constant(s: Basic) -> str | None:
    """Why a constant part of a written (unevaluated) form has no real value, or None.

    >>> from sympy import Integer, evaluate, sqrt
    >>> with evaluate(False):
    ...     print(undefined_constant(log(Integer(0)) + 1), undefined_constant(sqrt(-Integer(1))))
    log(0) is not defined (its argument is not positive) sqrt(-1) is not a real number
    """
    from sympy import Expr, preorder_traversal, sstr

    for node in preorder_traversal(s):
        if not isinstance(node, Expr) or node.free_symbols:
            continue
        text = _short(sstr(node))
        if isinstance(node, log) and node.args[0].is_nonpositive:
            return f"{text} is not defined (its argument is not positive)"
        if isinstance(node, Pow):
            base, exp = node.base, node.exp
            if not isinstance(exp, Rational) and exp.is_number:
                exp = exp.doit()  # \sqrt[4]{x} written is x^{1·4^{-1}}, unevaluated
            if exp.is_negative and base.is_zero:
                return f"{text} divides by 0"
            if isinstance(exp, Rational) and exp.q % 2 == 0 and base.is_negative:
                return f"{text} is not a real number"
        if isinstance(node, (asin, acos)) and (node.args[0] - 1).is_positive:
            return f"{text} is not defined (its argument is greater than 1)"
        if isinstance(node, (asin, acos)) and (node.args[0] + 1).is_negative:
            return f"{text} is not defined (its argument is less than -1)"
    return None


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def hidden_conditions(written: Basic | set[Basic], evaluated: Basic) -> frozenset[Basic]:
    """The conditions of the written form (or a set of them already collected) that the
    evaluated form no longer imposes."""
    found = written if isinstance(written, (set, frozenset)) else conditions(written)
    return frozenset(found) - conditions(evaluated)


def implied_by_kept(prev: Basic, nxt: Basic) -> frozenset[Basic]:
    """The domain conditions of either state that a relation written unchanged beside both
    already implies (``r ≠ 0`` beside ``r > 0``): where that relation fails, both conjunctions are
    false, so such a condition does not separate their domains.

    >>> from sympy import And, Eq, Symbol
    >>> r, F = Symbol("r", real=True), Symbol("F", real=True)
    >>> sorted(map(str, implied_by_kept(And(Eq(1 / r**2, F), r > 0), And(Eq(1, F * r**2), r > 0))))
    ['Ne(r, 0)']
    >>> implied_by_kept(And(Eq(1 / r**2, F), r > -1), And(Eq(1, F * r**2), r > -1))
    frozenset()
    """
    from sympy import And

    if not (isinstance(prev, And) and isinstance(nxt, And)):
        return frozenset()
    kept = [c for c in set(prev.args) & set(nxt.args) if isinstance(c, Relational)]
    out = set()
    for cond in conditions(prev) | conditions(nxt):
        if len(cond.free_symbols) != 1:
            continue
        guards = [g for g in kept if g.free_symbols == cond.free_symbols]
        if guards and _region_within(guards, cond):
            out.add(cond)
    return frozenset(out)


def _region_within(guards: list[Basic], cond: Basic) -> bool:
    """Every real value that meets all the guards meets ``cond`` (decided by SymPy's sets; an
    undecided comparison is False)."""
    from sympy import And

    try:
        return And(*guards).as_set().is_subset(cond.as_set()) is True
    except (NotImplementedError, TypeError, ValueError):
        return False


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
    if isinstance(node, Pow):
        _power(node, found)
    elif isinstance(node, log):
        _add(found, Gt(_rebuilt(node.args[0]), 0))
    elif isinstance(node, (asin, acos)):
        arg = _rebuilt(node.args[0])
        _add(found, Ge(1 - arg, 0))
        _add(found, Ge(arg + 1, 0))
    elif isinstance(node, (tan, sec)):
        _add(found, Ne(cos(_rebuilt(node.args[0])), 0))
    elif isinstance(node, (cot, csc)):
        _add(found, Ne(sin(_rebuilt(node.args[0])), 0))
    elif isinstance(node, acosh):
        _add(found, Ge(_rebuilt(node.args[0]) - 1, 0))
    elif isinstance(node, atanh):
        arg = _rebuilt(node.args[0])
        _add(found, Gt(1 - arg, 0))
        _add(found, Gt(arg + 1, 0))
    elif isinstance(node, (asec, acsc)):
        arg = _rebuilt(node.args[0])
        _add(found, Ge(arg**2 - 1, 0))
    elif isinstance(node, acot):
        pass  # defined on all of ℝ (SymPy's branch is continuous except its value at 0)


def _power(node: Pow, found: set[Basic]) -> None:
    base, exp = _rebuilt(node.base), node.exp
    if exp.is_number and exp.is_real:
        if exp.is_negative:
            # Only the zeros of a denominator matter: x² ≠ 0, −2x ≠ 0 and x ≠ 0 are one condition.
            for factor in primitive_factors(base, signed=False):
                if isinstance(factor, Pow) and factor.exp.is_Rational and factor.exp > 0:
                    # √u ≠ 0 says u ≠ 0 (the root's own u ≥ 0 is collected apart): written
                    # 1/(2√y) and SymPy's y^(-1/2) then state the same domain.
                    factor = factor.base
                _add(found, Ne(factor, 0))
        if isinstance(exp, Rational):
            if exp.q % 2 == 0:
                _add(found, Ge(base, 0) if exp.is_positive else Gt(base, 0))
        elif base.free_symbols and not base.is_nonnegative:
            # x^e, x^π: an irrational power of a negative number is not real.
            _add(found, Ge(base, 0) if exp.is_positive else Gt(base, 0))
    elif exp.free_symbols and base.free_symbols and not base.is_positive:
        # x^c with a symbolic exponent is real for every c only where x > 0 (x^y of SymPy is the
        # principal branch): the natural domain of a written power tower.
        _add(found, Gt(base, 0))


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
