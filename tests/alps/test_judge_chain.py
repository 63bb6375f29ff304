"""Chain channel: hand-written chains for trivial laws, checked by matching (no prover)."""

from __future__ import annotations

import pytest

from veristep.alps.judge import judge
from veristep.alps.judge.chain import bridge, check_chain, find_application
from veristep.alps.judge.lean_export import compile_chain, scan
from veristep.alps.selftest import LAW_4916, two_position_chain
from veristep.alps.terms import parse_law, parse_term


def terms(*texts: str):
    return [parse_term(t) for t in texts]


def test_issue_example_a_to_a_op_a_to_b_is_accepted_with_per_link_matches():
    law = parse_law("x = y ◇ z")
    result = check_chain(law, terms("a", "a ◇ a", "b"))
    assert result.accepted
    first, second = result.links
    assert (first.how.direction, first.how.position) == ("forward", ())
    assert first.how.sigma == {"x": "a", "y": "a", "z": "a"}
    # Reverse: a ◇ a is an instance of y ◇ z, and collapses to the x-binding b.
    assert second.how.direction == "reverse" and second.how.sigma["x"] == "b"


def test_direct_jump_between_a_and_b_is_rejected_with_alps_message():
    v = judge("x = y ◇ z", {"chain": ["a", "b"]})
    assert v.status == "rejected"
    assert v.message == (
        "step 1 (a = b) is not a law application and could not be bridged within 3 steps"
    )


def test_application_inside_a_subterm_is_found_at_its_position():
    law = parse_law("x = y ◇ (z ◇ y)")
    s, t = terms("b ◇ a", "b ◇ (a ◇ (b ◇ a))")
    app = find_application(law, s, t)
    assert app is not None and app.position == (1,) and app.direction == "forward"


def test_hand_chain_for_a_cert63_style_law_through_a_waypoint():
    # x = y ◇ (z ◇ y): x does not occur on the right, so every element equals one value.
    law = "x = y ◇ (z ◇ y)"
    # Step 2 rewrites the inner `a` at position 1.0 into an instance of y ◇ (z ◇ y); the
    # result is an instance at the root, which collapses to any element, e.g. b.
    chain = ["a", "a ◇ (a ◇ a)", "a ◇ ((b ◇ (a ◇ b)) ◇ a)", "b"]
    v = judge(law, {"chain": chain})
    assert v.status == "accepted", v.message
    assert [link["ok"] for link in v.certificate["links"]] == [True, True, True]


def test_coarse_link_is_bridged_by_shrinking_applications_only():
    law = parse_law("x = x ◇ y")
    # ((a ◇ b) ◇ a) → a: two reverse (shrinking) applications.
    path = bridge(law, *terms("(a ◇ b) ◇ a", "a"))
    assert [str(t) for t, _ in path] == ["a ◇ b", "a"]
    # Growing in one place and shrinking in another is two changes: never bridged.
    assert bridge(law, *terms("(a ◇ b) ◇ a", "a ◇ (a ◇ b)")) is None


def test_two_position_change_is_rejected_at_that_link():
    v = judge(LAW_4916, {"chain": two_position_chain()})
    assert v.status == "rejected"
    assert v.message.startswith("step 3 (")


def test_wrong_endpoints_and_repeated_terms():
    assert judge("x = y ◇ z", {"chain": ["b", "a ◇ a", "a"]}).status == "invalid"
    # A repeated term is reflexivity: accepted and adds no step to the proof.
    v = judge("x = y ◇ z", {"chain": ["a", "a", "a ◇ a", "b"]})
    assert v.status == "accepted"


@pytest.mark.parametrize(
    "law, chain",
    [
        ("x = y ◇ z", ["a", "a ◇ a", "b"]),
        ("x = y ◇ (z ◇ y)", ["a", "a ◇ (a ◇ a)", "a ◇ ((b ◇ (a ◇ b)) ◇ a)", "b"]),
    ],
)
def test_accepted_chain_compiles_to_a_gated_lean_calc(law, chain):
    parsed = parse_law(law)
    result = check_chain(parsed, terms(*chain))
    body = compile_chain(parsed, result)
    assert scan(body) == []
    calc_lines = [line for line in body.splitlines() if line.strip().startswith(("calc", "_ ="))]
    assert len(calc_lines) == len(result.expanded())
    assert "calc a = " in body and body.rstrip().endswith(".symm")


def test_lean_export_wraps_deep_positions_in_congr_arg():
    law = parse_law("x = y ◇ (z ◇ y)")
    result = check_chain(law, terms("a", "a ◇ (a ◇ a)", "a ◇ ((b ◇ (a ◇ b)) ◇ a)", "b"))
    assert result.accepted
    assert result.links[1].how.position == (1, 0)
    body = compile_chain(law, result)
    assert "congrArg (fun t => op a t) (congrArg (fun t => op t a) (h " in body
