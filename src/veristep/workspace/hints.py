"""A hint ladder from the offline planner: a nudge, then the move, then the line.

Each rung says more than the one before; a learner asks for the next rung only when the last did
not help. The move and the line are the planner's first candidate from the current line (run in a
worker under the step budget); the nudge names the *kind* of move without its numbers.

>>> nudge("subtract $8$ from both sides")
'Try getting the term with the unknown alone on one side.'
>>> plain_operation("subtract $8$ from both sides")
'subtract 8 from both sides'
"""

from __future__ import annotations

import re
from typing import Any

from veristep.core.learner import plain_state
from veristep.core.settings import Settings

# First keyword that appears in the planner's operation → a nudge that gives no number away.
_NUDGES = (
    (("subtract", "add ", "bring every term"),
     "Try getting the term with the unknown alone on one side."),
    (("divide", "multiply"), "Try doing the same multiplication or division to both sides."),
    (("square root",), "Undo the square: remember a square has two roots."),
    (("square both",), "Undo the root by squaring, and check your answers at the end."),
    (("factor", "common factor"), "Look for a common factor or a product."),
    (("expand", "multiply out"), "Try multiplying out the brackets."),
    (("split", "case", "zero product", "each factor"),
     "A product is 0 when one of its factors is 0."),
    (("rule",), "Which rule of differentiation or integration fits this expression?"),
    (("differentiate", "derivative"), "Which differentiation rule fits this expression?"),
    (("integrate", "antiderivative"), "Which integration rule fits this expression?"),
    (("limit",), "Simplify first, then let the variable approach its value."),
    (("combine", "collect", "simplify", "common denominator"), "Try collecting like terms."),
)  # fmt: skip


def nudge(operation: str) -> str:
    low = operation.lower()
    for words, said in _NUDGES:
        if any(w in low for w in words):
            return said
    return "Look at the line: what is in the way of the answer?"


def plain_operation(operation: str) -> str:
    """The planner's operation with its $…$ maths spelt plainly."""
    return re.sub(r"\$([^$]*)\$", lambda m: plain_state(m[1]) or m[1], operation).strip()


def hint_ladder(latex: str, settings: Settings | None = None) -> list[dict[str, Any]] | None:
    """The three rungs for the next line after ``latex``, or None when the planner has no move
    (or the line cannot be read): [{"rung": "nudge"|"move"|"line", "text": ..., "latex"?}]."""
    from veristep.grounding.states import parse_state
    from veristep.workspace.applying import plan_next

    settings = settings or Settings()
    state = parse_state(latex, settings)
    if state.error is not None:
        return None
    move = plan_next(state, settings)
    if move is None:
        return None
    line = plain_state(move["latex"]) or move["latex"]
    return [
        {"rung": "nudge", "text": nudge(move["operation"])},
        {"rung": "move", "text": plain_operation(move["operation"]).capitalize() + "."},
        {"rung": "line", "text": f"The next line can be {line}", "latex": move["latex"]},
    ]
