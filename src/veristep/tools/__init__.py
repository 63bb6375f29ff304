"""One registry of agent tools over the four systems, and the MCP server that serves it.

The tools are defined once (:mod:`veristep.tools.registry`); the MCP server
(:mod:`veristep.tools.mcp_server`), the web chat agent and DSPy read the same definitions.
A tool never grades anything itself: it calls the subpackage that does.

>>> [spec.name for spec in default_registry()][:6]
['parse', 'check', 'derive', 'apply', 'next_step', 'animation']
"""

from __future__ import annotations

from veristep.tools.registry import Call, Registry, ToolError, ToolSpec

__all__ = ["Call", "Registry", "ToolError", "ToolSpec", "default_registry"]


def default_registry() -> Registry:
    """Every tool, in the order clients list them: algebra, Coq, ALPS, review."""
    from veristep.tools import algebra, alps, coq, review

    return Registry((*algebra.TOOLS, *coq.TOOLS, *alps.TOOLS, *review.TOOLS))
