"""Scripted model answers for the LLM tests (DummyLM and the local stub server share them)."""

from __future__ import annotations


def blocks(*steps: tuple[str, str, str]) -> str:
    """A trajectory in the requested block format: (operation, expr, justification) per step."""
    out = []
    for i, (operation, expr, why) in enumerate(steps, 1):
        out += [f"STEP {i}", f"operation: {operation}", f"expr: {expr}",
                f"justification: {why}", "change_type: rewrite"]  # fmt: skip
    return "\n".join(out)


GOOD = blocks(
    ("subtract 4 from both sides", "x^2 - 4 = 0", "the same number on both sides"),
    ("factor the difference of squares", "(x - 2)(x + 2) = 0", "a^2 - b^2 = (a-b)(a+b)"),
    ("set each factor to zero", r"x = 2 \lor x = -2", "zero-product property"),
)
TO_SEVEN = blocks(
    ("take the square root", "x = 2", "square root of 4"),
    ("simplify", "x = 7", "arithmetic"),
)
MISSES = blocks(("subtract 4 from both sides", "x^2 - 4 = 0", "the same number on both sides"))
MALFORMED = "I believe the answer is two, but I will not show the steps."
# JSON with single backslashes in every field: what models really send.
BACKSLASHES = (
    '[{"operation": "multiply \\frac{x}{2} by 2", "expr": "\\left(x\\right) = 6", '
    '"justification": "\\frac{x}{2} \\cdot 2 = x \\text{ and } 3 \\cdot 2 = 6", '
    '"change_type": "rewrite"}]'
)


def answer(trajectory: str) -> dict[str, str]:
    return {"reasoning": "Work one move at a time.", "trajectory": trajectory}
