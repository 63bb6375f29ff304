"""The chat-agent tool ``derive_proof_animation``: a DSPy ReAct tool and an OpenAI function.

The tool runs the real proposer and verifier and saves the result; what it hands back is the
verified payload with every step's tier. The chat route returns that payload itself, next to the
agent's prose, so a model cannot present an ungrounded step as proven: the tiers the user sees come
from the verifier, never from the model's text.

>>> TOOL_SCHEMA["function"]["name"], TOOL_SCHEMA["function"]["parameters"]["required"]
('derive_proof_animation', ['target_latex'])
>>> known_endpoints("please derive the quadratic formula")[0]
'a x^2 + b x + c = 0'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from veristep.core.errors import InputError
from veristep.tools.adapters import DERIVE_PROOF_ANIMATION, check_arguments
from veristep.tools.registry import ToolError

# Defined once, in the tool registry's adapters: the MCP server, DSPy and this chat read it there.
TOOL_NAME = DERIVE_PROOF_ANIMATION.name
TOOL_DESCRIPTION = DERIVE_PROOF_ANIMATION.description
TOOL_SCHEMA: dict[str, Any] = DERIVE_PROOF_ANIMATION.openai_schema()

# Well-known results the agent may name without a start: (keywords, start, target).
_KNOWN: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (
        ("quadratic formula", "quadratic equation", "roots of a quadratic"),
        "a x^2 + b x + c = 0",
        "x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}",
    ),
)


def known_endpoints(text: str) -> tuple[str, str] | None:
    """The (start, target) of a well-known result named in ``text``, if any."""
    lowered = re.sub(r"\s+", " ", text.lower())
    for words, start, target in _KNOWN:
        if any(w in lowered for w in words) or _squash(target) == _squash(text):
            return start, target
    return None


def _squash(latex: str) -> str:
    return re.sub(r"\s+", "", latex)


@dataclass
class ProofAnimationTool:
    """The tool bound to a derive function (``(start, target) -> answer dict``)."""

    run: Callable[[str, str], dict[str, Any]]
    results: list[dict[str, Any]] = field(default_factory=list)  # full answers, for the route

    def __call__(
        self, target_latex: str, start_latex: str | None = None, prompt: str | None = None
    ) -> dict[str, Any]:
        start = (start_latex or "").strip()
        target = (target_latex or "").strip()
        if not start:
            known = known_endpoints(target) or known_endpoints(prompt or "")
            if known is None:
                return {"error": "start_latex is required unless the target is a well-known result"}
            start, target = known[0], target or known[1]
        try:
            answer = self.run(start, target)
        except InputError as err:
            return {"error": err.one_line()}
        self.results.append(answer)
        return for_model(answer)

    def call_json(self, arguments: str) -> str:
        """OpenAI-style: arguments arrive as a JSON string, the result leaves as one."""
        try:
            args = check_arguments(DERIVE_PROOF_ANIMATION, arguments)
        except ToolError as err:  # the registry's located message, same as over MCP
            return json.dumps({"error": str(err)}, ensure_ascii=False)
        return json.dumps(self(**args), ensure_ascii=False)


def for_model(answer: dict[str, Any]) -> dict[str, Any]:
    """What the model reads: the verdict and each step's tier, nothing it could restyle."""
    d = answer["derivation"]
    return {
        "url": answer.get("url"),
        "id": answer.get("id"),
        "overall_tier": d["confidence"]["tier"],
        "summary": d["confidence"]["summary"],
        "endpoint_reached": d["endpoint"]["reached"],
        "steps": [
            {"index": s["index"], "tier": s["tier"], "operation": s.get("operation")}
            for s in d["steps"]
        ],
    }


def react_agent(tool: ProofAnimationTool) -> Any:
    """A DSPy ReAct program whose only tool is ``derive_proof_animation``."""
    import dspy

    def derive_proof_animation(
        target_latex: str, start_latex: str | None = None, prompt: str | None = None
    ) -> dict[str, Any]:
        return tool(target_latex=target_latex, start_latex=start_latex, prompt=prompt)

    derive_proof_animation.__doc__ = TOOL_DESCRIPTION

    class Chat(dspy.Signature):
        """Answer a request for a mathematical derivation. Always call derive_proof_animation and
        report the tiers it returns exactly; never claim a step is proven unless its tier says
        grounded or verified."""

        request: str = dspy.InputField()
        answer: str = dspy.OutputField()

    return dspy.ReAct(Chat, tools=[derive_proof_animation], max_iters=4)


def chat(message: str, tool: ProofAnimationTool, lm: Any) -> dict[str, Any]:
    """Run the agent on one message; the verified result is taken from the tool, not the model."""
    import dspy

    from veristep.llm.usage import UsageLog

    agent = react_agent(tool)
    model_error = None
    usage = UsageLog()
    # One request per agent turn: DSPy's JSON fallback would ask again after every unreadable
    # reply, doubling a small local model's time for an answer that is rarely better.
    adapter = dspy.ChatAdapter(use_json_adapter_fallback=False)
    try:
        with usage.watching(lm), dspy.context(lm=lm, adapter=adapter):
            answer = str(agent(request=message).answer)
    except Exception as exc:  # any failure on the model side is reported, never a 500
        # A reply DSPy cannot parse, a dead server, a refused request: the user gets one line
        # and whatever the tool graded before it happened.
        model_error = f"{type(exc).__name__}: {_first_line(str(exc))}"
        answer = f"The language model's reply could not be used ({model_error})."
    result = tool.results[-1] if tool.results else None
    # The verifier's own summary travels beside the model's prose; the page shows both.
    verdict = result["derivation"]["confidence"]["summary"] if result else "no derivation was made"
    return {
        "answer": answer,
        "verdict": verdict,
        "result": result,
        "tool_calls": len(tool.results),
        "model_error": model_error,
        "usage": usage.totals(),  # what the model cost, even when its reply was unusable
    }


def _first_line(text: str, limit: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"
