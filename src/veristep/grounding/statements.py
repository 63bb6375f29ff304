"""Read a SymPy statement the way the checks need it: its kind, residuals, unknown and domain.

A state is either an expression (``x^2 \\sin x``) or a statement: a relation (``=``, ``≠``, ``<``,
``≤``, ``>``, ``≥``) or a connective (∨, ∧) of relations. ± arrives already expanded into an ∨.

>>> from sympy import Eq, Or, symbols
>>> x, a = symbols("x a", real=True)
>>> kind(Eq(x**2, 4)), kind(x + 1), kind(Or(Eq(x, 2), Eq(x, -2)))
('eq', 'expr', 'or')
>>> residual(Eq(x**2, 4))
x**2 - 4
>>> sorted(map(str, domain_factors(1 / (2 * a) + x)))
['a']
>>> unknown(Eq(a * x, 1), Eq(x, 1 / a))
x
"""

from __future__ import annotations

from sympy import (
    Abs,
    And,
    Basic,
    Derivative,
    Eq,
    Expr,
    Ge,
    Gt,
    Integral,
    Le,
    Limit,
    Lt,
    Mul,
    Ne,
    Number,
    Or,
    Pow,
    Product,
    Set,
    Sum,
    Symbol,
    factor_terms,
    log,
)
from sympy.core.function import AppliedUndef
from sympy.logic.boolalg import BooleanAtom, BooleanFalse, BooleanTrue

RELATIONS = (Eq, Ne, Lt, Le, Gt, Ge)
CALCULUS = (Derivative, Integral, Limit, Sum, Product)  # unevaluated constructs
# What no solver or squaring can see through: unevaluated calculus (the calculus check evaluates
# it first) and unknown functions such as y(x).
OPAQUE = (*CALCULUS, AppliedUndef)


def kind(s: Basic) -> str:
    """'expr', 'eq', 'ne', 'ineq', 'approx', 'or', 'and', 'bool', 'set' or 'other'."""
    if type(s).__name__ == "Approx":  # the parser's own ≈ relation: never an equation
        return "approx"
    if isinstance(s, BooleanAtom):
        return "bool"
    if isinstance(s, Set):
        return "set"
    if isinstance(s, Eq):
        return "eq"
    if isinstance(s, Ne):
        return "ne"
    if isinstance(s, (Lt, Le, Gt, Ge)):
        return "ineq"
    if isinstance(s, Or):
        return "or"
    if isinstance(s, And):
        return "and"
    if isinstance(s, Expr):
        return "expr"
    return "other"


def is_statement(s: Basic) -> bool:
    return kind(s) in ("eq", "ne", "ineq", "or", "and", "bool", "set")


def residual(rel: Basic) -> Expr:
    """lhs − rhs of a relation."""
    return rel.lhs - rel.rhs


def positive_form(rel: Basic) -> tuple[Expr, bool]:
    """An inequality as ``(r, strict)`` meaning ``r > 0`` (strict) or ``r ≥ 0``."""
    if isinstance(rel, (Gt, Ge)):
        return rel.lhs - rel.rhs, isinstance(rel, Gt)
    return rel.rhs - rel.lhs, isinstance(rel, Lt)


def disjuncts(s: Basic) -> list[Basic]:
    return list(s.args) if isinstance(s, Or) else [s]


def truth_value(value: Basic) -> bool | None:
    """True or False for SymPy's evaluated truth values, None for anything left unevaluated."""
    if isinstance(value, BooleanTrue):
        return True
    if isinstance(value, BooleanFalse):
        return False
    return None


def atoms_of(s: Basic) -> list[Basic]:
    """The relations inside a (possibly nested) ∨/∧ statement."""
    if isinstance(s, (Or, And)):
        return [a for arg in s.args for a in atoms_of(arg)]
    return [s]


def symbols_of(*states: Basic) -> list[Symbol]:
    found: set[Symbol] = set()
    for s in states:
        found |= {v for v in s.free_symbols if isinstance(v, Symbol)}
    return sorted(found, key=lambda v: v.name)


def unknown(prev: Basic, nxt: Basic) -> Symbol | None:
    """The variable a step is about: the one isolated in the next state, else x, else the only one.

    Several free symbols with none isolated and no ``x`` means there is no single unknown.
    """
    syms = symbols_of(prev, nxt)
    if not syms:
        return None
    isolated = {a.lhs for a in atoms_of(nxt) if isinstance(a, Eq) and isinstance(a.lhs, Symbol)}
    isolated |= {a.rhs for a in atoms_of(nxt) if isinstance(a, Eq) and isinstance(a.rhs, Symbol)}
    if not isolated:  # a power isolated (a³ = m/ρ): its letter is the one being solved for
        isolated = {a.lhs.base for a in atoms_of(nxt) if _isolated_power(a)}
    if len(isolated) == 1:
        return next(iter(isolated))
    by_name = {v.name: v for v in syms}
    if "x" in by_name:
        return by_name["x"]
    if len(syms) == 1:
        return syms[0]
    # A sign condition written on one symbol (v > 0 beside E = mv²/2) marks it as the unknown.
    bounded = {
        a.free_symbols.pop()
        for s in (prev, nxt)
        for a in atoms_of(s)
        if isinstance(a, (Gt, Ge, Lt, Le)) and len(a.free_symbols) == 1
    }
    return bounded.pop() if len(bounded) == 1 else None


def _isolated_power(a: Basic) -> bool:
    return (
        isinstance(a, Eq)
        and isinstance(a.lhs, Pow)
        and isinstance(a.lhs.base, Symbol)
        and a.lhs.exp.is_Integer
        and not a.rhs.has(a.lhs.base)
    )


def domain_factors(s: Basic) -> frozenset[Expr]:
    """Factors whose zeros (or sign) bound the real natural domain: denominators, even-root and
    logarithm arguments, each reduced to its primitive part so that ``2a`` and ``4a^2`` agree.

    Two states with the same set have the same natural domain; the converse need not hold, so a
    mismatch only means "compare solution sets instead".
    """
    found: set[Expr] = set()
    for node in _walk(s):
        if isinstance(node, Pow) and node.exp.is_number:
            if node.exp.is_negative:
                found |= primitive_factors(node.base, signed=False)
            if node.exp.is_Rational and node.exp.q % 2 == 0:
                found |= primitive_factors(node.base, signed=True)
        elif isinstance(node, log):
            found |= primitive_factors(node.args[0], signed=True)
    return frozenset(found)


def primitive_factors(e: Expr, signed: bool) -> set[Expr]:
    # A denominator only matters through its zeros, so its sign is dropped; an even root or a
    # logarithm needs its argument's sign, so that is kept (as the whole argument).
    if signed:
        # Positive by the declared assumptions: no restriction at all.
        return {e} if e.free_symbols and not e.is_positive else set()
    out: set[Expr] = set()
    for f in Mul.make_args(factor_terms(e)):
        if isinstance(f, Number) or f.is_number:
            continue
        if isinstance(f, Pow) and f.exp.is_Integer and f.exp > 0:
            f = f.base
        if isinstance(f, Abs):
            f = f.args[0]
        if f.could_extract_minus_sign():
            f = -f
        out.add(f)
    return out


def _walk(s: Basic):
    yield s
    for arg in s.args:
        yield from _walk(arg)
