"""Terms and laws: parsing both notations, printing, canonical form, duals, matching, rewriting."""

from __future__ import annotations

import pytest

from veristep.alps.terms import (
    Op,
    Var,
    canonical,
    dual,
    match,
    parse_law,
    parse_term,
    replace_at,
    rewrite_at,
    show,
    substitute,
    subterm_at,
)
from veristep.core.errors import InputError


def test_star_and_diamond_notations_agree():
    assert parse_law("x = y*((x*(y*(z*z)))*y)") == parse_law("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)")


def test_missing_parentheses_associate_left_and_double_spaces_are_fine():
    assert parse_term("x ◇ y ◇ z") == Op(Op(Var("x"), Var("y")), Var("z"))
    assert str(parse_law("x =  ((y ◇ y) ◇ z) ◇ x")) == "x = ((y ◇ y) ◇ z) ◇ x"


def test_every_etp_line_round_trips(shared_data):
    lines = (shared_data / "etp" / "equations.txt").read_text(encoding="utf-8").splitlines()
    assert all(str(parse_law(line)) == line for line in lines)


@pytest.mark.parametrize(
    ("text", "column"),
    [("x = y ◇ (x", 11), ("x = y + z", 7), ("x ◇ y", 6), ("x = ◇ y", 5), ("", 1)],
)
def test_bad_laws_get_located_errors(text, column):
    with pytest.raises(InputError) as info:
        parse_law(text)
    assert info.value.position == column - 1


def test_absurd_nesting_is_an_input_error_not_a_recursion_crash():
    with pytest.raises(InputError, match="nested deeper"):
        parse_law("x = " + "(" * 5000 + "x" + ")" * 5000)


def test_canonical_renames_by_first_occurrence_and_orders_sides():
    assert str(canonical(parse_law("b ◇ a = c"))) == "x = y ◇ z"
    # Equal shapes: the smaller renaming of the two orientations.
    assert str(canonical(parse_law("y ◇ x = x ◇ x"))) == "x ◇ x = y ◇ x"


def test_dual_reverses_every_product_and_is_an_involution():
    law = parse_law("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)")
    assert str(dual(law)) == "x = (y ◇ (((z ◇ z) ◇ y) ◇ x)) ◇ y"
    assert dual(dual(law)) == law


def test_substitution_matching_and_positions():
    t = parse_term("(x ◇ y) ◇ x")
    sigma = match(t, parse_term("((a ◇ a) ◇ b) ◇ (a ◇ a)"))
    assert sigma is not None and show(sigma["x"]) == "a ◇ a"
    assert substitute(t, sigma) == parse_term("((a ◇ a) ◇ b) ◇ (a ◇ a)")
    assert match(t, parse_term("(a ◇ b) ◇ b")) is None
    assert subterm_at(t, (0, 1)) == Var("y")
    assert replace_at(t, (1,), Var("z")) == parse_term("(x ◇ y) ◇ z")


def test_one_step_rewriting_in_both_directions_of_a_law():
    law = parse_law("x = y ◇ (x ◇ z)")
    start = parse_term("a ◇ b")
    forward = rewrite_at(start, (0,), law.lhs, law.rhs, {"y": Var("c"), "z": Var("d")})
    assert forward == parse_term("(c ◇ (a ◇ d)) ◇ b")
    back = rewrite_at(forward, (0,), law.rhs, law.lhs)
    assert back == start
    assert rewrite_at(start, (0,), law.rhs, law.lhs) is None  # no instance of the rhs there
    assert rewrite_at(start, (0,), law.lhs, law.rhs) is None  # y, z need values
