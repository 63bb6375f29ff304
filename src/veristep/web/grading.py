"""What the server saves and shows: its own tiers only, and only derivations worth keeping.

A derivation JSON sent by a client is a claim. :func:`regrade` judges its chain here (the states,
their declared change types and the target) and keeps from the client only descriptive text, so a
forged "grounded" never reaches a page, the gallery or an export. :func:`ungraded_view` is how a
stored row that this server did not grade is shown: every tier unchecked. :func:`not_worth_saving`
keeps failed and wrong derivations out of the gallery when a derive saves by itself.

>>> not_worth_saving({"steps": [], "confidence": {"tier": "grounded"}})
'nothing to judge: no steps were made'
>>> ungraded_view({"steps": [{"index": 1, "tier": "grounded"}],
...                "confidence": {"tier": "grounded"}})["steps"][0]["tier"]
'unchecked'
"""

from __future__ import annotations

from typing import Any

from veristep.core.errors import InputError
from veristep.core.verdicts import NOT_GRADED, ungraded_view

__all__ = ["NOT_GRADED", "not_worth_saving", "regrade", "shown", "states_of", "ungraded_view"]

# Text a client may supply for each step: it is shown, but it is never a verdict.
_DESCRIPTIVE = ("operation", "justification", "mapping")


def states_of(derivation: dict[str, Any]) -> list[str]:
    """The LaTeX of each state, or an :class:`InputError` naming what is wrong."""
    states = derivation.get("states")
    if not isinstance(states, list) or not states:
        raise InputError("a derivation needs a non-empty list of states", kind="derivation")
    out: list[str] = []
    for k, state in enumerate(states):
        latex = state.get("latex") if isinstance(state, dict) else state
        if not isinstance(latex, str):
            raise InputError(f"states[{k}].latex must be a string", kind="derivation")
        out.append(latex)
    return out


def regrade(engine: Any, derivation: dict[str, Any], progress: Any = None) -> dict[str, Any]:
    """The client's chain judged by ``engine.check``; the client's tiers are discarded.

    ``progress`` hears each judged step (see ``Engine.check``)."""
    states = states_of(derivation)
    steps_in = derivation.get("steps") if isinstance(derivation.get("steps"), list) else []
    declared = [s.get("change_type") if isinstance(s, dict) else None for s in steps_in]
    change_types = (
        [str(t) for t in declared]
        if len(declared) == len(states) - 1 and all(isinstance(t, str) and t for t in declared)
        else None
    )
    target = derivation.get("target")
    target = target if isinstance(target, str) and target else None
    extra = {"progress": progress} if progress is not None else {}
    graded = engine.check(states, change_types, target, **extra)
    goal = derivation.get("goal")
    if target is None and goal is not None and len(states) > 1:
        graded = _goal_gate(engine, graded, goal)
    for mine, theirs in zip(graded.get("steps") or [], steps_in, strict=False):
        if isinstance(theirs, dict):
            for key in _DESCRIPTIVE:
                value = theirs.get(key)
                if isinstance(value, (str, dict)) and value:
                    mine[key] = value
    proposer = derivation.get("proposer")
    if isinstance(proposer, dict) and isinstance(proposer.get("kind"), str):
        graded["proposer"] = {
            **(graded.get("proposer") or {}),
            "kind": proposer["kind"],
            "model": proposer.get("model") if isinstance(proposer.get("model"), str) else None,
        }
    return graded


def _goal_gate(engine: Any, graded: dict[str, Any], goal: Any) -> dict[str, Any]:
    """A goal-only derivation (no target): reached means the goal's finished form, judged here
    like every tier, and the answer is stated again from this grade (never the client's)."""
    from veristep.core.verdicts import Derivation
    from veristep.propose.answer import apply_goal_gate
    from veristep.propose.symbolic.finished import GOALS

    if goal not in GOALS:
        raise InputError(f"unknown goal {goal!r}; expected one of: {', '.join(GOALS)}",
                         kind="derivation")  # fmt: skip
    return apply_goal_gate(Derivation.from_json(graded), goal, engine.settings).to_json()


def not_worth_saving(derivation: dict[str, Any]) -> str | None:
    """Why an automatic save should skip this derivation, or None to save it."""
    if not derivation.get("steps"):
        return "nothing to judge: no steps were made"
    confidence = derivation.get("confidence") or {}
    if confidence.get("tier") == "refuted":
        return "a step is wrong"
    endpoint = derivation.get("endpoint") or {}
    if not endpoint.get("reached"):
        return "the target was not reached"
    return None


def shown(saved: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """(derivation, payload) of a stored row as pages and exports show it."""
    from veristep.animate import build_payload

    if saved.graded:
        return saved.derivation, saved.payload or build_payload(saved.derivation)
    view = ungraded_view(saved.derivation)
    return view, build_payload(view)
