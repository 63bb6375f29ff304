"""A wrong antiderivative is refuted at a point a person can check: both sides differentiable
there, and their derivatives recomputed here with SymPy really differ."""

from __future__ import annotations

import pytest
import sympy as sp

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.grounding import Context, judge_transition

SETTINGS = Settings(step_timeout_s=6.0, cas_timeout_s=3.0)
x = sp.Symbol("x", real=True)


@pytest.mark.parametrize(
    ("prev", "integrand", "nxt", "claimed"),
    [
        (r"\int \frac{1}{x}\, dx", 1 / x, r"|\ln|x|| + C", sp.Abs(sp.log(sp.Abs(x)))),
        (r"\int \frac{1}{x}\, dx", 1 / x, r"\ln|x - 1| + C", sp.log(sp.Abs(x - 1))),
        (r"\int 2x\, dx", 2 * x, r"|x|^2 + x + C", sp.Abs(x) ** 2 + x),
    ],
)
def test_refuted_antiderivative_witness_is_a_differentiable_point(
    prev: str, integrand: sp.Expr, nxt: str, claimed: sp.Expr
) -> None:
    verdict = judge_transition(prev, nxt, None, Context(settings=SETTINGS))
    assert verdict.tier is Tier.REFUTED, verdict.reason
    point = sp.Rational(verdict.witness["x"])
    kinks = {a.args[0] for a in claimed.atoms(sp.Abs)}
    assert all(k.subs(x, point) != 0 for k in kinks), f"witness {point} sits on a kink"
    slope = sp.diff(claimed, x).subs(x, point)
    assert sp.simplify(slope - integrand.subs(x, point)) != 0
