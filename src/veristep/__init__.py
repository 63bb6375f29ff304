"""veristep: a proposer writes mathematics one step at a time; a verifier judges every step.

The public API is deliberately small; everything else lives in subpackages users need not know.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from veristep.core.errors import InputError, VeristepError
from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier

__version__ = "0.1.0"

# Heavier entry points are resolved lazily so `import veristep` stays cheap (no SymPy import).
_LAZY = {
    "parse_latex": "veristep.mathgraph",
    "parse_math": "veristep.mathgraph",
    "check": "veristep.grounding",
    "derive": "veristep.propose",
    "grade": "veristep.api",
    "Grader": "veristep.api",
    "animation": "veristep.api",
}

__all__ = [
    "Grader",
    "InputError",
    "Relation",
    "Settings",
    "Tier",
    "VeristepError",
    "__version__",
    "animation",
    "check",
    "derive",
    "grade",
    "parse_latex",
    "parse_math",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'veristep' has no attribute {name!r}")
