"""The research systems in the browser: review a proof, prove a Coq theorem, screen and judge laws.

Pages: ``/review`` (and a saved review at ``/review/{id}``, exportable as one offline HTML file),
``/prove`` and ``/alps``. The API behind them streams what the machine decides as it decides it:

* ``POST /api/review/stream`` — each step's machine finding (state, tier, checks, witness) the
  moment the machine pass has judged it; with a model, the agent's iterations after; then the
  verdict and the saved report's id.
* ``POST /api/prove/stream`` — the offline search's attempts with their phase and signals, then
  the found proof through ``coq_check``'s strict path (kernel, coqchk, axioms).
* ``POST /api/prove/check`` — a whole file through the same strict path (streamed, so that it
  can be cancelled the same way).
* ``POST /api/alps/law``, ``/api/alps/screen``, ``/api/alps/judge`` — plain JSON.

Every route does its work through :func:`~veristep.web.engine.with_deadline` or
:func:`~veristep.web.streaming.event_stream` (the CAS lanes, the request timeout). A Coq stream
whose client goes away (Cancel, navigation, a closed tab) cancels its tool call, which kills the
search's coqtop at once. Requests are strict pydantic models with bounded sizes: bad input is a
422 naming the field, never a 500.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import AsyncIterator, Callable
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from veristep.core.errors import InputError
from veristep.tools.registry import Call, Cancelled, Registry, ToolError
from veristep.web.engine import Deadline, DeadlineExceeded, Progress, with_deadline
from veristep.web.report_store import ReviewStore, beside
from veristep.web.streaming import event_stream

router = APIRouter()

PROOF_CHARS = 20_000  # as the review tool
PROBLEM_CHARS = 4_000
STATEMENT_CHARS = 4_000
COQ_FILE_CHARS = 200_000
LAW_CHARS = 400
SUBMISSION_CHARS = 200_000
NAME_PATTERN = r"^[A-Za-z0-9_.']{1,120}$"
IDENT = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
STRICT_RESERVE_S = 30.0  # of a prove request's time, kept for the strict check of its proof
CERTIFICATE_JSON_CHARS = 400_000  # a larger judge certificate is not sent; its hash is
MAX_ATTEMPT_EVENTS = 400  # a long MCTS run streams at most this many attempts
DISCONNECT_POLL_S = 0.25  # how soon a law request notices its client left
CLIENT_CLOSED = 499  # the status a server logs for a request whose client went away


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*")
    @classmethod
    def _text(cls, value: Any) -> Any:
        # A lone surrogate is valid JSON but not text: it would fail later, deep in a checker.
        if isinstance(value, str) and any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
            raise ValueError("holds a lone surrogate, which is not text")
        return value


class ReviewRequest(_Strict):
    proof: str = Field(min_length=1, max_length=PROOF_CHARS)
    problem: str = Field(default="", max_length=PROBLEM_CHARS)
    save: bool = True


class ProveRequest(_Strict):
    name: str | None = Field(default=None, pattern=NAME_PATTERN)
    statement: str | None = Field(default=None, max_length=STATEMENT_CHARS)
    header: str = Field(default="", max_length=STATEMENT_CHARS)
    budget_s: float = Field(default=60.0, ge=1.0, le=600.0)
    mcts_iterations: int = Field(default=0, ge=0, le=100)


class CoqFileRequest(_Strict):
    proof: str = Field(min_length=1, max_length=COQ_FILE_CHARS)
    expect: str | None = Field(default=None, pattern=NAME_PATTERN)


class LawRequest(_Strict):
    law: str = Field(min_length=1, max_length=LAW_CHARS)


class JudgeRequest(_Strict):
    law: str = Field(min_length=1, max_length=LAW_CHARS)
    submission: str = Field(min_length=2, max_length=SUBMISSION_CHARS)


# -- helpers -----------------------------------------------------------------------------------
def _timeout(request: Request) -> float:
    return float(request.app.state.settings.web_request_timeout_s)


def reviews(request: Request) -> ReviewStore:
    """The app's review store, made on first use beside its derivation store."""
    store = getattr(request.app.state, "reviews", None)
    if store is None:
        store = ReviewStore(beside(request.app.state.store.path))
        request.app.state.reviews = store
    return store


@lru_cache(maxsize=1)
def _tools() -> Registry:
    from veristep.tools import alps, coq

    return Registry((coq.PROVE, coq.COQ_CHECK, *alps.TOOLS))


def run_tool(name: str, args: dict[str, Any], call: Call) -> dict[str, Any]:
    """A registry tool; its refusal becomes a located input error (an ``error`` event, a 400)."""
    try:
        return _tools().call(name, {k: v for k, v in args.items() if v is not None}, call)
    except ToolError as exc:
        raise InputError(str(exc), kind="tool") from None


def cancelling(response: StreamingResponse, *calls: Call) -> StreamingResponse:
    """Cancel ``calls`` when the stream ends for any reason: done, timed out, or the client left
    (Starlette cancels the body when the client disconnects). Cancelling runs the call's hooks:
    a search's coqtop is killed and no new one starts."""
    inner = response.body_iterator

    async def body() -> AsyncIterator[Any]:
        try:
            async for chunk in inner:
                yield chunk
        finally:
            for call in calls:
                call.cancel()

    response.body_iterator = body()
    return response


def _call(request: Request, budget_s: float, events: Progress | None = None) -> Call:
    return Call(request.app.state.settings, budget_s=budget_s, events=events)


# -- review ------------------------------------------------------------------------------------
def step_finding(step: Any, index: int | None = None, total: int | None = None) -> dict[str, Any]:
    """One reviewed step as the page shows it: state, tier, the checks and a flaw's witness."""
    record = step.to_json()
    machine = record["machine"] or {}
    return {
        "event": "step",
        "id": step.id,
        "index": index,
        "total": total,
        "parent": step.parent,
        "location": step.location,
        "text": step.text,
        "state": record["state"],
        "tier": record["tier"],
        "outcome": machine.get("outcome"),
        "checks": machine.get("checks", []),
        "flaw": record["flaw"],
        "note": step.note,
        "conventions": record["conventions"],
        # The model's latest elaboration of the step (its finer derivation and what it rests
        # on); plausibility only, never a machine check.
        "elaboration": record["elaborations"][-1] if record["elaborations"] else None,
    }


def report_view(trace: dict[str, Any]) -> dict[str, Any]:
    """A saved trace as the page's data: the findings in order, the ledger, the verdict."""
    from veristep.review.trace import ReviewTrace

    loaded = ReviewTrace.from_json(trace)
    steps = []

    def visit(sid: str) -> None:
        steps.append(step_finding(loaded.steps[sid]))
        for child in loaded.steps[sid].children:
            if child in loaded.steps:
                visit(child)

    for sid in loaded.order:
        visit(sid)
    return {
        "verdict": loaded.verdict,
        "reason": loaded.reason,
        "model": loaded.model,
        "problem": loaded.problem,
        "steps": steps,
        "ledger": [e.to_json() for e in loaded.ledger.values()],
        "events": loaded.events[-200:],
    }


@router.post("/api/review/stream")
async def review_stream(body: ReviewRequest, request: Request) -> StreamingResponse:
    from veristep.review.run import review_proof

    settings = request.app.state.settings
    lm = getattr(request.app.state, "lm", None)
    model = None if lm is not None else settings.model
    store = reviews(request)
    timeout = _timeout(request)
    # Not a tool call, but the same stop: a client that left (or the request's deadline) ends
    # the review at its next step or agent iteration, so no model calls run on for nobody.
    call = _call(request, timeout)

    def work(emit: Progress, deadline: Deadline) -> dict[str, Any]:
        judged: dict[str, int] = {}
        shown: dict[str, str] = {}  # each step as last sent, so an iteration sends only changes

        def on_step(step: Any) -> None:
            judged[step.id] = len(judged) + 1
            finding = step_finding(step, judged[step.id])
            emit(finding)
            shown[step.id] = json.dumps({**finding, "index": None}, sort_keys=True, default=str)
            call.checkpoint()

        def on_iteration(trace: Any) -> None:
            call.checkpoint()
            # Each step the iteration changed (a transition, an elaboration, a confirmation, a
            # new sub-step), then every step's state and the agent's log.
            for sid, step in trace.steps.items():
                finding = step_finding(step)
                key = json.dumps(finding, sort_keys=True, default=str)
                if shown.get(sid) != key:
                    shown[sid] = key
                    emit(finding)
            emit(
                {
                    "event": "iteration",
                    "iteration": trace.iterations,
                    "states": {sid: s.state.value for sid, s in trace.steps.items()},
                    "log": trace.events[-5:],
                    "ledger": [e.to_json() for e in trace.ledger.values()],
                }
            )

        try:
            trace = review_proof(
                body.proof,
                lm=lm,
                model=model,
                settings=settings,
                source="web",
                problem=body.problem,
                on_step=on_step,
                on_iteration=on_iteration,
            )
        except Cancelled as exc:
            raise DeadlineExceeded(f"the review stopped: {exc}") from None
        data = trace.to_json()
        out = {**report_view(data), "id": None, "url": None, "has_model": trace.model is not None}
        if body.save and deadline.commit():
            title = body.problem or body.proof
            ident = store.save(data, title)
            out.update(id=ident, url=f"/review/{ident}")
        return out

    started = {"has_model": lm is not None or bool(model)}
    return cancelling(event_stream(started, work, timeout), call)


def _saved(request: Request, ident: str) -> Any:
    saved = reviews(request).get(ident) if IDENT.match(ident) else None
    if saved is None:
        raise HTTPException(404, f"no saved review {ident!r}")
    return saved


@router.get("/api/review/{ident}")
def review_json(ident: str, request: Request) -> dict[str, Any]:
    saved = _saved(request, ident)
    return {"id": saved.ident, "title": saved.title, **report_view(saved.trace)}


@router.get("/review/{ident}/export", include_in_schema=False)
def review_export(ident: str, request: Request) -> Response:
    """The saved review as one HTML file that works offline (maths typeset by inlined KaTeX)."""
    from veristep.review.report import html_report
    from veristep.review.trace import ReviewTrace

    saved = _saved(request, ident)
    document = html_report(ReviewTrace.from_json(saved.trace))
    headers = {"content-disposition": f'attachment; filename="review-{saved.ident}.html"'}
    return HTMLResponse(document, headers=headers)


# -- prove -------------------------------------------------------------------------------------
@router.post("/api/prove/stream")
async def prove_stream(body: ProveRequest, request: Request) -> StreamingResponse:
    if bool(body.name) == bool(body.statement and body.statement.strip()):
        raise InputError("give either a theorem name or a statement", kind="statement")
    timeout = _timeout(request)
    budget_s = max(1.0, min(body.budget_s, timeout - STRICT_RESERVE_S))
    call = _call(request, budget_s)
    check = _call(request, max(5.0, timeout - 2.0))  # its clock runs from the request's start

    def work(emit: Progress, deadline: Deadline) -> dict[str, Any]:
        shown = 0

        def events(event: dict[str, Any]) -> None:
            nonlocal shown
            shown += 1
            if shown <= MAX_ATTEMPT_EVENTS:
                emit(event)

        call.events = events
        emit({"event": "phase", "phase": "search", "budget_s": budget_s})
        args = {
            "name": body.name,
            "statement": body.statement,
            "header": body.header or None,
            "mcts_iterations": body.mcts_iterations,
            "budget_s": budget_s,
        }
        found = run_tool("prove", args, call)
        out: dict[str, Any] = {"search": found, "found": bool(found.get("found"))}
        if found.get("proof_file"):
            call.checkpoint()
            emit({"event": "phase", "phase": "strict"})
            out["verdict"] = run_tool(
                "coq_check", {"proof": found["proof_file"], "expect": body.name}, check
            )
        return out

    started = {"name": body.name, "budget_s": budget_s}
    return cancelling(event_stream(started, work, timeout), call, check)


@router.post("/api/prove/check")
async def check_stream(body: CoqFileRequest, request: Request) -> StreamingResponse:
    timeout = _timeout(request)
    call = _call(request, max(5.0, timeout - 2.0))

    def work(emit: Progress, deadline: Deadline) -> dict[str, Any]:
        emit({"event": "phase", "phase": "strict"})
        return {
            "verdict": run_tool("coq_check", {"proof": body.proof, "expect": body.expect}, call)
        }

    return cancelling(event_stream({"expect": body.expect}, work, timeout), call)


# -- laws --------------------------------------------------------------------------------------
async def _json(request: Request, fn: Callable[[Call], dict[str, Any]]) -> Any:
    """``fn`` under the request's deadline; a client that leaves (Cancel, another page) cancels
    the call at once, which kills the prover it runs. A plain JSON request is not cancelled by
    the server when its client goes, so the route polls for the disconnect itself."""
    timeout = _timeout(request)
    call = _call(request, max(1.0, timeout - 2.0))
    work = asyncio.ensure_future(with_deadline(lambda _d: fn(call), timeout))
    work.add_done_callback(_retrieved)
    try:
        while not (await asyncio.wait({work}, timeout=DISCONNECT_POLL_S))[0]:
            if await request.is_disconnected():
                return Response(status_code=CLIENT_CLOSED)  # nobody reads it; nothing to log
        return work.result()
    finally:
        call.cancel()


def _retrieved(task: asyncio.Future[Any]) -> None:
    """Read an abandoned request's outcome so that asyncio does not log it as never retrieved."""
    if not task.cancelled():
        task.exception()


@router.post("/api/alps/law")
async def alps_law(body: LawRequest, request: Request) -> Any:
    """The law's ETP number and its dual's (the law read right to left)."""

    def fn(call: Call) -> dict[str, Any]:
        from veristep.alps.terms import dual, parse_law

        out = run_tool("alps_id", {"law": body.law}, call)
        mirrored = str(dual(parse_law(body.law)))
        out["dual"] = run_tool("alps_id", {"law": mirrored}, call)
        return out

    return await _json(request, fn)


@router.post("/api/alps/screen")
async def alps_screen(body: LawRequest, request: Request) -> Any:
    """The screen's report, each stage's certificate beside it (a prover's proof, a completion's
    rules, the model's table)."""

    def fn(call: Call) -> dict[str, Any]:
        heard: dict[str, Any] = {}
        call.events = lambda event: heard.update(event.get("certificates") or {})
        out = run_tool("alps_screen", {"law": body.law}, call)
        out["certificates"] = heard
        return out

    return await _json(request, fn)


@router.post("/api/alps/judge")
async def alps_judge(body: JudgeRequest, request: Request) -> Any:
    """The verdict and, beside it, its certificate (a chain's links, each with the law
    application found or the reason it is not one)."""

    def fn(call: Call) -> dict[str, Any]:
        heard: dict[str, Any] = {}
        call.events = lambda event: heard.update(certificate=event.get("certificate"))
        args = {"law": body.law, "submission": body.submission}
        out = run_tool("alps_judge", args, call)
        certificate = heard.get("certificate")
        if certificate is not None and len(json.dumps(certificate)) <= CERTIFICATE_JSON_CHARS:
            out["certificate"] = certificate
        return out

    return await _json(request, fn)


# -- pages -------------------------------------------------------------------------------------
ASSETS = (
    '<link rel="stylesheet" href="/assets/research.css">'
    '<script src="/assets/research.js" defer></script>'
)
REVIEW_EXAMPLES = (
    ("A false computation", "We have $17 \\cdot 3 = 52$. Hence the claim holds."),
    ("A correct computation", "We have $2^{10} = 1024$, so $2^{10} - 1 = 1023$."),
)
CHECK_EXAMPLE = (
    "Require Import Reals.\nOpen Scope R_scope.\n"
    "Theorem mathd_algebra_412:\n  forall (x y : R),\n  (x + y = 25) ->\n  (x - y = 11) ->\n"
    "  x = 18.\nProof. intros x y h0 h1. lra. Qed.\n"
)


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _data(payload: Any) -> str:
    """JSON for a ``<script type=application/json>``: no ``</script>`` can end it early."""
    return json.dumps(payload, ensure_ascii=False).replace("<", "\\u003c")


def _has_model(request: Request) -> bool:
    return request.app.state.lm is not None or bool(request.app.state.settings.model)


def _page(title: str, body: str, active: str) -> str:
    from veristep.web.pages import layout

    return layout(title, body + ASSETS, active=active)


def _review_form() -> str:
    buttons = "".join(
        f'<button type="button" class="example" data-fill="review-proof" '
        f'data-value="{_e(text)}">{_e(label)}</button>'
        for label, text in REVIEW_EXAMPLES
    )
    return f"""
<form id="review-form" class="card">
  <label for="review-problem">Statement proved <span class="hint">(optional)</span></label>
  <textarea id="review-problem" rows="2" maxlength="{PROBLEM_CHARS}"></textarea>
  <label for="review-proof">Proof
    <span class="hint">Markdown with $…$ maths, or LaTeX</span></label>
  <textarea id="review-proof" rows="9" maxlength="{PROOF_CHARS}" required
    aria-describedby="review-error"></textarea>
  <label for="review-file">or open a file <span class="hint">(.md, .tex, .txt)</span></label>
  <input id="review-file" type="file" accept=".md,.tex,.txt,text/plain">
  <div class="examples" role="group" aria-label="examples">Try: {buttons}</div>
  <pre class="field-error" id="review-error" role="alert" hidden></pre>
  <div class="actions"><button type="submit">Review</button>
    <button type="button" id="review-cancel" disabled>Cancel</button></div>
</form>"""


def _review_results() -> str:
    return """
<section class="card" aria-labelledby="review-findings-title">
  <h2 id="review-findings-title">Findings</h2>
  <p id="review-status" role="status" aria-live="polite">Nothing reviewed yet.</p>
  <ol id="review-steps" class="rs-steps" aria-live="polite"></ol>
  <p id="review-verdict" aria-live="polite"></p>
  <ul id="review-ledger" hidden></ul>
  <p id="review-links" hidden><a id="review-share" href="#">link to this review</a> ·
    <a id="review-export" href="#" download>download as one offline HTML file</a></p>
</section>"""


@router.get("/review", response_class=HTMLResponse, include_in_schema=False)
def review_page(request: Request) -> str:
    note = (
        '<p id="model-status" class="muted">A language model is configured: after the machine '
        "checks, the review agent works on the steps they left open.</p>"
        if _has_model(request)
        else '<p id="model-status" class="notice" data-missing="1">No language model is '
        "configured, so only the machine checks run: computations are grounded or refuted with "
        "a witness, and every other step stays <b>open</b> (never called verified).</p>"
    )
    body = f"""<h1>Review a proof</h1>
<p>The proof is cut into steps; each claim the machine can check (arithmetic, algebra chains,
small cases, instances) gets its verdict and witness as soon as it is checked.</p>
{note}{_review_form()}{_review_results()}"""
    return _page("Review a proof", body, "/review")


@router.get("/review/{ident}", response_class=HTMLResponse, include_in_schema=False)
def saved_review_page(ident: str, request: Request) -> str:
    saved = _saved(request, ident)
    view = {"id": saved.ident, "url": f"/review/{saved.ident}", **report_view(saved.trace)}
    body = f"""<h1>Review: {_e(saved.title)}</h1>
<p><a href="/review">review another proof</a></p>
{_review_results()}
<script id="review-data" type="application/json">{_data(view)}</script>"""
    return _page(f"Review: {saved.title}", body, "/review")


def theorem_names() -> list[str]:
    """The miniF2F-rocq names the prove page offers (none when the corpus is not installed)."""
    from veristep.formal.bench import load_minif2f

    try:
        pool = [t for s in ("test", "valid") for t in load_minif2f(s, only_compiling=False)]
    except InputError:
        return []
    return sorted({t.name for t in pool})


@router.get("/prove", response_class=HTMLResponse, include_in_schema=False)
def prove_page(request: Request) -> str:
    names = theorem_names()
    options = "".join(f'<option value="{_e(n)}"></option>' for n in names)
    corpus = (
        f"{len(names)} miniF2F-rocq theorems are installed."
        if names
        else "The miniF2F-rocq corpus is not installed here: type a statement instead."
    )
    timeout = _timeout(request)
    budget = min(60, int(timeout - STRICT_RESERVE_S)) if timeout > STRICT_RESERVE_S + 1 else 1
    body = f"""<h1>Prove a Coq theorem</h1>
<p>An offline search (a portfolio of closing tactics, Best-of-N scripts, then a tree search)
streams each attempt with its four signals; a proof it finds is then checked on the strict
acceptance path: compiled on its own, its statement compared with the reference, every axiom
audited by <code>coqchk</code>. Only that path says <b>proved</b>.</p>
<form id="prove-form" class="card">
  <label for="prove-name">A miniF2F-rocq theorem by name</label>
  <input id="prove-name" list="prove-names" autocomplete="off" spellcheck="false"
    placeholder="mathd_algebra_176" aria-describedby="prove-corpus">
  <p id="prove-corpus" class="hint">{_e(corpus)}</p>
  <datalist id="prove-names">{options}</datalist>
  <label for="prove-statement">or your own statement</label>
  <textarea id="prove-statement" rows="3" maxlength="{STATEMENT_CHARS}" spellcheck="false"
    placeholder="Theorem t : forall n : nat, n + 0 = n."></textarea>
  <label for="prove-header">Imports for it <span class="hint">(Require/Import/Open)</span></label>
  <input id="prove-header" maxlength="{STATEMENT_CHARS}" spellcheck="false" autocomplete="off">
  <label for="prove-budget">Search budget (seconds)</label>
  <input id="prove-budget" type="number" min="1" max="600" value="{budget}">
  <label class="inline"><input id="prove-mcts" type="checkbox"> tree search (MCTS) after
    Best-of-N</label>
  <pre class="field-error" id="prove-error" role="alert" hidden></pre>
  <div class="actions"><button type="submit">Prove</button>
    <button type="button" id="prove-cancel" disabled>Cancel</button></div>
</form>
<section class="card" aria-labelledby="prove-search-title">
  <h2 id="prove-search-title">Search</h2>
  <p id="prove-status" role="status" aria-live="polite">No search yet.</p>
  <ol id="prove-attempts" class="rs-attempts"></ol>
  <div id="prove-result" aria-live="polite"></div>
</section>
<form id="coqcheck-form" class="card">
  <h2>Check my proof</h2>
  <label for="coqcheck-proof">A whole <code>.v</code> file</label>
  <textarea id="coqcheck-proof" rows="9" maxlength="{COQ_FILE_CHARS}" spellcheck="false"
    required>{_e(CHECK_EXAMPLE)}</textarea>
  <label for="coqcheck-expect">Its miniF2F-rocq theorem <span class="hint">(optional: the
    statement must then be exactly the reference)</span></label>
  <input id="coqcheck-expect" list="prove-names" autocomplete="off" spellcheck="false">
  <pre class="field-error" id="coqcheck-error" role="alert" hidden></pre>
  <div class="actions"><button type="submit">Check</button>
    <button type="button" id="coqcheck-cancel" disabled>Cancel</button></div>
  <div id="coqcheck-result" aria-live="polite"></div>
</form>"""
    return _page("Prove a Coq theorem", body, "/prove")


@router.get("/alps", response_class=HTMLResponse, include_in_schema=False)
def alps_page() -> str:
    body = f"""<h1>Magma laws</h1>
<p>A law in the ALPS syntax (<code>◇</code> or <code>*</code> for the operation, variables
<code>x y z w u v</code>): its number in the Equational Theories Project and its dual's, then a
screen (trivial? a finite model? admissible? a nontrivial model?) with the evidence of each
stage. <i>unknown</i> is never a yes or a no.</p>
<form id="law-form" class="card">
  <label for="law-text">Law</label>
  <input id="law-text" value="x = y ◇ x" maxlength="{LAW_CHARS}" required spellcheck="false"
    autocomplete="off">
  <pre class="field-error" id="law-error" role="alert" hidden></pre>
  <div class="actions"><button type="submit">Number and screen</button>
    <button type="button" id="law-cancel" disabled>Cancel</button></div>
  <div id="law-result" aria-live="polite"></div>
  <div id="law-screen" aria-live="polite"></div>
</form>
<form id="judge-form" class="card">
  <h2>Judge a submission</h2>
  <label for="judge-law">Law</label>
  <input id="judge-law" value="x = y ◇ z" maxlength="{LAW_CHARS}" required spellcheck="false"
    autocomplete="off">
  <label for="judge-submission">Submission <span class="hint">(JSON: a chain
    <code>{{"chain": [terms…]}}</code>, each link one application of the law, or a
    construction <code>{{"E": …}}</code>)</span></label>
  <textarea id="judge-submission" rows="4" maxlength="{SUBMISSION_CHARS}" required
    spellcheck="false">{{"chain": ["a", "a ◇ a", "b"]}}</textarea>
  <pre class="field-error" id="judge-error" role="alert" hidden></pre>
  <div class="actions"><button type="submit">Judge</button>
    <button type="button" id="judge-cancel" disabled>Cancel</button></div>
  <div id="judge-result" aria-live="polite"></div>
</form>"""
    return _page("Magma laws", body, "/alps")
