"""Free-form requests → the grammar's own phrases, with an optional DSPy program.

The deterministic grammar (``grammar``) is tried first and always has the last word: the LM only
*rewrites* a request it cannot read ("can you get rid of the fraction on the left?") into one of
the grammar's phrases ("multiply both sides by 2"), and that phrase is parsed by the grammar like
any typed command. An LM answer the grammar cannot read is an :class:`InputError` that quotes it;
the LM never produces an operation, a state or a grade by itself.
"""

from __future__ import annotations

from typing import Any

import veristep.llm  # noqa: F401  (before the lazy dspy imports: LiteLLM stays off the network)
from veristep.core.errors import InputError
from veristep.workspace.grammar import USAGE, Operation, parse_command

PHRASES = sorted(set(USAGE.values()))


def _program() -> Any:
    import dspy

    class ToCommand(dspy.Signature):
        """Rewrite a request about the current maths state as ONE command of the workspace's
        command language. Use the wording of the examples exactly, changing only the maths in
        them; answer 'none' when the request asks for no operation."""

        state: str = dspy.InputField(desc="the current expression or equation, in LaTeX")
        request: str = dspy.InputField(desc="what the person wants, in their own words")
        examples: str = dspy.InputField(desc="commands the workspace understands")
        command: str = dspy.OutputField(desc="one command in the workspace's language")

    return dspy.Predict(ToCommand)


def to_operation(request: str, state: str, lm: Any = None) -> Operation:
    """The operation ``request`` asks for: by the grammar, else through ``lm`` then the grammar."""
    try:
        return parse_command(request)
    except InputError as first:
        if lm is None:
            raise
        unread = first
    import dspy

    try:
        with dspy.context(lm=lm):
            answer = _program()(state=state, request=request, examples="\n".join(PHRASES))
        command = str(answer.command)
    except Exception as exc:  # a model that fails must cost this request only, never crash it
        raise InputError(f"{unread.message}; the language model failed: {type(exc).__name__}",
                         hint=unread.hint) from None  # fmt: skip
    command = command.strip().strip("'\"` ")
    if not command or command.lower() == "none":
        raise InputError(f"no operation in {request!r}", hint=unread.hint)
    try:
        return parse_command(command)
    except InputError as err:
        raise InputError(
            f"the language model's rewrite {command!r} is not a command either: {err.message}"
        ) from None
