"""The server's grade of a page's blocks, computed when the page is saved.

A page shows a tier only when this module computed it. A derivation block is judged like
``POST /api/derivations`` judges one (``grading.regrade``); a workspace block has every step of
its tree judged again, parent state to child state. The grade is stored beside the block's data,
never inside it, so nothing a client sends can become a grade.

Grading runs inside the save request, so it shares the request's lanes and deadline: past
``deadline_at`` the block being judged is cut and it and every block after it keep no grade —
they show as "not graded in time", never as anything stronger. A timeout is never evidence.
"""

from __future__ import annotations

import time
from typing import Any

from veristep.core.errors import InputError
from veristep.core.tiers import Tier

GRADED, PARTIAL, LATE, FAILED = "graded", "partial", "late", "failed"
_GRADED_KINDS = ("derivation", "workspace", "exercise")


class GradingCut(BaseException):
    """Raised from a progress hook to stop a chain that ran past the save's deadline.

    A BaseException, like KeyboardInterrupt: the chain checker absorbs an observer's ordinary
    exceptions (a progress hook must not change a verdict), but this one is a cancellation —
    the partial chain is thrown away, nothing of it is shown.
    """


def grade_blocks(engine: Any, blocks: list[dict[str, Any]], deadline_at: float) -> list[Any]:
    """One grade per block (None for kinds without tiers), judged in order until the deadline."""
    grades: list[Any] = []
    for block in blocks:
        kind = block["kind"]
        if kind not in _GRADED_KINDS:
            grades.append(None)
        elif time.monotonic() >= deadline_at:
            grades.append({"status": LATE})
        elif kind == "derivation":
            grades.append(grade_derivation(engine, block["data"]["derivation"], deadline_at))
        elif kind == "workspace":
            grades.append(grade_workspace(engine, block["data"]["workspace"], deadline_at))
        else:
            grades.append(grade_exercise(engine, block["data"]["exercise"]))
    return grades


def grade_exercise(engine: Any, exercise: dict[str, Any]) -> dict:
    """The exercise rebuilt by this server: its expected step judged, its choices made and
    graded here (a client's choices and their "correct" flags are never shown or played)."""
    from veristep.grounding.chain import judge_transition
    from veristep.grounding.decision import Context
    from veristep.workspace.games import next_step_exercise

    settings = engine.settings
    step = judge_transition(exercise["state"], exercise["expected"], None,
                            Context(settings=settings))  # fmt: skip
    if step.tier < Tier.VERIFIED:
        why = f"the expected next step is not one to practise ({step.tier.name_lower}): "
        return {"status": FAILED, "message": why + step.reason}
    try:
        built = next_step_exercise(exercise["state"], exercise["expected"],
                                   exercise.get("operation"), settings)  # fmt: skip
    except InputError as err:
        return {"status": FAILED, "message": err.one_line()}
    return {"status": GRADED, "exercise": built.to_json(), "tier": step.tier.name_lower}


def grade_derivation(engine: Any, derivation: dict[str, Any], deadline_at: float) -> dict:
    from veristep.animate import build_payload
    from veristep.web.grading import regrade

    def stop_when_late(_: dict[str, Any]) -> None:
        if time.monotonic() >= deadline_at:
            raise GradingCut

    try:
        graded = regrade(engine, derivation, progress=stop_when_late)
    except GradingCut:
        return {"status": LATE}
    except InputError as err:
        return {"status": FAILED, "message": err.one_line()}
    return {"status": GRADED, "derivation": graded, "payload": build_payload(graded)}


def grade_workspace(engine: Any, workspace: dict[str, Any], deadline_at: float) -> dict:
    """Every node of the tree judged from its parent; nodes past the deadline keep no grade."""
    from veristep.workspace.session import Workspace

    try:
        ws = Workspace.from_json(workspace, engine.settings)
    except InputError as err:
        return {"status": FAILED, "message": err.one_line()}
    nodes: dict[str, dict[str, Any]] = {}
    status = GRADED
    for node_id in ws.nodes:  # parents come before their children (page_schema orders them)
        if node_id == 0:
            continue
        if time.monotonic() >= deadline_at:
            status = PARTIAL
            break
        verdict = ws.judge_node(node_id)
        nodes[str(node_id)] = {
            "tier": verdict.tier.name_lower,
            "icon": verdict.tier.icon,
            "reason": verdict.reason,
        }
    return {"status": status, "nodes": nodes}


def grade_summary(grade: Any) -> dict[str, Any] | None:
    """What the page API tells a client about one block's grade (no payloads)."""
    if not isinstance(grade, dict):
        return None
    out: dict[str, Any] = {"status": grade.get("status")}
    if grade.get("status") == GRADED and "derivation" in grade:
        out["tier"] = grade["derivation"]["confidence"]["tier"]
    if "nodes" in grade:
        out["nodes"] = {k: v["tier"] for k, v in grade["nodes"].items()}
    if "exercise" in grade:
        out["choices"] = len(grade["exercise"]["choices"])
    if "message" in grade:
        out["message"] = grade["message"]
    return out
