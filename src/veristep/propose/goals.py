"""The goals a derivation without a target can have, in a module without SymPy: the command line
offers them as choices before it imports the planner (see ``symbolic.finished`` for their meaning).
"""

from __future__ import annotations

GOALS = (
    "solve", "simplify", "factor", "expand", "differentiate", "integrate", "limit", "evaluate",
    "prove",
)  # fmt: skip
