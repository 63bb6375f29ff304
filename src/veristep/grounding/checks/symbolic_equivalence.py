"""Symbolic equivalence by bounded rewrites (never a blanket ``simplify``).

- expressions: the difference rewrites to 0 (grounded; verified when the natural domain changes or
  the rewrite needs positive arguments); a nonzero constant difference refutes, with a point;
- equations (and ≠): the residuals agree up to a nonzero constant factor and the natural domains
  match — otherwise the solution-set check decides (``(x²−1)/(x−1) = 2`` vs ``x + 1 = 2``);
- inequalities: the same, with a positive factor and the same strictness;
- ∨ / ∧ of relations: a one-to-one matching of their branches.

>>> from sympy import Eq, symbols
>>> x = symbols("x", real=True)
>>> match_branches((x - 2, x + 2), (2*x + 4, x - 2), ("eq", "eq"), ("eq", "eq"))
True
>>> symbolic_equivalence(Eq((x**2 - 1)/(x - 1), 2), Eq(x + 1, 2), Context()) is None
True
"""

from __future__ import annotations

from itertools import permutations

from sympy import Basic, Expr

from veristep.core.tiers import Relation
from veristep.grounding import cas
from veristep.grounding.checks.fingerprint import probe_grid
from veristep.grounding.decision import Context, Decision
from veristep.grounding.rewrite import relation_ratio, zero_test
from veristep.grounding.statements import (
    domain_factors,
    kind,
    positive_form,
    residual,
    symbols_of,
    unknown,
)
from veristep.grounding.witness import describe_point, point_difference, show

_SIDES = ("previous", "next")

_MAX_BRANCHES = 4  # matching is a permutation search; beyond this the solution-set check decides


def symbolic_equivalence(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    kp, kn = kind(prev), kind(nxt)
    if kp == kn == "expr":
        return _expressions(prev, nxt, ctx)
    if kp == kn == "and":
        # scaled_residual weighs the domains itself (dividing by a parameter adds one)
        scaled = _one_equation_scaled(prev, nxt, ctx)
        if scaled is not None:
            return scaled
    if domain_factors(prev) != domain_factors(nxt):
        return None
    if kp == kn and kp in ("eq", "ne"):
        return _same_residual(residual(prev), residual(nxt), ctx, positive_only=False)
    if kp == kn == "ineq":
        (r1, s1), (r2, s2) = positive_form(prev), positive_form(nxt)
        return _same_residual(r1, r2, ctx, positive_only=True) if s1 == s2 else None
    if kp == kn and kp in ("or", "and"):
        return _branches(prev, nxt, ctx)
    return None


def _expressions(prev: Expr, nxt: Expr, ctx: Context) -> Decision | None:
    if _improper(prev) or _improper(nxt):
        # An integral or a limit at infinity is not rewritten to anything: SymPy's rewrites
        # recurse into it until the stack runs out (half a second, then an error). The calculus
        # check evaluates it.
        return None
    out = cas.run(zero_test, prev - nxt, ctx=ctx)
    if not out.ok:
        return None
    tag, detail = out.value
    if tag == "zero":
        dom_p, dom_n = domain_factors(prev), domain_factors(nxt)
        if dom_p == dom_n:
            return Decision.grounded(Relation.EQUIVALENT, f"the difference is 0 (by {detail})")
        changed = show(sorted(dom_p ^ dom_n, key=str))
        return Decision.verified(
            Relation.EQUIVALENT,
            f"equal wherever both sides are defined; the natural domain changes ({changed})",
        )
    if tag == "assumption":
        # A rewrite that needs positive arguments proves nothing where both sides are defined
        # and some argument is not positive: |x| → x and √(x²) → x are wrong at x = −1.
        syms = tuple(symbols_of(prev, nxt))
        probe = cas.run(probe_grid, prev, nxt, syms, ctx=ctx) if len(syms) <= 4 else None
        if probe is None or not probe.ok:
            return None
        if probe.value is not None:
            at = ", ".join(f"{k} = {v}" for k, v in probe.value.items() if k not in _SIDES)
            reason = (
                f"{detail} needs positive arguments, and at {at} (where both are defined) the "
                f"previous is {probe.value['previous']} and the next is {probe.value['next']}"
            )
            return Decision.refuted(reason, probe.value)
        names = show(syms)
        return Decision.verified(
            Relation.EQUIVALENT,
            f"equal for positive {names} only (by {detail}): assumption-dependent",
        )
    if tag == "nonzero":
        return _constant_gap(prev, nxt, detail, ctx)
    return None


def _improper(e: Expr) -> bool:
    from sympy import Integral, Limit, oo

    infinite = {oo, -oo}
    for node in e.atoms(Integral, Limit):
        if isinstance(node, Limit) and {node.args[2], -node.args[2]} & infinite:
            return True
        if isinstance(node, Integral) and any(
            set(lim[1:]) & infinite for lim in node.limits if len(lim) == 3
        ):
            return True
    return False


def _constant_gap(prev: Expr, nxt: Expr, gap: Expr, ctx: Context) -> Decision | None:
    var = unknown(prev, nxt)
    if var is None and symbols_of(prev, nxt):
        return None  # several variables: the fingerprint's probe points find a checkable point
    if var is None:
        witness = {"previous": str(prev), "next": str(nxt)}
        return Decision.refuted(f"the previous is {prev} and the next is {nxt}", witness)
    out = cas.run(point_difference, prev, nxt, var, ctx=ctx)
    point = out.value if out.ok else None
    if point is None:
        return None
    reason = f"the two differ by the constant {-gap}: {describe_point(point, var)}"
    return Decision.refuted(reason, point)


def _same_residual(r1: Expr, r2: Expr, ctx: Context, positive_only: bool) -> Decision | None:
    out = cas.run(relation_ratio, r1, r2, ctx=ctx)
    if not out.ok or out.value[0] != "const":
        return None
    c = out.value[1]
    if positive_only and not c.is_positive:
        return None
    if c == 1:
        return Decision.grounded(Relation.EQUIVALENT, "the residuals (left − right) are equal")
    return Decision.grounded(
        Relation.EQUIVALENT, f"the residuals agree up to the constant factor {c}"
    )


def _branches(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    # Only a flat ∨ (or ∧) of relations is matched branch to branch: flattening nested
    # connectives would pair atoms across different conjunctions ((x=2 ∧ y=5) ∨ (x=4 ∧ y=7) is
    # not (x=2 ∧ y=7) ∨ (x=4 ∧ y=5)). Nested forms are compared as logic by later checks.
    a, b = list(prev.args), list(nxt.args)
    # A condition written unchanged on both sides (r > 0 beside A = πr² → r² = A/π) pairs with
    # itself; the other atoms must be equations or ≠, matched by proportional residuals.
    kept = set(a) & set(b)
    a, b = [s for s in a if s not in kept], [s for s in b if s not in kept]
    if not a or len(a) != len(b) or len(a) > _MAX_BRANCHES:
        return None
    if {kind(s) for s in a + b} - {"eq", "ne"}:
        return None
    pa = tuple(residual(s) for s in a)
    pb = tuple(residual(s) for s in b)
    kinds_a = tuple(kind(s) for s in a)
    kinds_b = tuple(kind(s) for s in b)
    out = cas.run(match_branches, pa, pb, kinds_a, kinds_b, ctx=ctx)
    if out.ok and out.value:
        return Decision.grounded(
            Relation.EQUIVALENT, "each branch is equivalent to one branch before"
        )
    return None


def _one_equation_scaled(prev: Basic, nxt: Basic, ctx: Context) -> Decision | None:
    # Beside conditions written unchanged, the one equation that changed was scaled: dividing by
    # a parameter (a/2 in ax²/2 = 3 → x² = 6/a) is valid wherever it is nonzero, and so is the
    # conjunction. Only that and plain equivalence carry over through the unchanged conjuncts.
    from veristep.grounding.checks.scaled_residual import scaled_residual

    kept = set(prev.args) & set(nxt.args)
    a = [s for s in prev.args if s not in kept]
    b = [s for s in nxt.args if s not in kept]
    if not kept or len(a) != 1 or len(b) != 1 or not kind(a[0]) == kind(b[0]) == "eq":
        return None
    bound = {v for s in kept for v in s.free_symbols}  # v > 0 beside mv²/2 = E names v
    var = next(iter(bound)) if len(bound) == 1 else None
    decision = scaled_residual(a[0], b[0], ctx, var)
    if decision is None:
        return None
    if decision.relation is Relation.EQUIVALENT or decision.assumption is not None:
        return decision
    return _scaled_within_conditions(a[0], b[0], var, tuple(kept), ctx)


def _scaled_within_conditions(
    prev: Basic, nxt: Basic, var: Basic, kept: tuple[Basic, ...], ctx: Context
) -> Decision | None:
    # Multiplying by r² beside r > 0: the factor's zeros (and the denominators') are all values
    # the kept condition rules out, so the conjunction neither gains nor loses a solution.
    from veristep.grounding.checks.scaled_residual import zeros_excluded

    if var is None:
        return None
    out = cas.run(zeros_excluded, residual(prev), residual(nxt), var, kept, ctx=ctx)
    if not (out.ok and out.value):
        return None
    where = " and ".join(str(c) for c in kept if c.free_symbols == {var})
    return Decision.grounded(
        Relation.EQUIVALENT,
        f"both sides scaled by a factor that is nonzero and defined wherever {where}",
    )


def match_branches(
    pa: tuple[Expr, ...], pb: tuple[Expr, ...], ka: tuple[str, ...], kb: tuple[str, ...]
) -> bool:
    """Some permutation pairs every branch with one of the same kind and a proportional residual."""
    for perm in permutations(range(len(pb))):
        if all(ka[i] == kb[j] for i, j in enumerate(perm)) and all(
            relation_ratio(pa[i], pb[j])[0] == "const" for i, j in enumerate(perm)
        ):
            return True
    return False
