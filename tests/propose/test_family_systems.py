"""Simultaneous equations end to end: elimination, substitution and back-substitution, each step
judged by the real grounding engine."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def _strong(d) -> bool:
    return bool(d.steps) and all(s.tier >= Tier.VERIFIED for s in d.steps)


def test_elimination_adds_the_equations_then_back_substitutes():
    d = derive(r"\begin{cases} 3x - 2y = 4 \\ 5x + 2y = 12 \end{cases}", r"x = 2 \land y = 1")
    ops = [s.operation for s in d.steps]
    assert ops[0].startswith("add $5 x + 2 y = 12$ to")
    assert any(op.startswith("substitute $x = 2$") for op in ops)
    assert all(s.tier is Tier.GROUNDED for s in d.steps)
    assert d.endpoint.reached and d.states[-1].latex == r"x = 2 \land y = 1"


def test_substitution_when_an_unknown_is_already_isolated():
    d = derive(r"\begin{cases} y = 2x - 1 \\ 3x + y = 9 \end{cases}", r"x = 2 \land y = 3")
    assert d.steps[0].operation.startswith("substitute $y = 2 x - 1$")
    assert d.steps[0].justification == "substitution method"
    assert _strong(d) and d.endpoint.reached


def test_three_by_three_system_is_solved_one_row_operation_per_step():
    start = r"\begin{cases} x + y + z = 6 \\ x - y + z = 2 \\ 2x + y - z = 1 \end{cases}"
    d = derive(start, r"x = 1 \land y = 2 \land z = 3")
    assert len(d.steps) >= 6 and _strong(d) and d.endpoint.reached
    assert sum(s.justification.startswith("adding a multiple") for s in d.steps) >= 2


def test_linear_quadratic_pair_splits_into_two_solution_points():
    d = derive(
        r"\begin{cases} y = x^2 \\ y = x + 2 \end{cases}",
        r"(x = -1 \land y = 1) \lor (x = 2 \land y = 4)",
    )
    ops = [s.operation for s in d.steps]
    assert "take each case with the other equation" in ops
    assert _strong(d) and d.endpoint.reached
    # ∧ inside ∨ is bracketed, so the printed state means what the planner meant
    assert (
        r"\left(y = x^{2} \land x - 2 = 0\right)"
        in d.states[ops.index("take each case with the other equation") + 1].latex
    )
