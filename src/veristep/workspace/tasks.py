"""A command with its maths after the verb: ``solve x^2 - 5x + 6 = 0``, ``factor x^3 - 1``,
``plot sin x``. The workspace then starts from that maths and applies the verb (or plots it).

The split is tried only after the phrase failed as a command on the current state, and only at a
word boundary within the first three words, so "divide both sides by x - 1" keeps its meaning.

>>> split_task("solve x^2 - 5x + 6 = 0")
Task(verb='solve', state='x^2 - 5x + 6 = 0')
>>> split_task("complete the square x^2 + 6x")
Task(verb='complete the square', state='x^2 + 6x')
>>> split_task("plot sin x")
Task(verb='plot', state='sin x')
>>> split_task("factr x^2 - 1") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from veristep.core.errors import InputError
from veristep.core.settings import Settings

PLOT = "plot"
MAX_VERB_WORDS = 3


@dataclass(frozen=True)
class Task:
    verb: str  # a command the grammar reads on its own, or "plot"
    state: str  # the maths it applies to, as typed


def split_task(command: str, settings: Settings | None = None) -> Task | None:
    """The verb and the maths of ``command``, or None when it is not of that shape."""
    from veristep.mathgraph import parse_math
    from veristep.workspace.grammar import parse_command

    words = list(re.finditer(r"\S+", command.strip()))
    for n in range(1, min(MAX_VERB_WORDS, len(words) - 1) + 1):
        verb = " ".join(w.group() for w in words[:n])
        state = command.strip()[words[n].start() :].strip()
        if verb.lower() != PLOT:
            try:
                parse_command(verb)
            except InputError:
                continue
        try:
            parse_math(state, settings)
        except InputError:
            continue
        return Task(verb.lower() if verb.lower() == PLOT else verb, state)
    return None
