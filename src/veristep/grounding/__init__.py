"""Grounding: judge every transition of a derivation with SymPy into five honest tiers.

One module per check in ``checks/``, the ordered cascade in ``cascade``, one transition in
``transition``, chain verdicts and the endpoint gate in ``chain``, the human report in ``report``,
and ``veristep check`` in ``commands``. The public names are resolved lazily so that importing
``veristep.grounding.commands`` (which the CLI does for ``--help``) does not import SymPy.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from veristep.core.pool import preload_in_workers

# The checks run inside the CAS workers: their forkserver imports them once, before forking.
WORKER_MODULES = ("veristep.grounding.cascade",)
preload_in_workers(*WORKER_MODULES)

_LAZY = {
    "CHECKS": "veristep.grounding.cascade",
    "Context": "veristep.grounding.decision",
    "Decision": "veristep.grounding.decision",
    "check": "veristep.grounding.chain",
    "endpoint": "veristep.grounding.chain",
    "judge_transition": "veristep.grounding.transition",
}

__all__ = ["CHECKS", "Context", "Decision", "check", "endpoint", "judge_transition"]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'veristep.grounding' has no attribute {name!r}")
