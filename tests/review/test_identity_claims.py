"""A sentence that says it expands, factors or simplifies claims an identity: a false one is
FLAWED with the point where its sides differ, unless a hypothesis is in force on its letters."""

from __future__ import annotations

import sympy as sp
from dspy.utils import DummyLM

from veristep.core.tiers import Tier
from veristep.review.grounding_link import default_grounder
from veristep.review.machine import check_steps, machine_check
from veristep.review.run import review_proof
from veristep.review.scripted import confirm
from veristep.review.trace import State

WRONG = "Expanding, $(x+3)^2 = x^2 + 3x + 9$."


def _recheck(witness: str) -> None:
    """The witness's point really separates the two sides (SymPy, not the cascade)."""
    x = sp.Symbol("x")
    value = int(witness.split("at x = ")[1].split(" ")[0])
    assert ((x + 3) ** 2).subs(x, value) != (x**2 + 3 * x + 9).subs(x, value), witness


def test_a_false_expansion_with_no_hypothesis_is_refuted_with_its_witness() -> None:
    result = machine_check(WRONG, grounder=default_grounder(), in_force=set())
    assert result.outcome == "refuted"
    assert result.checks[0].check == "identity_claim" and result.checks[0].tier is Tier.REFUTED
    assert result.witness.startswith("(x+3)^2 = x^2 + 3x + 9 is false: ")
    _recheck(result.witness)


def test_the_same_equation_without_a_transforming_verb_stays_a_condition() -> None:
    result = machine_check(
        "We get $(x+3)^2 = x^2 + 3x + 9$.", grounder=default_grounder(), in_force=set()
    )
    assert result.outcome == "undecided"


def test_under_a_hypothesis_on_its_letters_it_stays_a_condition() -> None:
    problem = "Let $a, b, c$ be real numbers with $a + b + c = 0$. Prove that ..."
    steps = ["Simplifying, $a^3 + b^3 + c^3 = 3abc$."]  # no identity; true where a + b + c = 0
    [result] = check_steps(steps, problem, grounder=default_grounder())
    assert result.outcome != "refuted"
    # and a relation earlier in the proof counts as much as one in the problem
    results = check_steps(
        ["We have $x^2 = 1$.", "Simplifying, $x^4 = 1$."], "", grounder=default_grounder()
    )
    assert results[1].outcome != "refuted"


def test_a_relation_in_the_same_sentence_is_in_force() -> None:
    text = "Since $x = 2$, expanding gives $(x+3)^2 = 25$."
    assert machine_check(text, grounder=default_grounder(), in_force=set()).outcome != "refuted"


def test_veristep_review_flags_the_false_expansion_dummylm() -> None:
    """Through the review agent (DummyLM for the referee's confirmation only)."""
    answers = [confirm("logical_breakdown", explanation="(x+3)^2 is x^2 + 6x + 9")]
    trace = review_proof(f"{WRONG} Done.", lm=DummyLM(answers))
    step = trace.steps["s1"]
    assert step.state is State.FLAWED and step.flaw.source == "machine"
    assert "is false" in step.flaw.witness
    _recheck(step.flaw.witness)
