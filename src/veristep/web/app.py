"""The FastAPI application: pages, the JSON API, the static player, and uniform JSON errors.

``create_app(settings, db_path)`` is the only constructor; nothing is read from the environment
here (the CLI did that once). Errors never leak a stack trace: input errors answer 400 with the
located message, validation 422, oversized bodies 413, deadlines 504, anything else 500 with
only the exception's type name.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from veristep.animate.assets import KATEX_VERSION, katex_css, static_dir
from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.web.engine import DeadlineExceeded, Engine
from veristep.web.limits import BodyLimit, error_body
from veristep.web.store import DerivationStore
from veristep.workspace.page_store import MissingPage

log = logging.getLogger("veristep.web")


def default_db_path(settings: Settings) -> Path:
    return Path(settings.data_dir) / "veristep-web.sqlite3"


def create_app(
    settings: Settings,
    db_path: Path | None = None,
    engine: Engine | None = None,
    lm: Any = None,
) -> FastAPI:
    """The app, its store at ``db_path`` (default: in ``settings.data_dir``).

    ``lm`` is the DSPy language model of the chat agent (default: built from ``settings.model``).
    """
    from veristep.web import (
        agent_routes,
        api,
        gallery_routes,
        pages,
        research_routes,
        workspace_routes,
    )
    from veristep.web.docs_page import docs_html

    app = FastAPI(
        title="veristep",
        version="1",
        docs_url=None,  # the stock page loads Swagger from a CDN; ours works offline
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.state.store = DerivationStore(db_path or default_db_path(settings))
    app.state.engine = engine or Engine(settings)
    app.state.lm = lm
    _install_errors(app)

    @app.get("/static/katex.css", include_in_schema=False)
    def katex_stylesheet() -> Response:
        return Response(
            katex_css(inline_fonts=False, font_base="katex/fonts/"), media_type="text/css"
        )

    app.mount("/static", StaticFiles(directory=static_dir()), name="static")
    app.mount("/assets", StaticFiles(directory=Path(__file__).parent / "static"), name="web-static")

    @app.get("/api/docs", include_in_schema=False)
    def api_docs() -> HTMLResponse:
        return HTMLResponse(docs_html(app.openapi()))

    app.include_router(api.router)
    app.include_router(gallery_routes.router)
    app.include_router(agent_routes.router)
    app.include_router(pages.router)
    app.include_router(workspace_routes.router)
    app.include_router(research_routes.router)
    app.state.katex_version = KATEX_VERSION
    app.add_middleware(BodyLimit, max_bytes=settings.web_max_body_bytes)
    return app


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(InputError)
    async def input_error(_: Request, exc: InputError) -> JSONResponse:
        body = exc.to_json()
        body["message"] = exc.located()
        return JSONResponse(body, status_code=400)

    @app.exception_handler(MissingPage)
    async def missing_page(request: Request, exc: MissingPage) -> Response:
        if _wants_page(request):
            from veristep.web.pages import not_found_page

            return HTMLResponse(not_found_page(exc.located()), status_code=404)
        body = exc.to_json()
        body["message"] = exc.located()
        return JSONResponse(body, status_code=404)

    @app.exception_handler(DeadlineExceeded)
    async def deadline(_: Request, exc: DeadlineExceeded) -> JSONResponse:
        return JSONResponse(error_body("timeout", str(exc)), status_code=504)

    @app.exception_handler(RequestValidationError)
    async def validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{_path(e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in exc.errors()]
        return JSONResponse(
            error_body("validation", "; ".join(problems) or "invalid request"), status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and _wants_page(request):
            from veristep.web.pages import not_found_page

            return HTMLResponse(not_found_page(str(exc.detail)), status_code=404)
        return JSONResponse(
            error_body("http", str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def internal(_: Request, exc: Exception) -> JSONResponse:
        # The log keeps the traceback for the operator; the client gets one line.
        log.exception("internal error")
        return JSONResponse(
            error_body("internal", f"internal error: {type(exc).__name__}"), status_code=500
        )


def _path(loc: Any) -> str:
    """A validation error's location as a path a person can follow: ``blocks.3.data.from``.

    The request body's root and a page block's union tag (``blocks.3.plot.data``) are dropped.

    >>> _path(("body", "blocks", 3, "plot", "data", "from"))
    'blocks.3.data.from'
    """
    from veristep.web.page_schema import BLOCK_KINDS

    parts = list(loc)
    if parts[:1] == ["body"] and len(parts) > 1:
        parts = parts[1:]
    kept = [
        p
        for i, p in enumerate(parts)
        if not (p in BLOCK_KINDS and i > 0 and isinstance(parts[i - 1], int))
    ]
    return ".".join(str(p) for p in kept) or "body"


def _wants_page(request: Request) -> bool:
    """A person's browser asking for a page (not the API, not an asset) gets HTML errors."""
    path = request.url.path
    if path.startswith(("/api/", "/static/", "/assets/")) or request.method != "GET":
        return False
    return "application/json" not in request.headers.get("accept", "")
