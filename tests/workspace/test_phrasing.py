"""Free-form phrasing through a scripted DummyLM (the only fake here): the grammar decides."""

from __future__ import annotations

import pytest

from veristep.core.errors import InputError
from veristep.llm.testing import scripted_lm
from veristep.workspace.phrasing import to_operation


def test_grammar_first_no_lm_call_with_dummy_lm() -> None:
    lm = scripted_lm([])  # any call would fail: the grammar reads this on its own
    assert to_operation("factor the left side", "x^2 - 1 = 0", lm).kind == "factor"


def test_free_form_request_is_rewritten_then_parsed_with_dummy_lm() -> None:
    lm = scripted_lm([{"command": "multiply both sides by 2"}])
    op = to_operation("could you get rid of the half on the left?", r"\frac{x}{2} = 3", lm)
    assert (op.kind, op.arg) == ("multiply", "2")


@pytest.mark.parametrize(("reply", "message"), [
    ("dance wildly", "is not a command either"),
    ("none", "no operation"),
])  # fmt: skip
def test_an_unreadable_rewrite_is_an_input_error_with_dummy_lm(reply: str, message: str) -> None:
    lm = scripted_lm([{"command": reply}])
    with pytest.raises(InputError, match=message):
        to_operation("make it nicer somehow", "x + x", lm)


def test_without_a_model_the_grammar_error_stands() -> None:
    with pytest.raises(InputError, match="did you mean factor"):
        to_operation("factr", "x^2 - 1")


def test_workspace_applies_a_rewritten_request_with_dummy_lm() -> None:
    from veristep.core.tiers import Tier
    from veristep.workspace.session import Workspace

    ws = Workspace(r"\frac{x}{2} = 3")
    lm = scripted_lm([{"command": "multiply both sides by 2"}])
    (node,) = ws.apply("get rid of the fraction please", lm=lm)
    assert node.operation == "multiply both sides by 2"
    assert node.verdict.tier is Tier.GROUNDED


def test_a_failing_model_is_an_input_error_with_dummy_lm() -> None:
    lm = scripted_lm([])  # no scripted answer: the call itself fails
    with pytest.raises(InputError, match="language model failed"):
        to_operation("make it nicer", "x + x", lm)
