"""Calculus evaluation: derivatives, integrals, limits, finite sums and products in a state are
evaluated (each evaluation a CAS call under the deadline) and the evaluated states compared by
the algebraic checks; ``\\frac{d}{dx}(x^2\\sin x)`` → ``x^2 \\frac{d}{dx}\\sin x + …`` is one.

>>> from sympy import Derivative, sin, symbols
>>> x = symbols("x", real=True)
>>> evaluate(Derivative(x**2 * sin(x), x))
(x**2*cos(x) + 2*x*sin(x), True)
"""

from __future__ import annotations

from sympy import Abs, Basic, Integral, Product, Sum, Symbol, diff, sign

from veristep.core.tiers import Relation
from veristep.grounding import cas
from veristep.grounding.checks.fingerprint import fingerprint
from veristep.grounding.checks.scaled_residual import scaled_residual
from veristep.grounding.checks.solution_set import solution_set
from veristep.grounding.checks.structural import structural
from veristep.grounding.checks.symbolic_equivalence import symbolic_equivalence
from veristep.grounding.decision import Context, Decision
from veristep.grounding.rewrite import zero_test
from veristep.grounding.statements import CALCULUS, kind

CONSTRUCTS = CALCULUS

# The algebraic checks re-run on the evaluated states, cheapest first.
_AFTER = (structural, symbolic_equivalence, solution_set, scaled_residual, fingerprint)


def calculus(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    if not (prev.has(*CONSTRUCTS) or nxt.has(*CONSTRUCTS)):
        return None
    claimed = limit_claims(prev, nxt, ctx)
    if claimed is not None:
        return claimed
    evaluated = []
    for state in (prev, nxt):
        out = cas.run(evaluate, state, ctx=ctx)
        if not out.ok or not out.value[1]:
            return None  # an evaluation that timed out or stayed symbolic decides nothing
        evaluated.append(out.value[0])
    if _indefinite(prev) or _indefinite(nxt):
        return _up_to_a_constant(prev, nxt, evaluated, ctx)
    for check in _AFTER:
        decision = check(evaluated[0], evaluated[1], ctx)
        if decision is not None:
            if decision.relation is Relation.REFUTED:
                counted = _counting_witness(prev, nxt, ctx)
                if counted is not None:
                    return counted
            reason = f"after evaluating the calculus: {decision.reason}"
            return Decision(decision.relation, decision.tier, reason, decision.witness)
    return None


def _counting_witness(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    """A refuted sum or product identity, re-witnessed at a bound a person would count to.

    The algebraic checks may refute ``\\sum_{k=1}^{n} k = n(n-1)/2`` at n = -1, which is true
    of the evaluated polynomials but not a count anyone would write; the first n from the lower
    bound on where the two sides differ is the witness to show.
    """
    if kind(prev) != "expr" or kind(nxt) != "expr":
        return None
    bounds = _bound_symbols(prev) | _bound_symbols(nxt)
    if len(bounds) != 1:
        return None
    (n,) = bounds
    free = (prev.free_symbols | nxt.free_symbols) - {n}
    if free:
        return None
    out = cas.run(first_difference, prev, nxt, n, _lowest_start(prev, nxt), ctx=ctx)
    if not out.ok or out.value is None:
        return None
    at, left, right = out.value
    reason = (
        f"after evaluating the calculus: at {n} = {at} the previous is {left} "
        f"and the next is {right}"
    )
    return Decision.refuted(
        reason, {"at": f"{n} = {at}", "previous": str(left), "next": str(right)}
    )


def _bound_symbols(state: Basic) -> set[Symbol]:
    found: set[Symbol] = set()
    for construct in state.atoms(Sum, Product):
        for _, low, high in construct.limits:
            found |= (low.free_symbols | high.free_symbols) & state.free_symbols
    return found


def _lowest_start(prev: Basic, nxt: Basic) -> int:
    starts = [
        int(low)
        for construct in prev.atoms(Sum, Product) | nxt.atoms(Sum, Product)
        for _, low, _high in construct.limits
        if low.is_Integer
    ]
    return min(starts, default=0)


def first_difference(
    prev: Basic, nxt: Basic, n: Symbol, start: int, count: int = 20
) -> tuple[int, Basic, Basic] | None:
    """CAS task: the first integer bound from ``start`` at which the two states differ, exactly.

    >>> from sympy import Sum, symbols
    >>> k, n = symbols("k n", integer=True)
    >>> first_difference(Sum(k, (k, 1, n)), n * (n - 1) / 2, n, 1)
    (1, 1, 0)
    """
    for value in range(start, start + count):
        left = prev.subs(n, value).doit()
        right = nxt.subs(n, value).doit()
        # is_zero is False only when SymPy has decided the difference: no guessed witness.
        if left.is_number and right.is_number and (left - right).simplify().is_zero is False:
            return value, left, right
    return None


def _indefinite(state: Basic) -> bool:
    return any(len(lim) == 1 for i in state.atoms(Integral) for lim in i.limits)


def _up_to_a_constant(
    prev: Basic, nxt: Basic, evaluated: list[Basic], ctx: Context
) -> Decision | None:
    # An antiderivative is only defined up to a constant: a constant difference is no error, so
    # the derivatives are compared, and a mismatch is left to no one (undecided), never refuted.
    if not all(kind(s) == "expr" for s in evaluated):
        return None
    variables = {v for i in (prev.atoms(Integral) | nxt.atoms(Integral)) for v in i.variables}
    if len(variables) != 1:
        return None
    var = variables.pop()
    derivative = diff(evaluated[0] - evaluated[1], var)
    out = cas.run(zero_test, derivative, ctx=ctx)
    if out.ok and out.value[0] == "zero":
        return Decision.grounded(
            Relation.EQUIVALENT, "antiderivatives with the same derivative: equal up to a constant"
        )
    if derivative.has(Abs, sign):
        # ln|x| against SymPy's ln x: d/dx ln|x| = sign(x)/|x|, which no rewrite turns into 1/x
        # at once; on x > 0 and on x < 0 separately each is an identity.
        sides = cas.run(zero_on_each_side, derivative, var, ctx=ctx)
        if sides.ok and sides.value:
            return Decision.grounded(
                Relation.EQUIVALENT,
                f"antiderivatives with the same derivative for {var.name} > 0 and for "
                f"{var.name} < 0: equal up to a constant on each interval",
            )
    if out.ok and out.value[0] != "zero":
        return _derivatives_differ(evaluated, var, ctx)
    return None


def zero_on_each_side(e: Basic, var: Symbol) -> bool:
    """CAS task: ``e`` is identically zero for ``var`` > 0 and for ``var`` < 0.

    >>> from sympy import Abs, Symbol, log
    >>> x = Symbol("x", real=True)
    >>> zero_on_each_side(diff(log(Abs(x)) - log(x), x), x)
    True
    """
    t = Symbol("t_", positive=True)
    return all(zero_test(e.subs(var, side))[0] == "zero" for side in (t, -t))


def _derivatives_differ(evaluated: list[Basic], var: Symbol, ctx: Context) -> Decision | None:
    """A wrong antiderivative: differentiate both sides and show a point where they differ."""
    from veristep.grounding.witness import point_difference

    d_prev, d_next = (diff(e, var) for e in evaluated)
    out = cas.run(point_difference, d_prev, d_next, var, ctx=ctx)
    if not out.ok or out.value is None:
        return None
    w = out.value
    reason = (
        f"differentiating both sides: at {var.name} = {w[var.name]} the derivative of the "
        f"previous is {w['previous']} and of the next is {w['next']}, so they are not "
        "antiderivatives of the same function"
    )
    return Decision.refuted(reason, {**w, "differentiated": True})


def limit_claims(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    """``lim f = L`` where the two-sided limit does not exist: the one-sided limits differ, or
    the function oscillates. Refuted with both one-sided values (or the oscillation bounds)."""
    from sympy import Limit

    if not isinstance(prev, Limit) or nxt.has(*CONSTRUCTS) or kind(nxt) != "expr":
        return None
    out = cas.run(two_sided, prev, ctx=ctx)
    if not out.ok or out.value is None:
        return None
    tag, detail = out.value
    if tag == "one-sided":
        reason = (
            f"the limit does not exist: from the left it is {detail['left']}, "
            f"from the right {detail['right']}"
        )
    else:
        reason = f"the limit does not exist: the function oscillates between {detail['bounds']}"
    return Decision.refuted(reason, detail)


def two_sided(lim: Basic) -> tuple[str, dict[str, str]] | None:
    """CAS task: ('one-sided', {left, right}) | ('oscillates', {bounds}) | None (it exists, or
    SymPy cannot say).

    >>> from sympy import Abs, Limit, sin, symbols
    >>> x = symbols("x", real=True)
    >>> two_sided(Limit(Abs(x) / x, x, 0, "+-"))
    ('one-sided', {'left': '-1', 'right': '1'})
    >>> two_sided(Limit(sin(1 / x), x, 0, "+-"))
    ('oscillates', {'bounds': '[-1, 1]'})
    """
    from sympy import AccumBounds, S, limit

    expr, var, point = lim.args[0], lim.args[1], lim.args[2]
    if str(lim.args[3]) != "+-" and point not in (S.Infinity, S.NegativeInfinity):
        return None  # a one-sided limit as written: its side is the claim
    if point in (S.Infinity, S.NegativeInfinity):
        value = limit(expr, var, point)
        if isinstance(value, AccumBounds):
            return ("oscillates", {"bounds": f"[{value.min}, {value.max}]"})
        return None
    left, right = limit(expr, var, point, "-"), limit(expr, var, point, "+")
    for side in (left, right):
        if isinstance(side, AccumBounds):
            return ("oscillates", {"bounds": f"[{side.min}, {side.max}]"})
    if left.is_finite and right.is_finite and (left - right).is_zero is False:
        return ("one-sided", {"left": str(left), "right": str(right)})
    return None


def evaluate(state: Basic) -> tuple[Basic, bool]:
    """CAS task: the state with every calculus construct evaluated, and whether all of them were."""
    done = state.doit()
    return done, not done.has(*CONSTRUCTS)
