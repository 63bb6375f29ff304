"""The registry's tools for the other agent front ends: DSPy tools and the web chat tool.

The same :class:`~veristep.tools.registry.ToolSpec` that the MCP server lists becomes a
``dspy.Tool`` (its JSON schema as the tool's arguments, its description as the docstring) and an
OpenAI function. The web chat's ``derive_proof_animation`` is defined here too, as a spec whose
function the web app binds to its store (it saves a page, which only the web app can do).

>>> DERIVE_PROOF_ANIMATION.openai_schema()["function"]["parameters"]["required"]
['target_latex']
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from veristep.tools.registry import Call, Registry, ToolError, ToolSpec, obj, text, validate


def _bound_by_web_app(args: dict[str, Any], call: Call) -> dict[str, Any]:
    raise ToolError("derive_proof_animation", "this tool is served by the web app only")


DERIVE_PROOF_ANIMATION = ToolSpec(
    "derive_proof_animation",
    "Derive target_latex from start_latex step by step with a verifier that grades every step "
    "(grounded, verified, plausible, unchecked, refuted), save it as an animated page and return "
    "its URL and the tiers. Omit start_latex for well-known results (e.g. the quadratic formula).",
    obj(
        {
            "start_latex": text("the starting equation (LaTeX)", 4_000),
            "target_latex": text("the goal (LaTeX)", 4_000),
            "prompt": text("the user's request, in words", 4_000),
        },
        ["target_latex"],
    ),
    _bound_by_web_app,
)


def bind(spec: ToolSpec, fn: Callable[[dict[str, Any], Call], dict[str, Any]]) -> ToolSpec:
    """``spec`` with its function replaced (a front end that owns the resource it needs)."""
    return dataclasses.replace(spec, fn=fn)


def check_arguments(spec: ToolSpec, arguments: str) -> dict[str, Any]:
    """OpenAI-style arguments (a JSON string) read and validated against ``spec``."""
    try:
        args = json.loads(arguments or "{}")
    except json.JSONDecodeError as exc:
        raise ToolError(spec.name, f"arguments are not JSON: {exc.msg}") from None
    except RecursionError:
        raise ToolError(spec.name, "arguments are nested too deeply") from None
    validate(spec, args)
    return args


def dspy_tools(registry: Registry, make_call: Callable[[ToolSpec, dict[str, Any]], Call]) -> list:
    """Every tool of ``registry`` as a ``dspy.Tool``; a failure comes back as ``{"error": ...}``
    (a ReAct agent reads it and can correct itself) instead of stopping the program."""
    import dspy

    def runner(spec: ToolSpec) -> Callable[..., dict[str, Any]]:
        def run(**kwargs: Any) -> dict[str, Any]:
            args = {k: v for k, v in kwargs.items() if v is not None}
            try:
                return registry.call(spec.name, args, make_call(spec, args))
            except ToolError as err:
                return {"error": str(err)}

        return run

    tools = []
    for spec in registry:
        props = spec.input_schema.get("properties", {})
        tools.append(
            dspy.Tool(
                runner(spec),
                name=spec.name,
                desc=spec.description,
                args={
                    k: {key: v for key, v in p.items() if key != "maxLength"}
                    for k, p in props.items()
                },
                arg_desc={k: p.get("description", "") for k, p in props.items()},
            )
        )
    return tools
