"""The checker of ordered presentations: what it accepts is a model, what it rejects and why.

The order is tested against an independent ground KBO on random terms; the checker against
Twee's published certificates for the paper's worked example (a second prover's output), and
against presentations that must fail.
"""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest

from veristep.alps.judge.ground_model import (
    MIN,
    Equation,
    Term,
    cases,
    check_ordered,
    greater,
    parse_equation,
    show,
    substitute,
    variables,
)

FIXTURES = Path(__file__).parent / "fixtures" / "alps_dev"
LAW_12857 = parse_equation("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)")
LAW_33436 = parse_equation("x = ((y ◇ (((z ◇ z) ◇ y) ◇ x)) ◇ y)")
RANK = {MIN: 0, "a": 1, "b": 2}


def twee_rules(name: str) -> list[Equation]:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return [parse_equation(m.group(1)) for m in re.finditer(r"^\s*\d+\.\s+(.*)$", text, re.M)]


# ---------------------------------------------------------------- the order


def ground_size(t: Term) -> int:
    return ground_size(t[0]) + ground_size(t[1]) + 1 if isinstance(t, tuple) else 1


def ground_kbo_greater(s: Term, t: Term) -> bool:
    """KBO on ground terms, written from its definition (weights 1, ? < a < b)."""
    ws, wt = ground_size(s), ground_size(t)
    if ws != wt:
        return ws > wt
    if isinstance(s, str) and isinstance(t, str):
        return RANK[s] > RANK[t]
    if s[0] != t[0]:
        return ground_kbo_greater(s[0], t[0])
    return ground_kbo_greater(s[1], t[1])


def random_term(rng: random.Random, leaves: list, size: int) -> Term:
    if size <= 1:
        return rng.choice(leaves)
    left = rng.randrange(0, size - 1) | 1  # odd sizes only
    left = min(left, size - 2)
    return (random_term(rng, leaves, left), random_term(rng, leaves, size - 1 - left))


def case_of(sigma: dict[int, Term]) -> tuple[dict[int, Term], dict[int, int]]:
    """The identification and rank that a ground substitution falls into."""
    ident: dict[int, Term] = {}
    values = sorted(set(sigma.values()), key=functools.cmp_to_key(_compare))
    reps: dict[Term, int] = {}
    for v in sorted(sigma):
        if sigma[v] == MIN:
            ident[v] = MIN
        elif sigma[v] in reps:
            ident[v] = reps[sigma[v]]
        else:
            reps[sigma[v]] = v
    rank = {v: values.index(sigma[v]) + 1 for v in reps.values()}
    return ident, rank


def _compare(a: Term, b: Term) -> int:
    return 0 if a == b else (1 if ground_kbo_greater(a, b) else -1)


def test_the_order_under_a_case_holds_for_every_ground_instance_in_that_case():
    rng = random.Random(7)
    ground_leaves = [MIN, "a", "b"]
    decided = 0
    for _ in range(4000):
        s = random_term(rng, [0, 1, 2, MIN], rng.choice([1, 3, 5, 7, 9]))
        t = random_term(rng, [0, 1, 2, MIN], rng.choice([1, 3, 5, 7, 9]))
        sigma = {v: random_term(rng, ground_leaves, rng.choice([1, 1, 3, 5])) for v in (0, 1, 2)}
        ident, rank = case_of(sigma)
        a, b = substitute(s, ident), substitute(t, ident)
        truth = ground_kbo_greater(substitute(s, sigma), substitute(t, sigma))
        if greater(a, b, rank):
            decided += 1
            assert truth, (show(s), show(t), sigma)
        if greater(s, t):  # no case at all: every instance
            assert truth, (show(s), show(t), sigma)
    assert decided > 800  # the test exercises the ordered cases, not only "no"


def test_the_cases_cover_every_way_ground_instances_compare():
    rng = random.Random(3)
    all_cases = [(tuple(sorted(i.items())), tuple(sorted(r.items()))) for i, r in cases([0, 1, 2])]
    assert len(all_cases) == len(set(all_cases)) == 2 * 13  # Fubini(3) = 13, each with or without ?
    for _ in range(500):
        sigma = {v: random_term(rng, [MIN, "a"], rng.choice([1, 1, 3])) for v in (0, 1, 2)}
        ident, rank = case_of(sigma)
        # the same case up to which variable represents a block: compare the induced preorders
        induced = _preorder(ident, rank)
        assert any(_preorder(dict(i), dict(r)) == induced for i, r in all_cases)


def _preorder(ident: dict[int, Term], rank: dict[int, int]) -> tuple:
    level = {v: (0 if ident.get(v) == MIN else rank[ident.get(v, v)]) for v in (0, 1, 2)}
    return tuple(level[a] < level[b] for a in (0, 1, 2) for b in (0, 1, 2)) + tuple(
        level[v] == 0 for v in (0, 1, 2)
    )


# ---------------------------------------------------------------- certificates


@pytest.mark.parametrize(
    ("law", "name", "count"), [(LAW_12857, "twee_12857.out", 55), (LAW_33436, "twee_33436.out", 54)]
)
def test_twees_published_certificates_for_the_worked_example_are_accepted(law, name, count):
    rules = twee_rules(name)
    assert len(rules) == count
    result = check_ordered(law, rules)
    assert result.certified, result.reason
    assert result.critical_pairs > 1000 and result.case_splits > 0
    assert result.oriented < count  # unorientable equations were needed and checked by cases


def test_the_certificate_without_its_unorientable_equations_is_rejected():
    rules = twee_rules("twee_12857.out")
    oriented_only = [eq for eq in rules if greater(eq.lhs, eq.rhs) or greater(eq.rhs, eq.lhs)]
    assert len(oriented_only) < len(rules)
    result = check_ordered(LAW_12857, oriented_only)
    assert not result.certified
    assert result.reason == "a critical pair is not shown ground joinable" and result.failures


def test_a_certificate_for_one_law_does_not_certify_another():
    result = check_ordered(parse_equation("x = y ◇ (x ◇ y)"), twee_rules("twee_12857.out"))
    assert not result.certified
    assert result.reason == "the law's two sides are not shown ground joinable"


def test_a_collapsing_presentation_is_rejected_as_trivial():
    # x = ? makes every element ?: the checker rewrites the constants too and finds a = b.
    result = check_ordered(parse_equation("x = (y ◇ x) ◇ z"), [parse_equation("x = ?")])
    assert not result.certified and "trivial" in result.reason


def test_a_presentation_that_is_not_confluent_is_rejected():
    # x = (y ◇ x) ◇ z has only the trivial model; its law alone overlaps itself badly.
    law = parse_equation("x = (y ◇ x) ◇ z")
    result = check_ordered(law, [parse_equation("(y ◇ x) ◇ z = x")])
    assert not result.certified and result.failures


def test_an_unusable_equation_is_named():
    result = check_ordered(
        parse_equation("x ◇ y = z ◇ y"), [parse_equation("x ◇ y = z ◇ y")]
    )  # neither side's variables contain the other's
    assert not result.certified and "neither oriented nor balanced" in result.reason


def test_commutativity_is_a_model_of_itself_by_cases():
    result = check_ordered(parse_equation("x ◇ y = y ◇ x"), [parse_equation("y ◇ x = x ◇ y")])
    assert result.certified and result.oriented == 0


@pytest.mark.parametrize("text", ["", "x =", "f(x, = y", "x = y = z", "x ◇ ◇ y = x", "x -> "])
def test_malformed_equations_raise_value_errors(text):
    with pytest.raises(ValueError):
        parse_equation(text)


def test_the_budget_is_never_a_certificate():
    result = check_ordered(LAW_12857, twee_rules("twee_12857.out"), work_limit=10_000)
    assert not result.certified and "budget" in result.reason


def test_variables_of_parsed_prover_output_are_numbered():
    eq = parse_equation("f(X, f(?, Y)) -> Y")
    assert eq.lhs == (0, (MIN, 1)) and eq.rhs == 1 and variables(eq.lhs) == {0, 1}
