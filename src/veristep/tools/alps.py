"""The ALPS tools: ETP numbers, screening one law, judging a chain or construction submission.

Screening and judging call E with wall deadlines (the prover runs in its own process); the
finite-model stage is bounded by the model size. Laws are parsed by ALPS's own parser, which
refuses oversized or malformed text with a located message.
"""

from __future__ import annotations

from typing import Any

from veristep.tools.registry import Call, ToolError, ToolSpec, budget, obj, text

LAW_CHARS = 400
MAX_ID_ORDER = 8  # ETP numbering is arithmetic up to here; beyond it a block is enumerated
SUBMISSION_CHARS = 200_000
CERTIFICATE_CHARS = 20_000  # of one stage's certificate sent to a client as an event

_LAW = text("a magma law with ◇ or *, e.g. 'x = y ◇ (x ◇ z)'", LAW_CHARS, minLength=1)


def alps_id(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.alps.etp import etp_id, law_from_id
    from veristep.alps.terms import order, parse_law

    if (args.get("law") is None) == (args.get("id") is None):
        raise ToolError("alps_id", "give either 'law' or 'id'")
    if args.get("id") is not None:
        law = law_from_id(args["id"])
        return {"id": args["id"], "law": str(law)}
    law = parse_law(args["law"])
    size = order(law.lhs) + order(law.rhs)
    if size > MAX_ID_ORDER:
        raise ToolError("alps_id", f"order {size} is above {MAX_ID_ORDER}", "law")
    return {"law": str(law), "id": etp_id(law), "order": size}


ALPS_ID = ToolSpec(
    "alps_id",
    "The Equational Theories Project number of a magma law (or the law of a number).",
    obj({"law": _LAW, "id": {"type": "integer", "minimum": 1, "maximum": 10_000_000}}, []),
    alps_id,
    budget_s=10.0,
)


def alps_screen(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.alps.screen import make_prover, screen_law
    from veristep.alps.stages import ScreenBudget

    prover_s = max(1.0, min(call.left / 4, 30.0))  # up to four prover stages share the budget
    limits = ScreenBudget(prover_s=prover_s, memory_mb=min(call.settings.prover_memory_mb, 2048))
    call.report(0, None, "finite models, then E")
    report = screen_law(args["law"], limits, make_prover("e/auto"))
    call.checkpoint()
    # The certificates (a prover's proof, a completion's rules) are long: only a client that
    # shows them (the web's laws page) hears them, as a structured event.
    call.event(
        {
            "event": "certificates",
            "certificates": {
                s.stage: {"prover": s.prover, "text": s.certificate[:CERTIFICATE_CHARS]}
                for s in report.stages
                if s.certificate
            },
        }
    )
    return report.to_json()


ALPS_SCREEN = ToolSpec(
    "alps_screen",
    "Screen one magma law: trivial? has a finite model? admissible (Austin)? a nontrivial "
    "model? Each stage with its outcome and certificate source (SAT search, ordered "
    "completion, E). 'unknown' is never a yes or a no.",
    obj({"law": _LAW, "budget_s": budget(60.0, 300.0)}, ["law"]),
    alps_screen,
    budget_s=60.0,
    long=True,
)


def alps_judge(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.alps.judge import JudgeConfig, judge
    from veristep.alps.screen import make_prover

    config = JudgeConfig(
        prover=make_prover("e/auto"),
        timeout_s=max(1.0, min(call.left - 1.0, call.settings.prover_timeout_s)),
        memory_mb=call.settings.prover_memory_mb,
        lean=None,  # Lean export is a batch job, not an interactive tool
    )
    call.report(0, None, "judging")
    verdict = judge(args["law"], args["submission"], config)
    # The certificate itself (each link's law application, a construction's checks) for a
    # client that shows it; MCP clients get its hash in the verdict.
    if verdict.certificate is not None:
        call.event({"event": "certificate", "certificate": verdict.certificate})
    return verdict.to_json()


ALPS_JUDGE = ToolSpec(
    "alps_judge",
    "Judge a submission for a law: {'chain': [terms...]} (each link one application of the "
    "law) or a construction {'E': ..., ...}. Returns accepted / rejected / invalid with the "
    "reason and a sealed certificate hash.",
    obj(
        {
            "law": _LAW,
            "submission": text("the submission's JSON text", SUBMISSION_CHARS, minLength=2),
            "budget_s": budget(60.0, 300.0),
        },
        ["law", "submission"],
    ),
    alps_judge,
    budget_s=60.0,
    long=True,
)

TOOLS = (ALPS_ID, ALPS_SCREEN, ALPS_JUDGE)
