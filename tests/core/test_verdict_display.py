"""A judged derivation in a notebook: HTML, Markdown and LaTeX that hold every state, each
step's tier, the deciding check's reason and the witness, and nothing fetched from a network."""

from __future__ import annotations

import veristep

WRONG = ["x^2 - 1 = 0", "(x - 1)(x + 2) = 0"]


def test_html_and_markdown_show_states_tiers_reasons_and_witness() -> None:
    derivation = veristep.check(WRONG)
    step = derivation.steps[0]
    for shown in (derivation._repr_html_(), derivation._repr_markdown_()):
        assert "$x^2 - 1 = 0$" in shown and "$(x - 1)(x + 2) = 0$" in shown
        assert "refuted" in shown and step.reason in shown and "-2" in shown
        assert "http" not in shown and "<script" not in shown


def test_html_escapes_what_the_user_typed() -> None:
    shown = veristep.check(["x < 1", "x < 1 <b>"])._repr_html_()
    assert "<b>" not in shown and "&lt;b&gt;" in shown


def test_latex_lists_each_state_with_its_tier() -> None:
    shown = veristep.check(["2x = 4", "x = 2"])._repr_latex_()
    assert shown.startswith("$$") and "x = 2 && \\text{grounded}" in shown
