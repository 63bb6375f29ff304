"""The interactive side on the same spine: every operation is a step, every step is graded.

``Workspace`` (conversational CAS: a command grammar → operations applied with SymPy in killable
workers, graded by the grounding cascade, with undo/redo/branch), ``parse_command`` (the grammar),
``TermGraph`` (the LaTeX term and its graph as one object with stable ids), ``Page``/``Block``/
``PageStore`` (pages of blocks, saved with versions), ``next_step_exercise``/``grade_answer``
(the next-step game with distractors from mistake families).
No HTTP here: the web routes call these.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "Operation": "veristep.workspace.grammar",
    "parse_command": "veristep.workspace.grammar",
    "Workspace": "veristep.workspace.session",
    "TermGraph": "veristep.workspace.sync",
    "Page": "veristep.workspace.pages",
    "Block": "veristep.workspace.pages",
    "PageStore": "veristep.workspace.page_store",
    "Exercise": "veristep.workspace.games",
    "next_step_exercise": "veristep.workspace.games",
    "grade_answer": "veristep.workspace.games",
    "Update": "veristep.workspace.sync",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'veristep.workspace' has no attribute {name!r}")
