"""The algebra tools: parse, check, derive, apply, next_step, animation.

Each calls the subpackage that does the work (mathgraph, grounding, propose, workspace,
animate); nothing here grades anything. Checked and derived chains are kept in the server's
state under a short id, so an agent can ask for their animation or read them as a resource.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from veristep.tools.registry import Call, ToolError, ToolSpec, budget, obj, text

LATEX_CHARS = 4_000  # one state; the grounding's own limits (graph size) apply after this
MAX_STATES = 40
MAX_SAVED = 200  # derivations kept per server (oldest dropped first)

_STATE = text("a state in LaTeX or typed maths, e.g. '2x + 3 = 7'", LATEX_CHARS, minLength=1)


def _cas(call: Call, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run ``fn`` as one request of the CAS pool's fair scheduling (a slow one is demoted)."""
    from veristep.core.pool import request_lane

    call.checkpoint()
    with request_lane():
        return fn(*args, **kwargs)


def save_derivation(call: Call, derivation: dict[str, Any]) -> str:
    """Keep ``derivation`` (its JSON) in the server's state; its id is a content hash."""
    key = hashlib.sha256(json.dumps(derivation, sort_keys=True).encode()).hexdigest()[:12]
    saved: dict[str, Any] = call.state.setdefault("derivations", {})
    saved.pop(key, None)
    saved[key] = derivation
    while len(saved) > MAX_SAVED:
        saved.pop(next(iter(saved)))
    return key


# -- parse ------------------------------------------------------------------------------------
def parse(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.mathgraph import PlusMinusError, branches, parse_math, to_latex, to_sympy

    def work() -> dict[str, Any]:
        graph = parse_math(args["latex"], call.settings)  # LaTeX or plain typed maths
        try:
            forms = [str(to_sympy(graph, settings=call.settings))]
        except PlusMinusError:
            forms = [str(b) for b in branches(graph, settings=call.settings)]
        return {
            "latex": to_latex(graph),
            "latex_ids": to_latex(graph, with_ids=True),
            "sympy": forms[0] if len(forms) == 1 else None,
            "branches": forms if len(forms) > 1 else None,
            "statement": graph.is_statement,
        }

    return _cas(call, work)


PARSE = ToolSpec(
    "parse",
    "Parse one state (LaTeX or typed maths) into veristep's semantic graph: its clean LaTeX, "
    "the LaTeX with node ids, and its SymPy form (one per branch for ±). A state that cannot "
    "be read gives an error that shows the position.",
    obj({"latex": text("the state to parse", LATEX_CHARS, minLength=1)}, ["latex"]),
    parse,
    budget_s=10.0,
)


# -- check ------------------------------------------------------------------------------------
def check(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.grounding.chain import check as check_chain

    states = args["states"]
    steps = max(1, len(states) - 1)
    # The grounding observes its callback (an exception there is logged, not raised), so the
    # budget is kept by the steps' own deadlines: a step cut short is unchecked, never evidence.
    settings = call.settings.replace(
        step_timeout_s=min(call.settings.step_timeout_s, max(0.5, call.left / steps))
    )

    def on_step(verdict: Any, n: int) -> None:
        call.report(verdict.index, n, f"step {verdict.index}: {verdict.tier.name_lower}")

    positive = frozenset(args.get("positive") or ())
    derivation = _cas(
        call,
        check_chain,
        states,
        args.get("change_types"),
        args.get("target"),
        settings,
        positive,
        on_step=on_step,
    )
    out = derivation.to_json()
    out["id"] = save_derivation(call, out)
    return out


CHECK = ToolSpec(
    "check",
    "Judge every step of a chain of states, first to last. Each step gets a tier (grounded > "
    "verified > plausible > unchecked > refuted), the check that decided it, a reason and, for a "
    "refuted step, a witness; the chain gets the endpoint gate (did it reach 'target'?) and a "
    "confidence. Tiers come from the verifier only. The result's id names the saved chain.",
    obj(
        {
            "states": {
                "type": "array",
                "items": _STATE,
                "minItems": 1,
                "maxItems": MAX_STATES,
                "description": "the states, first to last",
            },
            "change_types": {
                "type": "array",
                "items": {
                    "type": "string",
                    "enum": ["rewrite", "solve", "substitute", "approximate", "given"],
                },
                "maxItems": MAX_STATES,
                "description": "optional: the claimed kind of each step (one per step)",
            },
            "target": text("optional: the state the chain must reach", LATEX_CHARS),
            "positive": {
                "type": "array",
                "items": text("a symbol", 40),
                "maxItems": 20,
                "description": "symbols assumed positive",
            },
        },
        ["states"],
    ),
    check,
    budget_s=60.0,
)


# -- derive -----------------------------------------------------------------------------------
def derive(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.propose.completion import derive as run_derive

    proposer = args.get("proposer") or "symbolic"
    if proposer == "llm" and not call.settings.model:
        raise ToolError("derive", "no model is configured (set VERISTEP_MODEL)", "proposer")
    # Every attempt gets its share of the budget (derive's own deadline per attempt).
    attempts = args.get("attempts") or (3 if proposer == "symbolic" else 1)
    share = max(1.0, min(call.left / attempts, 120.0))
    settings = call.settings.replace(derive_timeout_s=share)

    def on_step(verdict: Any, n: int) -> None:
        call.report(verdict.index, None, f"step {verdict.index}: {verdict.tier.name_lower}")

    derivation = _cas(
        call,
        run_derive,
        args["start"],
        args["target"],
        settings=settings,
        domain=args.get("domain") or "auto",
        proposer=proposer,
        attempts=args.get("attempts"),
        on_step=on_step,
    )
    out = derivation.to_json()
    out["id"] = save_derivation(call, out)
    return out


DERIVE = ToolSpec(
    "derive",
    "Derive 'target' from 'start' step by step with the offline planner (or the configured "
    "model); every step is graded by the verifier, and the best of a few drafts is kept. The "
    "result has the same shape as 'check' and an id for 'animation'.",
    obj(
        {
            "start": _STATE,
            "target": text("the goal state", LATEX_CHARS, minLength=1),
            "domain": {
                "type": "string",
                "enum": ["auto", "algebra", "calculus", "trigonometry", "sums"],
            },
            "proposer": {"type": "string", "enum": ["symbolic", "llm"]},
            "attempts": {"type": "integer", "minimum": 1, "maximum": 5},
            "budget_s": budget(60.0),
        },
        ["start", "target"],
    ),
    derive,
    budget_s=60.0,
    long=True,
)


# -- apply / next_step ------------------------------------------------------------------------
def apply(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.workspace.session import Workspace

    def work() -> dict[str, Any]:
        ws = Workspace(args["state"], call.settings)
        nodes = ws.apply(args["operation"])
        return {
            "state": args["state"],
            "steps": [_node(n) for n in nodes],
            "result": nodes[-1].latex,
            "weakest_tier": ws.weakest().name_lower if ws.weakest() is not None else None,
        }

    return _cas(call, work)


def _node(node: Any) -> dict[str, Any]:
    verdict = node.verdict.to_json() if node.verdict else None
    return {
        "latex": node.latex,
        "operation": node.operation,
        "warnings": node.warnings,
        "verdict": verdict,
    }


APPLY = ToolSpec(
    "apply",
    "Apply one operation, said in words, to a state: 'divide both sides by x - 1', 'expand', "
    "'subtract 3 from both sides', 'substitute x = 2', 'differentiate'. The new state is "
    "computed with SymPy and graded as a step like any other (a division by a possibly-zero "
    "expression is not grounded).",
    obj(
        {
            "state": _STATE,
            "operation": text("the operation in words", 400, minLength=1),
        },
        ["state", "operation"],
    ),
    apply,
    budget_s=30.0,
)


def next_step(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.workspace.session import Workspace

    def work() -> dict[str, Any]:
        ws = Workspace(args["state"], call.settings)
        move = ws.suggest()
        if move is None:
            return {"state": args["state"], "move": None, "note": "the planner has no next move"}
        step = ws.apply_suggestion()[-1]
        return {"state": args["state"], "move": move, "step": _node(step)}

    return _cas(call, work)


NEXT_STEP = ToolSpec(
    "next_step",
    "The offline planner's next move from a state ('what would you do next?'), with the new "
    "state and the verifier's grade of that step.",
    obj({"state": _STATE}, ["state"]),
    next_step,
    budget_s=30.0,
)


# -- animation --------------------------------------------------------------------------------
def animation(args: dict[str, Any], call: Call) -> dict[str, Any]:
    from veristep.animate import export_html

    saved = call.state.get("derivations", {})
    derivation = saved.get(args["id"])
    if derivation is None:
        raise ToolError("animation", "no saved derivation has this id (use check or derive)", "id")
    html = _cas(call, export_html, derivation)
    folder = call.settings.data_dir / "mcp" / "animations"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{args['id']}.html"
    path.write_text(html, encoding="utf-8")
    out: dict[str, Any] = {
        "id": args["id"],
        "file": str(path),
        "uri": path.as_uri(),
        "bytes": len(html.encode("utf-8")),
    }
    if args.get("inline_html"):
        out["html"] = html
    return out


ANIMATION = ToolSpec(
    "animation",
    "Write a saved derivation (the id from check or derive) as one self-contained, offline "
    "HTML page that animates it step by step with each step's tier; returns its file URI "
    "(and the HTML itself with inline_html).",
    obj(
        {
            "id": text(
                "a derivation id from check or derive", 40, minLength=1, pattern="^[0-9a-f]+$"
            ),
            "inline_html": {"type": "boolean", "description": "also return the HTML"},
        },
        ["id"],
    ),
    animation,
    budget_s=30.0,
)

TOOLS = (PARSE, CHECK, DERIVE, APPLY, NEXT_STEP, ANIMATION)
