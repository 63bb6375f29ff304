"""The history tree (undo, redo, branch, go to a step), persistence, the planner's next move."""

from __future__ import annotations

import pytest

from veristep.core.errors import InputError
from veristep.core.tiers import Tier
from veristep.workspace.session import Workspace


def test_undo_redo_walk_the_history() -> None:
    ws = Workspace("x^2 - 5x + 6 = 0")
    ws.apply("factor")
    lines = ws.apply("solve for x")  # written out: each factor to zero, then each root
    assert len(lines) >= 2 and [n.id for n in ws.path()] == [0, 1, *(n.id for n in lines)]
    for node in reversed(lines[:-1]):
        assert ws.undo().id == node.id
    assert ws.undo().id == 1
    assert ws.undo().id == 0
    with pytest.raises(InputError, match="nothing to undo"):
        ws.undo()
    assert ws.redo().id == 1 and [ws.redo().id for _ in lines] == [n.id for n in lines]
    with pytest.raises(InputError, match="nothing to redo"):
        ws.redo()


def test_applying_after_undo_starts_a_branch_and_keeps_the_old_one() -> None:
    ws = Workspace("x^2 - 5x + 6 = 0")
    factored = ws.apply("factor")[-1]
    ws.undo()
    squared = ws.apply("complete the square")[-1]
    assert {c.id for c in ws.children(0)} == {factored.id, squared.id}
    assert [n.id for n in ws.path()] == [0, squared.id]
    ws.goto(factored.id)
    lines = ws.apply("solve for x")
    assert [n.id for n in ws.path()] == [0, factored.id, *(n.id for n in lines)]
    with pytest.raises(InputError, match="no step 99"):
        ws.goto(99)


def test_derivation_grades_the_current_branch_as_one_chain() -> None:
    ws = Workspace("x^2 - 5x + 6 = 0")
    ws.apply("factor")
    ws.apply("solve for x")
    derivation = ws.derivation()
    operations = [s.operation for s in derivation.steps]
    assert operations[0] == "factor" and len(operations) == 3 and "each factor" in operations[1]
    assert derivation.confidence.tier is Tier.GROUNDED
    assert derivation.proposer["kind"] == "workspace"


def test_json_round_trip_keeps_the_tree_and_the_verdicts() -> None:
    ws = Workspace("2x = 6x^2")
    ws.apply("divide both sides by x")
    ws.undo()
    ws.apply("move everything to the left side")
    data = ws.to_json()
    again = Workspace.from_json(data)
    assert again.to_json() == data
    assert again.nodes[1].warnings == [r"assumes $x \ne 0$"]
    assert again.nodes[1].verdict.tier == ws.nodes[1].verdict.tier
    again.apply("factor")  # a restored workspace keeps working
    assert again.current.verdict is not None


def test_from_json_rejects_a_broken_tree() -> None:
    data = {"start": "x = 1", "nodes": [{"id": 3, "parent": 7, "latex": "x = 1"}]}
    with pytest.raises(InputError, match="missing parent"):
        Workspace.from_json(data)


def test_from_json_rejects_a_repeated_step_that_would_close_a_cycle() -> None:
    # The second step 1 names the first as its parent: kept, it would be its own parent and
    # every walk to the start would loop forever.
    nodes = [{"id": 1, "parent": 0, "latex": "x = 1"}, {"id": 1, "parent": 1, "latex": "x = 1"}]
    with pytest.raises(InputError, match="appears twice"):
        Workspace.from_json({"start": "x = 1", "cursor": 1, "nodes": nodes})


def test_the_planner_suggests_a_next_move_and_it_is_graded_when_taken() -> None:
    ws = Workspace("x^2 - 5x + 6 = 0")
    move = ws.suggest()
    assert move is not None and move["operation"]
    (node,) = ws.apply_suggestion()
    assert node.kind == "planner" and node.verdict.tier >= Tier.VERIFIED


def test_ungraded_workspace_leaves_grading_to_the_chain() -> None:
    ws = Workspace("3x = 12", grade=False)
    (node,) = ws.apply("divide both sides by 3")
    assert node.verdict is None
    assert ws.derivation().steps[0].tier is Tier.GROUNDED


def test_an_operation_can_target_a_selected_subterm() -> None:
    ws = Workspace("(x+1)(x-1) + (x+2)^2 = 0")
    term = ws.term()
    square = next(n.id for n in term.graph.nodes() if n.kind.value == "pow")
    (node,) = ws.apply("expand this", target=square)
    assert r"x^{2} + 4 x + 4" in node.latex.replace(r"\cdot ", "")
    assert r"\left(x + 1\right)" in node.latex  # the rest of the state is untouched
    assert node.verdict.tier is Tier.GROUNDED


def test_a_statement_cannot_be_a_selection_target() -> None:
    ws = Workspace("x + 1 = 2")
    with pytest.raises(InputError, match="sub-expression"):
        ws.apply("expand", target=ws.term().graph.root.id)


@pytest.mark.parametrize(
    "data",
    [{}, {"start": "x = 1", "nodes": [{"id": "a"}]}, {"start": "x = 1", "nodes": 5},
     {"start": "x = 1", "cursor": "z"}, {"start": "x = 1", "nodes": [{"id": 1, "parent": 0,
     "latex": "x = 1", "verdict": {"index": 1, "tier": "gold", "relation": "x"}}]}],
)  # fmt: skip
def test_malformed_workspace_json_is_an_input_error(data: dict) -> None:
    with pytest.raises(InputError):
        Workspace.from_json(data)


def test_solve_is_written_out_one_graded_line_at_a_time() -> None:
    ws = Workspace("2x + 3 = 7")
    lines = ws.apply("solve for x")
    assert [n.latex for n in lines] == ["2 x = 4", "x = 2"]
    assert all(n.verdict is not None and n.verdict.tier is Tier.GROUNDED for n in lines)
    assert "3" in lines[0].operation and "2" in lines[1].operation  # subtract 3, divide by 2


def test_solve_jumps_to_the_roots_only_as_a_labelled_last_resort() -> None:
    from veristep.core.settings import Settings

    # The planner solves over the reals; over the complex numbers solving is one jump, said so.
    ws = Workspace("x^2 + 1 = 0", settings=Settings().replace(domain="complex"))
    (node,) = ws.apply("solve for x")
    assert "in one step" in node.operation and "i" in node.latex
    assert node.verdict is not None and node.verdict.tier is not Tier.REFUTED
