"""The LLM trajectory reader: LaTeX survives JSON, fences, decoded escapes and sloppy blocks."""

from __future__ import annotations

import json

import pytest

from veristep.propose.llm.trajectory import (
    TrajectoryFormatError,
    parse_trajectory,
    repair_json_latex,
    restore_latex,
)

BLOCKS = r"""Here is the derivation.
STEP 1
operation: subtract 5 from both sides
expr: 3x = 6
justification: subtracting the same number keeps the equation
change_type: rewrite
**Step 2:**
- operation: divide both sides by 3
- expr: $x = \frac{6}{3}$
- justification: 3 \ne 0, so dividing
  both sides is allowed
- change_type: REWRITE
"""


def test_block_format_with_markdown_noise():
    steps = parse_trajectory(BLOCKS)
    assert [s.expr_latex for s in steps] == ["3x = 6", r"x = \frac{6}{3}"]
    assert steps[1].justification == r"3 \ne 0, so dividing both sides is allowed"
    assert steps[1].change_type == "rewrite"


def test_json_with_single_backslashes_keeps_every_command():
    raw = (
        '[{"operation": "apply \\frac rule", "expr": "\\left(\\frac{a}{b}\\right) \\times '
        '\\beta \\neq \\theta", "justification": "by \\textbf{definition}", "type": "solve"}]'
    )
    (step,) = parse_trajectory(raw)
    assert step.expr_latex == r"\left(\frac{a}{b}\right) \times \beta \neq \theta"
    assert step.operation == r"apply \frac rule"
    assert step.justification == r"by \textbf{definition}"
    assert step.change_type == "solve"


def test_fenced_json_object_with_steps_key_and_properly_escaped_latex():
    payload = {"steps": [{"operation": "o", "expr_latex": r"\sqrt{x} = \right.", "why": "w"}]}
    raw = "```json\n" + json.dumps(payload) + "\n```"
    assert parse_trajectory(raw)[0].expr_latex == r"\sqrt{x} = \right."


def test_control_characters_from_an_earlier_decoder_are_restored():
    decoded = json.loads('"\\frac{1}{2} \\right) \\times \\beta"')  # what a naive decoder gives
    assert "\f" in decoded and "\r" in decoded
    assert restore_latex(decoded) == r"\frac{1}{2} \right) \times \beta"


def test_repair_leaves_valid_json_escapes_alone():
    assert json.loads(repair_json_latex(r'"a \"quoted\" \\ b"')) == 'a "quoted" \\ b'


def test_unknown_change_type_falls_back_to_rewrite():
    (step,) = parse_trajectory(
        "STEP 1\noperation: o\nexpr: x=1\njustification: j\nchange_type: magic"
    )
    assert step.change_type == "rewrite"


@pytest.mark.parametrize("raw", ["", "I cannot do this.", "[1, 2, 3]", '{"steps": "none"}'])
def test_malformed_output_is_a_typed_error_keeping_the_raw_text(raw):
    with pytest.raises(TrajectoryFormatError) as info:
        parse_trajectory(raw)
    assert info.value.raw == raw
