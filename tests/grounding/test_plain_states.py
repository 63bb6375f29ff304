"""States typed as plain maths are checked like LaTeX ones and recorded as the LaTeX read."""

from __future__ import annotations

import json

import pytest

from veristep.cli import main
from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.grounding.chain import check
from veristep.grounding.states import parse_state


def test_plain_state_is_recorded_as_the_latex_it_was_read_as() -> None:
    state = parse_state("3/4 y = 6", Settings())
    assert state.reader == "plain" and state.error is None
    assert state.record().latex == r"\frac{3}{4} y = 6"
    latex = parse_state(r"\frac{3}{4} y = 6", Settings())
    assert latex.reader == "latex" and latex.record().latex == r"\frac{3}{4} y = 6"
    assert state.expr == latex.expr


def test_an_unreadable_plain_state_keeps_its_typing_and_the_column() -> None:
    state = parse_state("x = 1/2x", Settings())
    assert state.expr is None and state.record().latex == "x = 1/2x"
    assert state.error is not None and "column 8" in state.error


def test_a_plain_derivation_is_graded_and_rendered_as_latex() -> None:
    derivation = check(["x^2 - 5x + 6 = 0", "(x-2)(x-3) = 0", "x = 2 or x = 3"])
    assert [s.tier for s in derivation.steps] == [Tier.GROUNDED, Tier.GROUNDED]
    # Text that is LaTeX too, read the same both ways, is kept as typed; the rest is recorded
    # as the LaTeX it was read as.
    assert [s.latex for s in derivation.states] == [
        "x^2 - 5x + 6 = 0",
        "(x-2)(x-3) = 0",
        r"x = 2 \text{ or } x = 3",
    ]


def test_a_wrong_plain_step_is_refuted() -> None:
    derivation = check(["x + y = 5, x - y = 1", "x = 3, y = 1"])
    assert derivation.steps[0].tier is Tier.REFUTED


def test_a_function_word_is_not_a_product_of_letters_in_a_step() -> None:
    derivation = check(["floor(x) = 2", "floor(x) - 2 = 0"])
    assert derivation.steps[0].tier is Tier.GROUNDED
    assert derivation.states[0].latex == r"\left\lfloor x\right\rfloor = 2"
    refused = check(["max(x, 1) = 2", "x = 2"])
    assert not refused.states[0].convertible and "max" in (refused.states[0].error or "")


def test_cli_check_takes_plain_states(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "2x + 4 = 10", "2x = 6", "x = 3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [s["tier"] for s in doc["steps"]] == ["grounded", "grounded"]
    assert doc["states"][0]["latex"] == "2x + 4 = 10"  # LaTeX as well: kept as typed
    main(["check", "sqrt(x) = 3", "x = 9", "--json"])
    assert json.loads(capsys.readouterr().out)["states"][0]["latex"] == r"\sqrt{x} = 3"
