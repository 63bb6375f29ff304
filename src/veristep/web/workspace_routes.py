"""Routes of the interactive workspace: the conversational CAS, pages, and the next-step game.

Routes only: every operation, grade, page edit and exercise comes from ``veristep.workspace``.
The workspace is stateless on the server — the browser sends the workspace's JSON with each
action and receives the new one — so a restart loses nothing and two tabs never interfere.
Pages live in their own SQLite file beside the derivations store, with a version per save.
"""

from __future__ import annotations

import asyncio
import html
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from veristep.core.errors import InputError
from veristep.web.engine import Deadline, with_deadline
from veristep.web.page_schema import (
    MAX_BLOCKS,
    BlockIn,
    WorkspaceIn,
    clean_block,
    describe,
    validate_block,
)
from veristep.workspace.page_store import MAX_VERSION

router = APIRouter()
MAX_LATEX = 20_000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActRequest(_Strict):
    # The same schema as a page's workspace block: one tree, bounded, no cycle to walk forever.
    workspace: WorkspaceIn | None = None
    start: str | None = Field(default=None, max_length=MAX_LATEX)
    action: Literal["start", "apply", "undo", "redo", "goto", "suggest", "next"]
    command: str | None = Field(default=None, max_length=500)
    node: int | None = None
    target: int | None = None


class PageRequest(_Strict):
    title: str = Field(min_length=1, max_length=200, pattern=r"\S")
    # Each block is checked by its kind's schema (web.page_schema): a bad one is a 422 naming
    # the field, and is never stored.
    blocks: list[BlockIn] = Field(default_factory=list, max_length=MAX_BLOCKS)


class ExerciseRequest(_Strict):
    prev: str = Field(min_length=1, max_length=MAX_LATEX)
    next: str = Field(min_length=1, max_length=MAX_LATEX)
    operation: str | None = Field(default=None, max_length=500)


class AnswerRequest(_Strict):
    exercise: dict[str, Any]
    answer: str = Field(min_length=1, max_length=MAX_LATEX)


# ---- the conversational CAS ---------------------------------------------------------------


@router.post("/api/workspace")
async def workspace_act(body: ActRequest, request: Request) -> dict[str, Any]:
    """One action on a workspace; the new workspace JSON and its current path, ready to show.

    Like every route that does CAS work, it runs in the request lanes under the request deadline.
    A verdict in the tree the client sends counts only with this server's seal (``web.seals``);
    any other is dropped and its step judged again before it is shown.
    """
    settings, lm, seal = request.app.state.settings, request.app.state.lm, _seal(request)
    return await with_deadline(lambda _: _act(body, settings, lm, seal), _timeout(request))


def _timeout(request: Request) -> float:
    return float(request.app.state.settings.web_request_timeout_s)


def _seal(request: Request) -> Any:
    from veristep.web.seals import Seal

    seal = getattr(request.app.state, "seal", None)
    if seal is None:
        seal = request.app.state.seal = Seal.in_folder(Path(request.app.state.store.path).parent)
    return seal


def _act(body: ActRequest, settings: Any, lm: Any, seal: Any) -> dict[str, Any]:
    from veristep.workspace.session import Workspace

    plot = None
    if body.action == "start" or body.workspace is None:
        if not body.start:
            raise InputError("give the state to start from")
        try:
            ws = Workspace(body.start, settings)
        except InputError:  # "solve x^2 - 5x + 6 = 0" typed where the start goes
            ws, plot = _task(body.start, settings, lm)
    else:
        raw = body.workspace.model_dump(by_alias=True)
        ws = Workspace.from_json(raw, settings)
        _drop_unsealed(ws, raw, seal)
    suggestion = None
    if body.action == "apply":
        if not body.command:
            raise InputError("say what to do, e.g. 'factor'")
        try:
            ws.apply(body.command, target=body.target, lm=lm)
        except InputError:  # "factor x^3 - 1": a verb with its own maths starts afresh
            ws, plot = _task(body.command, settings, lm, ws)
    elif body.action == "undo":
        ws.undo()
    elif body.action == "redo":
        ws.redo()
    elif body.action == "goto":
        ws.goto(body.node if body.node is not None else -1)
    elif body.action == "suggest":
        suggestion = ws.suggest()
    elif body.action == "next":
        ws.apply_suggestion()
    for node in ws.path()[1:]:
        if node.verdict is None:  # unsealed or never judged: judged here before it is shown
            node.verdict = ws.judge_node(node.id)
    view = _view(ws, suggestion, seal)
    view["plot"] = plot
    return view


def _task(text: str, settings: Any, lm: Any, current: Any = None) -> tuple[Any, str | None]:
    """A verb with its maths (``solve x^2 = 4``, ``plot sin x``): a workspace started from that
    maths with the verb applied, and the plot's SVG for ``plot``. The phrase's own error when
    it is not of that shape."""
    from veristep.workspace.plots import plot_problem, plot_svg
    from veristep.workspace.session import Workspace
    from veristep.workspace.tasks import PLOT, split_task

    task = split_task(text, settings)
    if task is None:
        if current is not None:
            current.apply(text)  # raises the command's own located error again
        Workspace(text, settings)  # raises the state's own located error
        raise InputError(f"cannot read {text[:80]!r}")
    ws = Workspace(task.state, settings)
    if task.verb != PLOT:
        ws.apply(task.verb, lm=lm)
        return ws, None
    why = plot_problem(task.state, "x", settings)
    if why is not None:
        raise InputError(f"cannot plot {task.state!r}: {why}")
    return ws, plot_svg({"expr": task.state, "from": -10, "to": 10, "var": "x"}, settings)


def _drop_unsealed(ws: Any, raw: dict[str, Any], seal: Any) -> None:
    marks = {n["id"]: n.get("seal") for n in raw["nodes"]}
    positive = sorted(ws.ctx.positive)
    for node in ws.nodes.values():
        if node.verdict is None or node.parent is None:
            continue
        parent = ws.nodes[node.parent].latex
        if not seal.opens(parent, node.to_json(), positive, marks.get(node.id)):
            node.verdict = None


def _view(ws: Any, suggestion: dict[str, str] | None, seal: Any) -> dict[str, Any]:
    path = []
    for node in ws.path():
        verdict = node.verdict
        path.append({
            "id": node.id, "latex": node.latex, "operation": node.operation,
            "warnings": node.warnings, "tier": verdict.tier.name_lower if verdict else None,
            "icon": verdict.tier.icon if verdict else "",
            "reason": verdict.reason if verdict else "",
            "branches": len(ws.children(node.id)),
        })  # fmt: skip
    tree = ws.to_json()
    positive = sorted(ws.ctx.positive)
    for raw in tree["nodes"]:
        if raw.get("verdict") is not None and raw.get("parent") is not None:
            parent = ws.nodes[raw["parent"]].latex
            raw["seal"] = seal.sign(parent, raw, positive)
    return {
        "workspace": tree,
        "path": path,
        "term": ws.term().latex_ids,
        "can_undo": ws.current.parent is not None,
        "can_redo": ws.current.last_child is not None,
        "suggestion": suggestion,
    }


# ---- pages --------------------------------------------------------------------------------


def _pages(request: Request) -> Any:
    from veristep.workspace.page_store import PageStore

    store = getattr(request.app.state, "page_store", None)
    if store is None:
        beside = Path(request.app.state.store.path).with_name("veristep-pages.sqlite3")
        store = request.app.state.page_store = PageStore(beside)
    return store


@router.get("/api/pages")
def list_pages(request: Request, q: str = Query(default="", max_length=200)) -> dict[str, Any]:
    rows = _pages(request).list(q)
    return {"pages": [{"id": r.ident, "title": r.title, "version": r.version,
                       "url": f"/pages/{r.ident}"} for r in rows]}  # fmt: skip


@router.get("/pages", response_class=HTMLResponse)
def pages_list(request: Request, q: str = "") -> str:
    """Every saved page, newest first, searchable by title; the way in to make a new one."""
    import datetime as dt

    from veristep.web.pages import layout

    query = q[:200]
    rows = _pages(request).list(query)
    items = "".join(
        f'<li><a href="/pages/{html.escape(r.ident)}">{html.escape(r.title)}</a> '
        f"<small>version {r.version} · "
        f"{dt.datetime.fromtimestamp(r.updated, dt.UTC):%Y-%m-%d %H:%M} UTC</small> "
        f'<a class="pg-edit" href="/pages/{html.escape(r.ident)}/edit" '
        f'aria-label="edit {html.escape(r.title, quote=True)}">edit</a></li>'
        for r in rows
    )
    empty = (f"<li>No page title holds “{html.escape(query)}”.</li>" if query
             else "<li>No pages yet.</li>")  # fmt: skip
    body = f"""<h1>Pages</h1>
<p>Pages mix text, plots, graded derivations, workspaces and exercises, and keep every version.
<a id="pg-new" href="/pages/new">Make a new page</a>.</p>
<form class="search" role="search" method="get" action="/pages">
  <label for="pages-q">Search titles</label>
  <input id="pages-q" name="q" type="search" value="{html.escape(query)}">
  <button type="submit">Search</button>
</form>
<ul id="pages">{items or empty}</ul>"""
    return layout("Pages", body, "/pages")


@router.post("/api/pages")
async def create_page(body: PageRequest, request: Request) -> dict[str, Any]:
    """Save a new page; its derivation, workspace and exercise blocks are graded here."""
    blocks = [clean_block(b) for b in body.blocks]
    await _plots_readable(request, blocks)
    return await _save_graded(request, body.title, blocks, None)


@router.put("/api/pages/{ident}")
async def save_page(ident: str, body: PageRequest, request: Request) -> dict[str, Any]:
    _pages(request).versions(ident)  # a 404 for an unknown page before any grading
    blocks = [clean_block(b) for b in body.blocks]
    await _plots_readable(request, blocks)
    return await _save_graded(request, body.title, blocks, ident)


async def _plots_readable(request: Request, blocks: list[dict[str, Any]]) -> None:
    """A plot whose function cannot be read is refused at save (422), not found out at view."""
    from fastapi.exceptions import RequestValidationError

    from veristep.workspace.plots import plot_problem

    settings = request.app.state.settings

    def work(_: Deadline) -> list[dict[str, Any]]:
        errors = []
        for i, block in enumerate(blocks):
            if block["kind"] == "plot":
                why = plot_problem(block["data"]["expr"], block["data"]["var"], settings)
                if why is not None:
                    loc = ("body", "blocks", i, "data", "expr")
                    errors.append({"loc": loc, "msg": f"cannot be plotted: {why}",
                                   "type": "value_error"})  # fmt: skip
        return errors

    errors = await with_deadline(work, _timeout(request))
    if errors:
        raise RequestValidationError(errors)


class PlotRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    expr: str = Field(min_length=1, max_length=2_000)
    low: float = Field(default=-5.0, alias="from", allow_inf_nan=False, ge=-1e6, le=1e6)
    high: float = Field(default=5.0, alias="to", allow_inf_nan=False, ge=-1e6, le=1e6)
    var: str = Field(default="x", pattern=r"^[A-Za-z]$")


@router.post("/api/pages/plot")
async def plot_preview(body: PlotRequest, request: Request) -> dict[str, Any]:
    """A plot block drawn as it is typed: ``{"ok", "svg"}`` or ``{"ok": false, "message"}``."""
    from veristep.workspace.plots import plot_problem, plot_svg

    if not body.low < body.high:
        raise InputError("'from' must be less than 'to'")
    settings = request.app.state.settings
    data = {"expr": body.expr, "from": body.low, "to": body.high, "var": body.var}

    def work(_: Deadline) -> dict[str, Any]:
        why = plot_problem(body.expr, body.var, settings)
        if why is not None:
            return {"ok": False, "message": f"cannot be plotted: {why}"}
        return {"ok": True, "svg": plot_svg(data, settings)}

    return await with_deadline(work, _timeout(request))


@router.get("/api/pages/{ident}/exercises/{block}")
def page_exercise(ident: str, block: int, request: Request) -> dict[str, Any]:
    """The exercise of an exercise block, as this server built it when the page was saved."""
    stored = _pages(request).get(ident)
    blocks = stored.page.blocks
    if not 0 <= block < len(blocks) or blocks[block].kind != "exercise":
        raise HTTPException(404, f"block {block} of this page is not an exercise")
    grade = blocks[block].grade or {}
    if grade.get("status") != "graded":
        why = grade.get("message") or "it was saved by an older version: save the page again"
        raise InputError(f"this exercise cannot be played: {why}")
    return {"exercise": grade["exercise"], "title": stored.page.title}


@router.post("/api/pages/{ident}/regrade")
async def regrade_page(ident: str, request: Request) -> dict[str, Any]:
    """Grade the latest version again and save it as a new version (e.g. a page saved by an
    older version of veristep, whose blocks show as unchecked until then)."""
    stored = _pages(request).get(ident)
    blocks = []
    for i, block in enumerate(stored.page.blocks):
        try:
            blocks.append(clean_block(validate_block(block.to_json(grade=False))))
        except ValidationError as exc:
            raise InputError(f"block {i} cannot be graded: {describe(exc)}") from None
    return await _save_graded(request, stored.page.title, blocks, ident)


# Grading may use this share of the request's deadline; the rest is left for storing the page.
GRADE_SHARE = 0.8


async def _save_graded(
    request: Request, title: str, blocks: list[dict[str, Any]], ident: str | None
) -> dict[str, Any]:
    from veristep.web.page_grading import grade_blocks, grade_summary
    from veristep.workspace.pages import Block, Page

    engine, store, timeout = request.app.state.engine, _pages(request), _timeout(request)

    def work(deadline: Deadline) -> dict[str, Any]:
        grades = grade_blocks(engine, blocks, time.monotonic() + GRADE_SHARE * timeout)
        graded = [Block(b["kind"], b["data"], g) for b, g in zip(blocks, grades, strict=True)]
        page = Page(title.strip(), tuple(graded))
        if not deadline.commit():
            return {}
        saved = store.save(page, ident)
        new_id, version = (saved, 1) if ident is None else (ident, saved)
        return {"id": new_id, "version": version, "url": f"/pages/{new_id}",
                "grades": [grade_summary(g) for g in grades]}  # fmt: skip

    return await with_deadline(work, timeout)


@router.get("/api/pages/{ident}")
def get_page(
    ident: str,
    request: Request,
    version: int | None = Query(default=None, ge=1, le=MAX_VERSION),
) -> dict[str, Any]:
    """The page's blocks as a client edits them; the server's grades beside them, read-only."""
    from veristep.web.page_grading import grade_summary

    stored = _pages(request).get(ident, version)
    versions = [v for v, _ in _pages(request).versions(ident)]
    return {"id": ident, "version": stored.version, "versions": versions,
            "page": stored.page.to_json(grades=False),
            "grades": [grade_summary(b.grade) for b in stored.page.blocks]}  # fmt: skip


@router.get("/pages/new", response_class=HTMLResponse)
def new_page() -> str:
    return _shell("New page", COMPOSER_HTML.replace("{ident}", ""), "/pages")


# A view draws its blocks within this many seconds (or the request deadline, if shorter); a plot
# that does not fit shows a notice and the page is answered anyway.
RENDER_BUDGET_S = 15.0


@router.get("/pages/{ident}", response_class=HTMLResponse)
async def page_view(ident: str, request: Request, version: str | None = None) -> str:
    from veristep.web.pages import layout
    from veristep.workspace.pages import PAGE_CSS, render_blocks

    stored = _pages(request).get(ident, _version(version))
    draw = _renderer(request)

    def work(_: Deadline) -> str:
        plot, block_ok = draw()
        return render_blocks(stored.page, plot, block_ok, links=play)

    def play(index: int) -> str:
        return f"/play?p={ident}&b={index}"

    blocks = await with_deadline(work, _timeout(request))
    body = (
        f"<style>{PAGE_CSS}</style>"
        f'<p class="vs-page-meta">version {stored.version} · '
        f'<a href="/pages/{html.escape(ident)}/edit">edit</a> · '
        f'<a href="/pages/{html.escape(ident)}/export">download as one offline file</a></p>'
        f'<div class="vs-page">{blocks}</div>'
    )
    return layout(stored.page.title, body)


@router.get("/pages/{ident}/export")
async def page_export(ident: str, request: Request, version: str | None = None) -> Response:
    from veristep.workspace.pages import export_html

    stored = _pages(request).get(ident, _version(version))
    draw = _renderer(request)

    def work(_: Deadline) -> str:
        plot, block_ok = draw()
        return export_html(stored.page, plot, block_ok)

    doc = await with_deadline(work, _timeout(request))
    disposition = f'attachment; filename="page-{ident}.html"'
    return Response(doc, media_type="text/html", headers={"Content-Disposition": disposition})


def _version(text: str | None) -> int | None:
    """A version from a page URL; anything that is not one names no version (a 404)."""
    from veristep.workspace.page_store import MissingPage

    if text is None:
        return None
    if not text.isdigit() or len(text) > 16 or not 1 <= int(text) <= MAX_VERSION:
        raise MissingPage(f"no version {text[:40]!r} of this page: versions are 1, 2, 3, …")
    return int(text)


def _renderer(request: Request) -> Any:
    """``draw() -> (plot, block_ok)`` sharing one render budget, started when ``draw`` is called
    (in the request's thread, so the plots run in its lanes)."""
    from veristep.web.page_schema import block_problem
    from veristep.workspace.pages import RenderLate
    from veristep.workspace.plots import plot_svg

    settings = request.app.state.settings
    budget = min(RENDER_BUDGET_S, 0.8 * _timeout(request))

    def draw() -> tuple[Any, Any]:
        ends = time.monotonic() + budget

        def plot(data: dict[str, Any]) -> str:
            left = ends - time.monotonic()
            if left < 0.05:
                raise RenderLate
            return plot_svg(data, settings, timeout_s=left)

        def block_ok(block: Any) -> str | None:
            return block_problem(block.to_json(grade=False))

        return plot, block_ok

    return draw


# ---- the next-step game -------------------------------------------------------------------


@router.post("/api/exercise")
async def make_exercise(body: ExerciseRequest, request: Request) -> dict[str, Any]:
    from veristep.workspace.games import next_step_exercise

    settings = request.app.state.settings

    def work(_: Deadline) -> dict[str, Any]:
        ex = next_step_exercise(body.prev, body.next, body.operation, settings)
        return {"exercise": ex.to_json()}

    return await with_deadline(work, _timeout(request))


@router.post("/api/exercise/answer")
async def answer_exercise(body: AnswerRequest, request: Request) -> dict[str, Any]:
    from veristep.workspace.games import Exercise, grade_answer

    try:
        exercise = Exercise.from_json(body.exercise)
    except (KeyError, TypeError) as exc:
        raise InputError(f"not an exercise: {exc}") from None
    settings = request.app.state.settings
    return await with_deadline(
        lambda _: grade_answer(exercise, body.answer, settings).to_json(), _timeout(request)
    )


def _saved_derivation(request: Request, ident: str) -> dict[str, Any]:
    from veristep.web.grading import shown

    row = request.app.state.store.get(ident)
    if row is None:
        raise HTTPException(404, f"no saved derivation {ident!r}")
    derivation, _ = shown(row)  # only tiers this server computed count: others are unchecked
    return derivation


@router.get("/api/derivations/{ident}/exercises")
async def derivation_exercises(ident: str, request: Request) -> dict[str, Any]:
    """A saved derivation turned into next-step exercises (a teacher's exercise page)."""
    from veristep.workspace.games import exercise_steps

    derivation = _saved_derivation(request, ident)
    steps = exercise_steps(derivation)
    exercises = await asyncio.gather(*(_exercise(request, ident, derivation, k) for k in steps))
    return {"exercises": list(exercises)}


@router.get("/api/derivations/{ident}/exercise-steps")
def derivation_exercise_steps(ident: str, request: Request) -> dict[str, Any]:
    """The steps of a saved derivation worth practising, at once. Their exercises start being
    built in the background (low priority), in order, so each is ready by the time it is asked
    for; one asked for before its turn is built at once instead."""
    from veristep.workspace.games import exercise_steps

    derivation = _saved_derivation(request, ident)
    steps = exercise_steps(derivation)
    builder = _builder(request)
    for k in steps:
        builder.schedule(ident, derivation, k)
    return {"steps": steps, "urls": [f"/api/derivations/{ident}/exercises/{k}" for k in steps]}


@router.get("/api/derivations/{ident}/exercises/{step}")
async def derivation_exercise(ident: str, step: int, request: Request) -> dict[str, Any]:
    """The exercise of one step (built once, then served from memory)."""
    return {"exercise": await _exercise(request, ident, _saved_derivation(request, ident), step)}


EXERCISE_CACHE = 512  # exercises kept in memory, by (derivation, step): a class replays them


class ExerciseBuilder:
    """Exercises by (derivation, step): built once, kept, and built ahead in the background.

    One background thread builds the scheduled ones in order, its CAS calls in the slow lane (low
    priority), so practice never slows the rest of the site; an exercise asked for before its
    turn is taken off the queue and built by the request itself.
    """

    def __init__(self, settings: Any) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.settings = settings
        self.done: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self.pending: dict[tuple[str, int], Any] = {}
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="veristep-exercises")

    def get(self, key: tuple[str, int]) -> dict[str, Any] | None:
        with self.lock:
            if key in self.done:
                self.done.move_to_end(key)
                return self.done[key]
            return None

    def keep(self, key: tuple[str, int], exercise: dict[str, Any]) -> None:
        with self.lock:
            self.done[key] = exercise
            self.pending.pop(key, None)
            while len(self.done) > EXERCISE_CACHE:
                self.done.popitem(last=False)

    def schedule(self, ident: str, derivation: dict[str, Any], k: int) -> None:
        key = (ident, k)
        with self.lock:
            if key in self.done or key in self.pending:
                return
            self.pending[key] = self.pool.submit(self._build_behind, key, derivation)

    def claim(self, key: tuple[str, int]) -> Any:
        """The background build of ``key`` if it has started (await it), else None (it is
        taken off the queue: the caller builds it now)."""
        with self.lock:
            future = self.pending.get(key)
            if future is None or future.cancel():
                self.pending.pop(key, None)
                return None
            return future

    def _build_behind(self, key: tuple[str, int], derivation: dict[str, Any]) -> dict | None:
        from veristep.core.pool import request_lane
        from veristep.workspace.games import exercise_for_step

        try:
            with request_lane() as lane:
                lane.slow = True  # background work: the low-priority lane from the start
                built = exercise_for_step(derivation, key[1], self.settings).to_json()
        except Exception:  # a failed build is retried by the request that asks for it
            with self.lock:
                self.pending.pop(key, None)
            return None
        self.keep(key, built)
        return built


def _builder(request: Request) -> ExerciseBuilder:
    builder = getattr(request.app.state, "exercises", None)
    if builder is None:
        builder = request.app.state.exercises = ExerciseBuilder(request.app.state.settings)
    return builder


async def _exercise(request: Request, ident: str, derivation: dict[str, Any], k: int) -> dict:
    from veristep.workspace.games import exercise_for_step

    builder, key = _builder(request), (ident, k)
    ready = builder.get(key)
    if ready is not None:
        return ready
    running = builder.claim(key)
    if running is not None:
        built = await asyncio.wait_for(asyncio.wrap_future(running), _timeout(request))
        if built is not None:
            return built
    settings = request.app.state.settings

    def work(_: Deadline) -> dict[str, Any]:
        return exercise_for_step(derivation, k, settings).to_json()

    built = await with_deadline(work, _timeout(request))
    builder.keep(key, built)
    return built


# ---- HTML shells (the logic is in /assets/workspace.js) --------------------------------------


def _shell(title: str, body: str, active: str = "") -> str:
    from veristep.web.pages import layout

    return layout(title, body + '<script src="/assets/workspace.js" defer></script>', active)


@router.get("/workspace", response_class=HTMLResponse)
def workspace_page() -> str:
    return _shell("Workspace", WORKSPACE_HTML, "/workspace")


@router.get("/pages/{ident}/edit", response_class=HTMLResponse)
def edit_page(ident: str, request: Request) -> str:
    _pages(request).versions(ident)  # a 404 page for an unknown one
    return _shell("Edit page", COMPOSER_HTML.replace("{ident}", html.escape(ident)), "/pages")


@router.get("/play", response_class=HTMLResponse)
def play_page() -> str:
    return _shell("Next step", PLAY_HTML, "/play")


WORKSPACE_HTML = """
<h1>Workspace</h1>
<p>Start from a state, then say what to do: <em>factor</em>, <em>solve for x</em>,
<em>divide both sides by x − 1</em>, <em>complete the square</em> — or the verb with its maths:
<em>solve x^2 - 5x + 6 = 0</em>, <em>plot sin x</em>. Type maths as LaTeX or as you would write
it. Every operation becomes a step that the verifier grades. Click a glyph to select a
sub-term, then <em>expand this</em>.</p>
<form id="ws-start" class="card"><label for="ws-start-input">Start</label>
  <input id="ws-start-input" value="x^2 - 5x + 6 = 0" autocomplete="off" spellcheck="false">
  <button type="submit">Start</button></form>
<div class="card">
  <div id="ws-state" class="ws-state" aria-live="polite"></div>
  <p id="ws-selection" class="hint">no sub-term selected</p>
  <form id="ws-command"><label for="ws-command-input">Do</label>
    <input id="ws-command-input" placeholder="factor · solve for x · expand this"
      autocomplete="off" spellcheck="false"><button type="submit">Apply</button></form>
  <pre id="ws-error" class="field-error" hidden></pre>
  <div class="ws-buttons"><button id="ws-undo" type="button">Undo</button>
    <button id="ws-redo" type="button">Redo</button>
    <button id="ws-next" type="button">What would you do next?</button>
    <button id="ws-send" type="button">Send to a page</button></div>
  <p id="ws-suggestion" class="hint" hidden></p>
</div>
<figure id="ws-plot" class="card" hidden></figure>
<ol id="ws-steps" class="ws-steps"></ol>
<style>
.ws-state { font-size: 1.6em; min-height: 2em; } .ws-state [data-n] { cursor: pointer; }
.ws-state .ws-picked { background: #ffe58a; border-radius: 3px; }
.ws-steps li { margin: .4em 0; cursor: pointer; } .ws-steps .ws-warn { color: #8a5a00; }
.ws-steps .ws-reason { color: #555; font-size: .85em; } .ws-steps .ws-current { font-weight: bold; }
#ws-plot svg { width: 100%; max-width: 32rem; height: auto; }
.ws-buttons { display: flex; flex-wrap: wrap; gap: .5em; margin-top: .6em; }
#ws-start button, #ws-command button { margin-top: .5em; }
.ws-badge { font-size: .75em; padding: 0 .45em; border-radius: 4px; background: #e8ecf5; }
[data-tier=grounded] > .ws-badge { background: #fde68a; }
[data-tier=verified] > .ws-badge { background: #e5e7eb; }
[data-tier=plausible] > .ws-badge { background: #dbeafe; }
[data-tier=refuted] > .ws-badge { background: #fecaca; }
</style>
"""

COMPOSER_HTML = """
<h1>Page</h1>
<p class="hint"><a href="/pages">All pages</a> · Text, plots, derivations from the gallery and
exercises; a workspace joins a page from the <a href="/workspace">workspace</a> (“Send to a
page”). The server grades the derivations, workspaces and exercises when you save.</p>
<div id="pg" data-ident="{ident}" class="card">
  <label for="pg-title">Title</label> <input id="pg-title" value="A page" autocomplete="off">
  <div id="pg-blocks"></div>
  <div class="pg-add" role="group" aria-label="add a block">Add:
    <button type="button" data-add="markdown">Text</button>
    <button type="button" data-add="plot">Plot</button>
    <button type="button" data-add="exercise">Exercise</button>
    <label for="pg-derivation">a saved derivation</label>
    <select id="pg-derivation"><option value="">choose…</option></select>
    <button type="button" id="pg-add-derivation">Add the derivation</button></div>
  <button id="pg-save" type="button">Save</button> <span id="pg-status" aria-live="polite"></span>
  <pre id="pg-error" class="field-error" hidden></pre>
</div>
<style>.pg-block { border: 1px solid #ccd; border-radius: 6px; padding: .5em; margin: .5em 0; }
.pg-block.pg-bad { border-color: #b42318; box-shadow: 0 0 0 2px #fdecec; }
.pg-block textarea { width: 100%; min-height: 5em; font-family: monospace; }
.pg-block label { display: block; margin-top: .3em; font-size: .9em; color: #444; }
.pg-block input { width: 100%; max-width: 32rem; }
.pg-row { display: flex; gap: 1em; } .pg-row input { width: 8em; }
.pg-head button { margin-left: .3em; } .pg-preview, .pg-math { padding: .3em; background: #f7f8fb; }
.pg-plot-preview svg { width: 100%; max-width: 28rem; height: auto; }
.pg-states .pg-op { color: #555; font-style: italic; }
.pg-add { margin: .6em 0; } .pg-add label { display: inline; }
.pg-add select { width: auto; max-width: 16rem; }</style>
"""

PLAY_HTML = """
<h1>What's the next step?</h1>
<form id="pl-new" class="card"><label for="pl-prev">From</label>
  <input id="pl-prev" value="(x-2)(x-3) = 0" autocomplete="off">
  <label for="pl-next">Expected next step</label>
  <input id="pl-next" value="x = 2 \\lor x = 3" autocomplete="off">
  <button type="submit">Make the exercise</button></form>
<button id="pl-another" type="button" hidden>Make another exercise</button>
<p id="pl-progress" class="hint" role="status" aria-live="polite"></p>
<div id="pl-player" class="vs-mount" hidden></div>
<div id="pl-ex" class="card" hidden>
  <div id="pl-state" class="ws-state"></div>
  <ol id="pl-choices" type="A"></ol>
  <form id="pl-type"><label for="pl-answer">Or type the next state</label>
    <input id="pl-answer" autocomplete="off"><button type="submit">Check</button></form>
  <p id="pl-feedback" aria-live="polite"></p>
  <p>Score <span id="pl-points">0</span> · streak <span id="pl-streak">0</span></p>
  <button id="pl-next-ex" type="button" hidden>Next exercise</button>
</div>
<pre id="pl-error" class="field-error" hidden></pre>
<style>#pl-choices button { font-size: 1.2em; margin: .2em; min-width: 10em; }
.pl-right { color: #1a7f37; } .pl-wrong { color: #b42318; } .pl-again { color: #6b4e00; }
#pl-choices .pl-chosen-wrong { border: 2px solid #b42318; background: #fdecec; }
#pl-choices .pl-chosen-right { border: 2px solid #1a7f37; background: #e8f6ec; }
#pl-choices .pl-why { display: block; color: #b42318; font-size: .9em; margin: 0 0 .4em .4em; }
/* predict before reveal: nothing that shows the coming states before the guess (the steps list,
   the plots, the badges, the verdict and warnings that may quote them, the controls that step) */
.pl-predict .vs-steps-view, .pl-predict .vs-plots, .pl-predict .vs-badges,
.pl-predict .vs-verdict, .pl-predict .vs-warnings, .pl-predict .vs-controls,
.pl-predict .vs-reason { display: none; }
.pl-predict.vs-plot-beside { display: block; }</style>
"""
