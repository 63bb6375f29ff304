"""The MCP server: the tool registry, resources and prompts over the official ``mcp`` SDK.

Every tool runs in a worker thread of the event loop (its CAS calls in the shared killable pool,
its provers in their own processes), under the call's budget: past it, or when the client
sends ``notifications/cancelled``, the call is answered at once and its hooks kill what it had
started (a Coq search's coqtop). A failure of any kind is a tool result with ``isError`` and a
one-line located message; nothing a client sends can produce a traceback on the wire.

Over stdio (what desktop and IDE clients launch) one server serves one client: when the client
goes away, stdin closes, the server stops and closes every Coq session; over streamable HTTP
the sessions of clients that stop calling are closed after an idle time.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server

from veristep import __version__
from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.tools import catalog
from veristep.tools.registry import Call, Registry, ToolError, ToolSpec

log = logging.getLogger(__name__)

GRACE_S = 5.0  # past the budget, the answer waits this long for the tool's own deadline
REAP_EVERY_S = 30.0
THREADS = 8  # tools running at once (each mostly waits on a worker process or coqtop)
INSTRUCTIONS = (
    "veristep's verifiers as tools. Algebra: check a chain of states (each step gets a tier: "
    "grounded > verified > plausible > unchecked > refuted), derive, apply an operation in "
    "words, next_step. Coq: coq_open a theorem, coq_run / coq_try / coq_back tactics, and "
    "coq_check a whole file (the only tool that says proved). ALPS: alps_id, alps_screen, "
    "alps_judge. Review: review_check a prose proof. Report tiers exactly as given."
)


class VeristepMCP:
    """One MCP server over a registry; its ``state`` (Coq sessions, saved derivations) lives
    as long as the server."""

    def __init__(self, settings: Settings, registry: Registry | None = None) -> None:
        from veristep.tools import default_registry

        self.settings = settings
        self.registry = registry or default_registry()
        self.state: dict[str, Any] = {}
        self.limiter = anyio.CapacityLimiter(THREADS)
        self.server: Server[Any] = Server(
            "veristep",
            version=__version__,
            instructions=INSTRUCTIONS,
            lifespan=self._lifespan,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_templates,
            on_read_resource=self._read_resource,
            on_list_prompts=self._list_prompts,
            on_get_prompt=self._get_prompt,
        )

    # -- lifecycle ------------------------------------------------------------------------
    @asynccontextmanager
    async def _lifespan(self, _server: Any) -> AsyncIterator[dict[str, Any]]:
        from veristep.core.pool import start_shared_pool
        from veristep.grounding import WORKER_MODULES

        # SymPy and the checks warm up while the client lists the tools.
        start_shared_pool(self.settings, preload=WORKER_MODULES)
        async with anyio.create_task_group() as group:
            group.start_soon(self._reap_forever)
            try:
                yield {}
            finally:
                group.cancel_scope.cancel()
                self.close()

    async def _reap_forever(self) -> None:
        """Close idle Coq sessions even when no call comes (HTTP clients that went away)."""
        while True:
            await anyio.sleep(REAP_EVERY_S)
            await anyio.to_thread.run_sync(self._reap, limiter=self.limiter)

    def close(self) -> None:
        """End every Coq session of this server (their coqtop processes with them)."""
        coq = self.state.get("coq")
        if coq is not None:
            coq.close_all()

    # -- tools ----------------------------------------------------------------------------
    async def _list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_tool(spec) for spec in self.registry])

    async def _call_tool(
        self, ctx: Any, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            spec = self.registry.get(params.name)
            args = params.arguments if params.arguments is not None else {}
            budget = self.registry.budget(spec, args) if isinstance(args, dict) else spec.budget_s
        except ToolError as err:
            return _error(str(err))
        call = Call(self.settings, budget, self.state, progress=_progress_sender(ctx))
        self._reap()
        try:
            with anyio.fail_after(budget + GRACE_S):
                result = await anyio.to_thread.run_sync(
                    self.registry.call,
                    spec.name,
                    args,
                    call,
                    abandon_on_cancel=True,
                    limiter=self.limiter,
                )
        except TimeoutError:
            call.cancel()
            return _error(f"{spec.name}: stopped: budget of {budget:g} s spent")
        except anyio.get_cancelled_exc_class():
            call.cancel()  # the client cancelled: kill what the tool started, then unwind
            raise
        except ToolError as err:
            return _error(str(err))
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(result, ensure_ascii=False))],
            structured_content=result,
        )

    def _reap(self) -> None:
        coq = self.state.get("coq")
        if coq is not None:
            coq.reap()

    # -- resources and prompts ------------------------------------------------------------
    async def _list_resources(self, ctx: Any, params: Any) -> types.ListResourcesResult:
        fixed = [r for r in catalog.RESOURCES if not r.template]
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=r.uri, name=r.name, description=r.description, mime_type=r.mime_type
                )
                for r in fixed
            ]
        )

    async def _list_templates(self, ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        templates = [r for r in catalog.RESOURCES if r.template]
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=r.uri,
                    name=r.name,
                    description=r.description,
                    mime_type=r.mime_type,
                )
                for r in templates
            ]
        )

    async def _read_resource(
        self, ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            mime, body = await anyio.to_thread.run_sync(
                catalog.read_resource, uri, self.state, limiter=self.limiter
            )
        except InputError as err:
            raise _protocol_error(err.one_line()) from None
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=body)]
        )

    async def _list_prompts(self, ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=p.name,
                    description=p.description,
                    arguments=[
                        types.PromptArgument(name=n, description=d, required=r)
                        for n, d, r in p.arguments
                    ],
                )
                for p in catalog.PROMPTS
            ]
        )

    async def _get_prompt(
        self, ctx: Any, params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        try:
            body = catalog.render_prompt(params.name, dict(params.arguments or {}))
        except InputError as err:
            raise _protocol_error(err.one_line()) from None
        return types.GetPromptResult(
            messages=[types.PromptMessage(role="user", content=types.TextContent(text=body))]
        )

    # -- transports -----------------------------------------------------------------------
    async def run_stdio(self) -> None:
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read, write):
            await self.server.run(read, write, self.server.create_initialization_options())

    async def run_http(self, host: str, port: int) -> None:
        import uvicorn

        app = self.server.streamable_http_app(host=host)
        config = uvicorn.Config(app, host=host, port=port, log_level="warning")
        try:
            await uvicorn.Server(config).serve()
        finally:
            self.close()


def _tool(spec: ToolSpec) -> types.Tool:
    return types.Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=spec.input_schema,
    )


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def _protocol_error(message: str) -> Exception:
    from mcp.shared.exceptions import MCPError

    return MCPError(types.INVALID_PARAMS, message)


def _progress_sender(ctx: Any) -> Any:
    """A thread-safe progress callback for the tool's worker thread (a no-op when the client
    asked for no progress)."""

    def send(done: float, total: float | None, message: str) -> None:
        if not math.isfinite(done):
            return
        try:
            anyio.from_thread.run(ctx.session.report_progress, done, total, message)
        except Exception:  # a closed stream or a cancelled call: progress is advisory only
            log.debug("progress not delivered", exc_info=True)

    return send
