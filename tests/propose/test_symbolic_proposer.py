"""The symbolic proposer behind the protocol: parser in, killable planner, feedback bans moves."""

from __future__ import annotations

from veristep.core.settings import Settings
from veristep.propose.protocol import Feedback, Proposer
from veristep.propose.symbolic.proposer import SymbolicProposer

SETTINGS = Settings(derive_timeout_s=5.0)


def test_feedback_on_a_weak_step_makes_the_next_draft_avoid_that_move():
    proposer = SymbolicProposer(SETTINGS)
    assert isinstance(proposer, Proposer)
    start, target = "x^2 - 5x + 6 = 0", r"x = 2 \lor x = 3"
    first = proposer.propose(start, target)
    assert first.meta["reached"] and first.steps[0].operation == "factor the left side"
    feedback = Feedback(1, ["step 1 is plausible: no check could decide"], [1], first)
    second = proposer.propose(start, target, feedback=feedback)
    assert second.meta["reached"]
    assert second.steps[0].operation != "factor the left side"
    assert second.steps[-1].expr_latex.count("\\lor") == 1


def test_planner_timeout_is_an_empty_draft_with_a_reason():
    proposer = SymbolicProposer(Settings(derive_timeout_s=0.5, cas_timeout_s=1.0))
    draft = proposer.propose(r"(x + y + z + 1)^{60}", r"(x + y + z + 1)^{60} + 1")
    assert not draft.meta.get("reached", False)
    assert draft.note  # either the planner's own "not reached" or the worker's timeout


def test_a_start_sympy_cannot_hold_unevaluated_is_still_planned(monkeypatch):
    # SymPy's assumptions sometimes fail on an unevaluated start ("invalid input: Mod(1*1, 2*1)",
    # seen on 2 e^x - 3 = 5 in a long-lived worker). The unevaluated forms are niceties: the
    # plan must go on from the evaluated start, not stop with an error.
    import sympy as sp
    from sympy.core.parameters import global_parameters

    import veristep.mathgraph as mathgraph
    from veristep.core.errors import InputError
    from veristep.propose.symbolic.proposer import _plan_as_written

    real_to_sympy = mathgraph.to_sympy

    def fragile(*args, **kwargs):
        if not global_parameters.evaluate:
            raise InputError("no SymPy form: invalid input: Mod(1*1, 2*1)", kind="math")
        return real_to_sympy(*args, **kwargs)

    monkeypatch.setattr(mathgraph, "to_sympy", fragile)
    x = sp.Symbol("x", real=True)
    for start, target in [("2 e^{x} - 3 = 5", sp.Eq(x, sp.log(4))), ("3(x-2) = 6", sp.Eq(x, 4))]:
        found = _plan_as_written(start, target, SETTINGS, budget_s=5.0)
        assert found.reached and found.steps, (start, found.message)
