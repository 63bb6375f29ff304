"""Finite model search: SAT (CaDiCaL) against brute force, with every table re-checked."""

from __future__ import annotations

import itertools

import pytest

from veristep.alps.etp import laws_of_order
from veristep.alps.finite_models import counterexample, find_model, satisfies, search
from veristep.alps.terms import parse_law


def _brute_force_has_model(law, n):
    for cells in itertools.product(range(n), repeat=n * n):
        table = tuple(tuple(cells[a * n : (a + 1) * n]) for a in range(n))
        if satisfies(table, law):
            return True
    return False


def test_sat_agrees_with_brute_force_on_all_laws_of_order_two_at_size_two():
    laws = [law for n in range(3) for law in laws_of_order(n)]
    for law in laws:
        table = find_model(law, 2)
        assert (table is not None) == _brute_force_has_model(law, 2), str(law)
        if table is not None:
            assert satisfies(table, law)


@pytest.mark.parametrize(
    "text", ["x = (y ◇ x) ◇ y", "x ◇ y = y ◇ x", "x = x ◇ (x ◇ y)", "x ◇ (y ◇ z) = (x ◇ y) ◇ z"]
)
def test_sat_agrees_with_brute_force_at_size_three(text):
    law = parse_law(text)
    table = find_model(law, 3)
    assert (table is not None) == _brute_force_has_model(law, 3)


def test_austin_law_has_no_small_model_but_a_finite_model_law_does():
    assert search(parse_law("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)"), 4).table is None
    found = search(parse_law("x = ((((((y ◇ z) ◇ y) ◇ z) ◇ x) ◇ y) ◇ y) ◇ y"), 5)
    assert found.table is not None and len(found.table) >= 2
    assert satisfies(found.table, parse_law("x = ((((((y ◇ z) ◇ y) ◇ z) ◇ x) ◇ y) ◇ y) ◇ y"))


def test_forbid_separates_two_laws():
    a, b = parse_law("x = y ◇ x"), parse_law("x ◇ y = y ◇ x")
    table = find_model(a, 2, forbid=[b])
    assert table is not None and satisfies(table, a) and counterexample(table, b) is not None


def test_direct_check_rejects_wrong_and_malformed_tables():
    law = parse_law("x = x ◇ x")
    assert not satisfies(((1, 0), (0, 1)), law)
    assert not satisfies(((0, 5), (1, 1)), law)
    assert not satisfies(((0,), (1, 1)), law)
    assert satisfies(((0, 0), (1, 1)), law)
