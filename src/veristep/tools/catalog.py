"""What agents read besides tools: resources (the tier table, a benchmark statement, a saved
derivation) and prompts for the common jobs, written once for every client.

>>> read_resource("veristep://tiers", {})[1].splitlines()[0]
'# veristep tiers (strongest first)'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from veristep.core.errors import InputError

TIER_TABLE = """# veristep tiers (strongest first)
- grounded: proved by a checker (a symbolic identity, an exact solution-set relation, a prover
  proof, a kernel-checked tactic)
- verified: strong machine evidence short of a proof (a step valid under an assumption it names,
  such as dividing by a parameter; landmark agreement; a step that only adds values, squaring)
- plausible: well-formed, but no checker could decide (a timeout, an unsupported function), or a
  step that loses a solution (the lost value is named)
- unchecked: nothing was checked (unreadable or unsupported notation, a value undefined over the
  reals, nothing to judge)
- refuted: a checker shows the step does not follow, with a witness a person can substitute

A chain's verdict is its weakest step, then two gates: a solved last state that admits a value
not solving the start is refuted, one that loses a solution is capped at plausible; a last state
that is not the target as written is capped at plausible. A timeout is never evidence.

Only coq_check says a Coq proof is proved (strict acceptance: clean compile against the
reference statement, coqchk axiom audit). An agent must report tiers exactly as the tools give
them and never promote one.
"""


@dataclass(frozen=True)
class ResourceSpec:
    uri: str  # a fixed URI or a template with one {name}
    name: str
    description: str
    mime_type: str

    @property
    def template(self) -> bool:
        return "{" in self.uri


RESOURCES = (
    ResourceSpec(
        "veristep://tiers", "tiers", "The tier table and what each tier means.", "text/markdown"
    ),
    ResourceSpec(
        "veristep://minif2f/{name}",
        "minif2f",
        "A miniF2F-rocq theorem: its header and statement.",
        "text/plain",
    ),
    ResourceSpec(
        "veristep://derivation/{id}",
        "derivation",
        "A derivation saved by check or derive in this session (JSON).",
        "application/json",
    ),
)


def read_resource(uri: str, state: dict[str, Any]) -> tuple[str, str]:
    """(mime type, text) of ``uri``; an unknown one is an :class:`InputError`."""
    if uri == "veristep://tiers":
        return "text/markdown", TIER_TABLE
    if uri.startswith("veristep://minif2f/"):
        from veristep.tools.coq import benchmark_theorem

        theorem = benchmark_theorem(uri.rsplit("/", 1)[1])
        return "text/plain", f"{theorem.header.rstrip()}\n\n{theorem.statement}\n"
    if uri.startswith("veristep://derivation/"):
        saved = state.get("derivations", {}).get(uri.rsplit("/", 1)[1])
        if saved is None:
            raise InputError(f"no saved derivation at {uri}")
        return "application/json", json.dumps(saved, ensure_ascii=False)
    raise InputError(f"unknown resource {uri!r}")


@dataclass(frozen=True)
class PromptSpec:
    name: str
    description: str
    arguments: tuple[tuple[str, str, bool], ...]  # (name, description, required)
    template: str


PROMPTS = (
    PromptSpec(
        "check_my_derivation",
        "Check a derivation step by step and explain each tier.",
        (("states", "the states, one per line", True), ("target", "the goal, if any", False)),
        "Check this derivation with the veristep `check` tool, one state per line:\n{states}\n"
        "{target_line}Report each step's tier exactly as the tool gives it (grounded, verified, "
        "plausible, unchecked, refuted), quote the witness of any refuted step, and never call a "
        "step proven unless its tier is grounded or verified.",
    ),
    PromptSpec(
        "prove_coq_theorem",
        "Prove a miniF2F-rocq theorem interactively, then get the strict verdict.",
        (("name", "the theorem's name, e.g. mathd_algebra_412", True),),
        "Prove the Coq theorem {name}. Open it with `coq_open` (name={name}), read the goals, "
        "and step with `coq_run` (one tactic at a time; `coq_try` to compare candidates, "
        "`coq_back` to undo, `coq_search` for lemma names). When no goals are left, send the "
        "proof_file to `coq_check` with expect={name}. Say the theorem is proved only if "
        "coq_check answers proved: true.",
    ),
    PromptSpec(
        "review_this_proof",
        "Machine-check a proof written in prose.",
        (("proof", "the proof text (maths in $...$)", True),),
        "Review this proof with the veristep `review_check` tool and report, step by step, "
        "what the machine checks found (with witnesses for flaws); steps it leaves open stay "
        "open in your report.\n\n{proof}",
    ),
)


def render_prompt(name: str, arguments: dict[str, str]) -> str:
    spec = next((p for p in PROMPTS if p.name == name), None)
    if spec is None:
        raise InputError(
            f"unknown prompt {name!r}; the prompts are: {', '.join(p.name for p in PROMPTS)}"
        )
    values = {key: str(arguments.get(key) or "")[:20_000] for key, _, _ in spec.arguments}
    missing = [key for key, _, required in spec.arguments if required and not values[key]]
    if missing:
        raise InputError(f"prompt {name!r} needs the argument {missing[0]!r}")
    target = values.get("target")
    values["target_line"] = f"The target is: {target}\n" if target else ""
    return spec.template.format(**values)
