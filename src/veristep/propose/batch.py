"""One ``derive --batch`` line as a batch-engine task (see ``core.batch``)."""

from __future__ import annotations

from typing import Any

from veristep.core.errors import InputError

_KEYS = ("start", "target", "goal", "domain")


def derive_task(task: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """``{"ok": derivation}``, or ``{"bad": ...}`` for a line ``derive`` refuses.
    ``context``: the settings and the proposer options shared by every line."""
    from veristep.propose.completion import derive

    try:
        found = derive(
            task["start"], task.get("target"), goal=task.get("goal"),
            domain=task.get("domain") or "auto", settings=context["settings"],
            proposer=context["proposer"], model=context["model"], attempts=context["attempts"],
        )  # fmt: skip
    except InputError as err:
        return {"bad": err.to_json(), "message": err.one_line()}
    return {"ok": found.to_json()}


def task_of(item: Any) -> dict[str, Any]:
    """The task of one parsed JSON line; InputError names what is wrong with it."""
    if not isinstance(item, dict):
        raise InputError("each line must be a JSON object with a 'start' string")
    for key in _KEYS:
        if item.get(key) is not None and not isinstance(item[key], str):
            raise InputError(f"'{key}' must be a string")
    if not item.get("start"):
        raise InputError("each line needs a 'start' (LaTeX or plain maths)")
    return {key: item.get(key) for key in _KEYS}
