"""Parametric narrowing: several symbols, one unknown (quadratic-formula style steps).

Both states are solved for the unknown with the other symbols as generic parameters and the root
lists compared. Equal lists, or one inside the other, are only *generic* facts (special parameter
values such as ``a = 0`` are not examined): an inclusion is verified, never grounded, and equal
lists leave the step plausible. A root of the
next state that is no root of the previous one refutes — with concrete parameter values at which a
person can substitute and see the failure.

>>> from sympy import Eq, symbols
>>> x, a, b = symbols("x a b", real=True)
>>> compare_roots((a*x - b,), (x - b/a,), x)[0]
'equal'
>>> tag, w = compare_roots((x**2 - a,), (x - a,), x)
>>> tag, sorted(w)
('new', ['a', 'x'])
"""

from __future__ import annotations

from itertools import islice, product
from typing import Any

from sympy import Basic, Expr, S, Symbol, solve

from veristep.core.tiers import Relation, Tier
from veristep.grounding import cas
from veristep.grounding.decision import Context, Decision
from veristep.grounding.rewrite import is_nonzero_constant, zero_test
from veristep.grounding.statements import disjuncts, kind, residual, symbols_of, unknown
from veristep.grounding.witness import show, value_at

_PARAM_VALUES = (1, 2, 3, -1, 5, -2, 7)
_MAX_ROOTS = 6
_MAX_POINTS = 400
_SEARCH_SHARE = 0.25  # of the CAS limit, per letter tried by the refutation-only search


def parametric(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    if not (_equations(prev) and _equations(nxt)) or len(symbols_of(prev, nxt)) < 2:
        return None
    rp = tuple(residual(d) for d in disjuncts(prev))
    rn = tuple(residual(d) for d in disjuncts(nxt))
    var = unknown(prev, nxt)
    if var is None:
        return _refuted_in_any_symbol(rp, rn, symbols_of(prev, nxt), ctx)
    out = cas.run(compare_roots, rp, rn, var, ctx=ctx)
    if not out.ok:
        return None
    tag, detail = out.value
    if tag == "undecided":
        # y = mx + c → c = y: no root in x on one side, but a point that tells the two
        # statements apart may still be found by solving for another symbol.
        others = [v for v in symbols_of(prev, nxt) if v != var]
        return _refuted_in_any_symbol(rp, rn, others, ctx)
    generic = "for generic values of the parameters"
    if tag == "equal":
        # Equal generic roots say nothing about special parameter values (a = 0, n even):
        # reported, but not as evidence of equivalence.
        return Decision(Relation.UNKNOWN, Tier.PLAUSIBLE, f"the same roots in {var} {generic} only")
    if tag == "narrows":
        return Decision.verified(
            Relation.NARROWS, f"keeps some roots in {var}, loses {show(detail)}"
        )
    if tag == "widens":
        return Decision.verified(Relation.WIDENS, f"adds roots {show(detail)} in {var} {generic}")
    if tag == "new":
        where = ", ".join(f"{k} = {v}" for k, v in detail.items() if k != var.name)
        reason = (
            f"at {where} the next step gives {var.name} = {detail[var.name]}, "
            "which does not solve the previous step"
        )
        return Decision.refuted(reason, detail)
    return None


def _refuted_in_any_symbol(
    rp: tuple[Expr, ...], rn: tuple[Expr, ...], syms: list[Symbol], ctx: Context
) -> Decision | None:
    """No single unknown (2l + 2w = P → 2w = 2l − P): solving for any one symbol may still
    find a two-sided counter-example, a point of the next state that fails the previous and a
    point of the previous that fails the next, which refutes the step whatever the unknown is.
    Inclusions found this way mean nothing (they depend on the symbol chosen) and are dropped.
    Only letters in every residual are tried (elsewhere there is no list of roots to compare),
    and none buried under a root or inside a function (:func:`_buried`)."""
    everywhere = [v for v in syms if all(r.has(v) for r in (*rp, *rn))]  # else no root list
    for var in [v for v in everywhere if not any(_buried(r, v) for r in (*rp, *rn))][:4]:
        # A search that can only refute, tried in several letters: each gets a short budget.
        out = cas.run(compare_roots, rp, rn, var, ctx=ctx, share=_SEARCH_SHARE)
        if out.status == "timeout":
            break  # a form too hard in one letter is rarely easy in the next: give up soon
        if out.ok and out.value[0] == "new":
            detail = out.value[1]
            where = ", ".join(f"{k} = {v}" for k, v in detail.items())
            reason = f"at {where} the next step holds and the previous one does not"
            return Decision.refuted(reason, detail)
    return None


def _buried(e: Expr, var: Symbol) -> bool:
    """``var`` sits under a root, in an exponent or inside a function of ``e``: solving for it
    means squaring or inverting, which is where a refutation-only search spends its budget
    (b = −(√(b² − 4ac) ... solved for a) and rarely finds anything. Read from the tree alone.

    >>> from sympy import sqrt, symbols
    >>> a, b, c, x = symbols("a b c x", real=True)
    >>> r = x - (-b + sqrt(b**2 - 4*a*c)) / (2*a)
    >>> [v for v in (a, b, c, x) if _buried(r, v)]
    [a, b, c]
    """
    from sympy import Function, Pow, preorder_traversal

    for node in preorder_traversal(e):
        if isinstance(node, Pow) and node.has(var):
            if node.exp.has(var) or (not node.exp.is_Integer and node.base.has(var)):
                return True
        elif isinstance(node, Function) and node.has(var):
            return True
    return False


def _equations(s: Basic) -> bool:
    return all(kind(d) == "eq" for d in disjuncts(s))


def compare_roots(rp: tuple[Expr, ...], rn: tuple[Expr, ...], var: Symbol) -> tuple[str, Any]:
    """CAS task: ('equal'|'narrows'|'widens'|'new'|'undecided', detail).

    ``solve`` lists every root only of polynomial (or rational) residuals; for ``cos(bx) = 1`` it
    lists two of infinitely many. Such lists are never compared as sets: only a two-sided
    counter-example (a root of the next that fails the previous *and* a root of the previous
    that fails the next, at the same concrete parameters) decides anything there.
    """
    roots_p = _roots(rp, var)
    roots_n = _roots(rn, var)
    if roots_p is None or roots_n is None:
        return ("undecided", None)
    complete = all(_polynomial_like(r, var) for r in (*rp, *rn))
    extra = [r for r in roots_n if not any(_same(r, s) for s in roots_p)]
    lost = [s for s in roots_p if not any(_same(s, r) for r in roots_n)]
    if complete and not extra and not lost:
        return ("equal", None)
    if complete and not extra:
        return ("narrows", lost)
    if complete and not lost:
        return ("widens", extra)
    for r in extra:
        witness = _counter_example(rp, r, var, rn, lost)
        if witness is not None:
            return ("new", witness)
    return ("undecided", None)


def _polynomial_like(r: Expr, var: Symbol) -> bool:
    from sympy import fraction, together

    num, den = fraction(together(r))
    return bool(num.is_polynomial(var) and den.is_polynomial(var))


def _roots(residuals: tuple[Expr, ...], var: Symbol) -> list[Expr] | None:
    roots: list[Expr] = []
    for r in residuals:
        if not r.has(var):
            return None
        found = solve(r, var)
        if not isinstance(found, list) or len(found) > _MAX_ROOTS:
            return None
        roots.extend(found)
    return roots


def _same(r: Expr, s: Expr) -> bool:
    return zero_test(r - s)[0] == "zero"


def _counter_example(
    rp: tuple[Expr, ...],
    root: Expr,
    var: Symbol,
    rn: tuple[Expr, ...] = (),
    lost: list[Expr] | None = None,
) -> dict[str, str] | None:
    """Parameter values where ``var = root`` is a real number that solves no previous branch and,
    when ``lost`` is given, some lost root of the previous is a real number that solves no
    next branch: the step neither follows nor widens there."""
    params = {p for e in (root, *rp, *rn, *(lost or ())) for p in e.free_symbols} - {var}
    params_sorted = sorted(params, key=str)
    if len(params_sorted) > 5:
        return None
    # Seven values each for up to three parameters; four or five parameters (ax + b = cx + d)
    # get four values each and at most _MAX_POINTS points, so the search fits a step's budget.
    pool = _PARAM_VALUES if len(params_sorted) <= 3 else _PARAM_VALUES[:4]
    points = product(pool, repeat=len(params_sorted))
    for values in islice(points, _MAX_POINTS):
        subs = dict(zip(params_sorted, values, strict=True))
        v = value_at(root.subs(subs), var, S.Zero)
        if v is None:
            continue
        residues = [r.subs(subs).subs(var, v) for r in rp]
        if not all(is_nonzero_constant(e) for e in residues):
            continue
        if lost is not None and not _fails_next(lost, rp, rn, subs, var):
            continue
        witness = {p.name: str(val) for p, val in subs.items()}
        witness[var.name] = str(v)
        return witness
    return None


def _fails_next(
    lost: list[Expr], rp: tuple[Expr, ...], rn: tuple[Expr, ...], subs: dict, var: Symbol
) -> bool:
    """Some lost root is, at ``subs``, a real point that solves the previous state (checked
    again here: ``solve`` may return a root where a denominator vanishes) and no next branch."""
    for root in lost:
        v = value_at(root.subs(subs), var, S.Zero)
        if v is None:
            continue
        solves_prev = any(r.subs(subs).subs(var, v).is_zero is True for r in rp)
        if solves_prev and all(is_nonzero_constant(r.subs(subs).subs(var, v)) for r in rn):
            return True
    return False
