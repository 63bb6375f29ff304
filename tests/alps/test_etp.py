"""ETP numbering: every line of eq_size5.txt gets its own number, both ways, in seconds."""

from __future__ import annotations

import json
from itertools import islice

from veristep.alps.etp import count_order, etp_id, law_from_id, laws_of_order
from veristep.alps.terms import canonical, dual, parse_law


def _lines(shared_data):
    return (shared_data / "etp" / "eq_size5.txt").read_text(encoding="utf-8").splitlines()


def test_enumeration_reproduces_every_line_of_eq_size5(shared_data):
    lines = _lines(shared_data)
    generated = [str(law) for n in range(6) for law in laws_of_order(n)]
    assert len(lines) == 62_576 == sum(count_order(n) for n in range(6))
    assert generated == lines


def test_every_line_n_gets_number_n(shared_data):
    lines = _lines(shared_data)
    wrong = [n for n, line in enumerate(lines, start=1) if etp_id(parse_law(line)) != n]
    assert wrong == []


def test_numbering_is_invariant_under_renaming_and_side_swap():
    assert etp_id(parse_law("b ◇ (c ◇ a) = b")) == etp_id(parse_law("x = x ◇ (y ◇ z)"))


def test_worked_example_laws_are_duals():
    law = parse_law("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)")
    assert etp_id(law) == 12857
    assert etp_id(dual(law)) == 33436
    assert etp_id(dual(law_from_id(33436))) == 12857


def test_etp_dual_table_of_order_four(shared_data):
    pairs = json.loads((shared_data / "etp" / "duals.json").read_text())
    lines = (shared_data / "etp" / "equations.txt").read_text(encoding="utf-8").splitlines()
    wrong = [(a, b) for a, b in pairs if etp_id(dual(parse_law(lines[a - 1]))) != b]
    assert len(pairs) > 1000 and wrong == []


def test_higher_orders_number_consistently_with_their_enumeration():
    # Order 6 onwards ETP has no file; the scheme must still be a bijection onto positions.
    offset = sum(count_order(n) for n in range(6))
    for k, law in enumerate(islice(laws_of_order(6), 20_000)):
        if k % 397 == 0:
            assert etp_id(law) == offset + k + 1
    # A balanced order-8 law (4 = 4), where ETP's side order and generation order differ.
    law = parse_law("((x ◇ x) ◇ x) ◇ (y ◇ y) = (z ◇ (z ◇ (z ◇ x))) ◇ y")
    swapped = parse_law("(c ◇ (c ◇ (c ◇ a))) ◇ b = ((a ◇ a) ◇ a) ◇ (b ◇ b)")
    low = sum(count_order(n) for n in range(8))
    assert low < etp_id(law) == etp_id(swapped) <= low + count_order(8)
    assert str(canonical(law)).startswith("(x ◇ (x ◇ (x ◇ y)))")  # ETP's side order, not ours
    assert law_from_id(offset + 5000) == next(
        law for k, law in enumerate(laws_of_order(6)) if k == 4999
    )
