"""The review tool: a proof in prose → the machine checks' findings per step, with witnesses.

No model runs here (an agent client *is* the model): the review's machine checks ground what
they can (arithmetic, algebra chains, small cases, instances) and everything else stays open,
so the verdict is honest: "undecided" unless the machine alone decides.
"""

from __future__ import annotations

from typing import Any

from veristep.tools.registry import Call, ToolSpec, budget, obj, text

PROOF_CHARS = 20_000


def review_check(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.core.pool import request_lane
    from veristep.review.run import review_proof

    call.report(0, None, "segmenting and checking")
    with request_lane():
        trace = review_proof(
            args["proof"], settings=call.settings, problem=args.get("problem") or ""
        )
    call.checkpoint()
    steps = []
    for sid in trace.order:
        step = trace.steps[sid]
        record = step.to_json()
        steps.append(
            {
                "id": sid,
                "text": step.text,
                "state": record["state"],
                "tier": record["tier"],
                "machine": record["machine"],
                "flaw": record["flaw"],
                "note": step.note,
            }
        )
    return {"verdict": trace.verdict, "reason": trace.reason, "steps": steps}


REVIEW_CHECK = ToolSpec(
    "review_check",
    "Review a proof written in prose (LaTeX maths in $...$): it is cut into steps and each is "
    "run through the machine checks; each step gets a state (verified / flawed / open), a tier "
    "and, for a flaw, the witness. Without a model nothing unchecked is called verified.",
    obj(
        {
            "proof": text("the proof text", PROOF_CHARS, minLength=1),
            "problem": text("the statement being proved (optional)", 4_000),
            "budget_s": budget(120.0, 300.0),
        },
        ["proof"],
    ),
    review_check,
    budget_s=120.0,
    long=True,
)

TOOLS = (REVIEW_CHECK,)
