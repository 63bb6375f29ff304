"""HTML pages: derive (progress streamed), step checker, gallery, one page per derivation, chat.

Pages are thin: each is a form or a list in a shared layout, and ``/assets/app.js`` talks to the
JSON API. A saved derivation's page embeds its payload and mounts the same player as the export.
Every tier a page shows comes from :func:`veristep.web.grading.shown`: this server's own grading.
"""

from __future__ import annotations

import datetime as dt
import html
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from veristep.animate.html import player_section
from veristep.animate.plain import plain_math
from veristep.core.tiers import Tier
from veristep.web.grading import shown
from veristep.web.store import default_title

router = APIRouter(include_in_schema=False)

_NAV = (
    ("/", "Derive"),
    ("/check", "Step checker"),
    ("/workspace", "Workspace"),
    ("/play", "Practice"),
    ("/pages", "Pages"),
    ("/gallery", "Gallery"),
    ("/chat", "Chat"),
    ("/review", "Review"),
    ("/prove", "Prove"),
    ("/alps", "Laws"),
)

# (label, start, target): tasks to start from, each showing something the verifier does.
DERIVE_EXAMPLES = (
    ("Quadratic formula", "a x^2 + b x + c = 0", "x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}"),
    ("Solve, no target", "x^2 - 5x + 6 = 0", ""),
    ("Linear equation", "2x + 3 = 9", "x = 3"),
    ("Square both sides", "\\sqrt{x} = 3", "x = 9"),
    ("Expand a square", "(x + 1)^2 = 0", "x^2 + 2x + 1 = 0"),
)
# (label, lines): chains for the step checker, one of them with a wrong step.
CHECK_EXAMPLES = (
    ("Correct", "2x + 3 = 9\n2x = 6\nx = 3"),
    ("A wrong step", "2x + 3 = 9\n2x = 6\nx = 4"),
    ("Loses a root", "x^2 = 4\nx = 2"),
    ("Squaring", "sqrt(x) = x - 2\nx = (x - 2)^2\nx^2 - 5x + 4 = 0\nx = 1 or x = 4"),
    ("One line: a claim", "(a + b)^2 = a^2 + b^2"),
)
# Shown beside every maths field: plain maths is read as well as LaTeX, and read back.
PLAIN_HINT = "plain maths (x^2, 2x, sqrt(x), sin x, x <= 3) or LaTeX"
# The badge words of the player (player.js TIERS), for lists rendered here.
TIER_WORDS = {
    "grounded": "proved",
    "verified": "checked",
    "plausible": "not proved",
    "unchecked": "not checked",
    "refuted": "wrong",
}
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    '<rect width="16" height="16" rx="3" fill="#1d2330"/>'
    '<path d="M3.5 8.5 L6.5 11.5 L12.5 4.5" fill="none" stroke="#f2c230" stroke-width="2.2"'
    ' stroke-linecap="round" stroke-linejoin="round"/></svg>'
)


def layout(title: str, body: str, active: str = "") -> str:
    """The shared page: nav, local assets only, a skip link, ``main`` holding ``body``."""
    nav = " ".join(
        f'<a href="{href}"{" aria-current=page" if href == active else ""}>{label}</a>'
        for href, label in _NAV
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · veristep</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/katex.css">
<link rel="stylesheet" href="/static/player.css">
<link rel="stylesheet" href="/static/uplot/uPlot.min.css">
<link rel="stylesheet" href="/assets/app.css">
<script src="/static/katex/katex.min.js" defer></script>
<script src="/static/uplot/uPlot.iife.min.js" defer></script>
<script src="/static/plots.js" defer></script>
<script src="/static/player.js" defer></script>
<script src="/assets/app.js" defer></script>
</head><body>
<a class="skip" href="#main">skip to the content</a>
<header><strong>veristep</strong> <nav aria-label="pages">{nav}</nav></header>
<main id="main">{body}</main>
</body></html>"""


def _field(name: str, label: str, value: str, hint: str = "", required: bool = True) -> str:
    """A maths input with its live preview (what the server read) and its error line, tied
    together for screen readers."""
    hint_html = f'<span class="hint">{html.escape(hint)}</span>' if hint else ""
    need = " required" if required else ""
    return f"""<div class="field">
  <label for="{name}">{label}</label> {hint_html}
  <input id="{name}" name="{name}" value="{html.escape(value)}"{need} autocomplete="off"
    spellcheck="false" data-preview="{name}-preview"
    aria-describedby="{name}-preview {name}-error">
  <div class="tex-preview" id="{name}-preview" aria-live="polite" tabindex="0"
    role="region" aria-label="{label} as read"></div>
  <pre class="field-error" id="{name}-error" hidden></pre>
</div>"""


def _examples(items: tuple[tuple[str, ...], ...], form: str) -> str:
    buttons = "".join(
        f'<button type="button" class="example" data-form="{form}" '
        + " ".join(f'data-{k}="{html.escape(v)}"' for k, v in zip(_KEYS[form], rest, strict=True))
        + f">{html.escape(label)}</button>"
        for label, *rest in items
    )
    return f'<div class="examples" role="group" aria-label="examples">Try: {buttons}</div>'


_KEYS = {"derive": ("start", "target"), "check": ("states",)}


@router.get("/favicon.svg")
@router.get("/favicon.ico")
def favicon() -> Response:
    return Response(FAVICON, media_type="image/svg+xml")


def _has_model(request: Request) -> bool:
    return request.app.state.lm is not None or bool(request.app.state.settings.model)


@router.get("/", response_class=HTMLResponse)
def derive_page(request: Request) -> str:
    qf = DERIVE_EXAMPLES[0]
    llm = (
        '<option value="llm">language model</option>'
        if _has_model(request)
        else '<option value="llm" disabled>language model (none configured: set VERISTEP_MODEL)'
        "</option>"
    )
    body = f"""
<h1>Derive</h1>
<p>Type where to start, in plain maths or LaTeX, and where to arrive — or leave the target empty
and the planner solves (or simplifies) and says the answer. The verifier grades every step.</p>
{_examples(DERIVE_EXAMPLES, "derive")}
<form id="derive-form" class="card" novalidate>
  {_field("start", "Start", qf[1], PLAIN_HINT)}
  {_field("target", "Target (optional)", qf[2], "empty: solve or simplify", required=False)}
  <div class="field"><label for="proposer">Proposer</label>
  <select id="proposer" name="proposer">
    <option value="symbolic" selected>symbolic (offline CAS planner)</option>
    {llm}</select></div>
  <div class="actions">
    <button type="submit" id="derive-submit">Derive</button>
    <button type="button" id="derive-cancel" hidden>Cancel</button>
  </div>
  <pre class="field-error" id="derive-error" hidden></pre>
</form>
<section id="progress" class="card" hidden aria-labelledby="progress-title">
<h2 id="progress-title">Progress</h2>
<progress id="progress-bar" max="1" value="0" aria-label="steps graded"></progress>
<ol id="progress-steps"></ol>
<p id="progress-status" role="status"></p></section>
<p id="derive-answer" class="card answer" role="status" hidden></p>
<section id="result" hidden aria-label="result"></section>"""
    return layout("Derive", body, "/")


@router.get("/check", response_class=HTMLResponse)
def check_page() -> str:
    body = f"""
<h1>Step checker</h1>
<p>Type a starting equation, then one step per line, in plain maths (<code>x^2 - 5x + 6 = 0</code>,
<code>sqrt(x) = 3</code>, <code>x = 1 or x = 4</code>) or LaTeX. Each step is checked as you go;
one line alone is checked as a claim.</p>
{_examples(CHECK_EXAMPLES, "check")}
<form id="check-form" class="card" novalidate>
  {_field("target", "Target (optional)", "", required=False)}
  <div class="field">
  <label for="states">Your steps, one per line</label>
  <span class="hint">{html.escape(PLAIN_HINT)}; the preview shows how each line was read</span>
  <textarea id="states" name="states" rows="8" required spellcheck="false"
    aria-describedby="states-preview states-error">{html.escape(CHECK_EXAMPLES[0][1])}</textarea>
  <ol class="tex-preview lines-preview" id="states-preview" aria-label="preview"
    tabindex="0"></ol>
  <pre class="field-error" id="states-error" hidden></pre>
  </div>
  <fieldset class="view-toggle">
    <legend>Feedback</legend>
    <label><input type="radio" name="view" value="learner" checked> in plain words</label>
    <label><input type="radio" name="view" value="teacher"> for a teacher (grades, checks,
      witnesses)</label>
  </fieldset>
  <div class="actions">
    <button type="submit">Check</button>
    <button type="button" id="check-hint">Hint</button>
    <button type="button" id="check-save" disabled>Save and animate</button>
  </div>
  <ol id="hint-list" class="hints" aria-live="polite" aria-label="hints"></ol>
</form>
<progress id="check-bar" max="1" value="0" aria-label="steps graded" hidden></progress>
<ol id="check-results" class="grades"></ol>
<p id="check-summary" role="status"></p>
<section id="check-result" hidden aria-label="animation"></section>"""
    return layout("Step checker", body, "/check")


@router.get("/gallery", response_class=HTMLResponse)
def gallery_page(request: Request, q: str = "") -> str:
    store = request.app.state.store
    query = q[:200]
    rows = store.list(limit=200, query=query)
    items = "\n".join(_gallery_item(r) for r in rows)
    empty = (
        f"<li>Nothing matches “{html.escape(query)}”.</li>"
        if query
        else "<li>No saved derivations yet.</li>"
    )
    body = f"""<h1>Gallery</h1>
<form id="gallery-search" class="search" role="search" method="get" action="/gallery">
  <label for="gallery-q">Search titles</label>
  <input id="gallery-q" name="q" type="search" value="{html.escape(query)}">
  <button type="submit">Search</button>
</form>
<p class="muted">{store.count(query)} saved{" matching" if query else ""}.</p>
<ul id="gallery">{items or empty}</ul>"""
    return layout("Gallery", body, "/gallery")


def _gallery_item(row: Any) -> str:
    tier = _tier(row.tier) if row.graded else "unchecked"
    name = Tier.parse(tier)
    ident = html.escape(row.ident)
    when = dt.datetime.fromtimestamp(row.created, dt.UTC)
    return (
        f'<li data-id="{ident}"><span><span class="tier-icon" data-tier="{tier}" role="img" '
        f'aria-label="{html.escape(f"{name.icon} {tier}")}"></span>'
        f'<span class="tier-word" data-tier="{tier}">{TIER_WORDS[tier]}</span></span> '
        f'<a class="title" href="/d/{ident}" title="{html.escape(row.title)}">'
        f"{_title_html(row)}</a> "
        f'<small>{when:%Y-%m-%d %H:%M} UTC</small> <span class="row-actions">'
        f'<button type="button" class="rename" data-id="{ident}" '
        f'data-title="{html.escape(row.title)}" aria-label="rename">Rename</button> '
        f'<button type="button" class="delete" data-id="{ident}" aria-label="delete">'
        "Delete</button></span></li>"
    )


@router.get("/d/{ident}", response_class=HTMLResponse)
def derivation_page(ident: str, request: Request) -> str:
    saved = request.app.state.store.get(ident)
    if saved is None:
        raise HTTPException(404, f"no saved derivation {ident!r}")
    _, payload = shown(saved)
    header = (
        f'<p class="vs-nav"><a href="/gallery">← gallery</a> · '
        f'<a id="export-link" href="/api/derivations/{html.escape(ident)}/export" download>'
        "download self-contained HTML</a></p>"
        f"<h1>{_title_html(saved)}</h1>"
    )
    # The site's own page (its navigation, a <main>), the player mounted inside it.
    return layout(plain_math(saved.title, limit=90), header + player_section(payload), "/gallery")


@router.get("/chat", response_class=HTMLResponse)
def chat_page(request: Request) -> str:
    configured = _has_model(request)
    model_note = (
        '<p id="model-status" class="muted">A language model is configured.</p>'
        if configured
        else '<p id="model-status" class="notice" data-missing="1">No language model is '
        "configured (set <code>VERISTEP_MODEL</code>), so chat is off. The verified derivation "
        "tool below works offline.</p>"
    )
    disabled = "" if configured else " disabled"
    body = f"""
<h1>Chat</h1>
<p>Ask for a derivation in words; the agent calls the verified derivation tool.</p>
{model_note}
<form id="chat-form" class="card">
  <label for="message">Message</label>
  <input id="message" name="message" value="derive the quadratic formula" required{disabled}>
  <div class="actions"><button type="submit"{disabled}>Send</button></div>
</form>
<div id="chat-log" aria-live="polite"></div>
<h2>Derivation tool (offline)</h2>
<form id="tool-form" class="card" novalidate>
  {_field("tool-start", "Start", "2x + 3 = 9")}
  {_field("tool-target", "Target", "x = 3")}
  <div class="actions"><button type="submit">Derive with the tool</button></div>
  <pre class="field-error" id="tool-error" hidden></pre>
</form>
<section id="chat-result" hidden aria-label="result"></section>"""
    return layout("Chat", body, "/chat")


def not_found_page(message: str) -> str:
    body = (
        "<h1>Not found</h1>"
        f'<p id="not-found">{html.escape(message)}</p>'
        '<p><a href="/gallery">Go to the gallery</a> or <a href="/">derive something</a>.</p>'
    )
    return layout("Not found", body)


def _title_html(row: Any) -> str:
    """A renamed derivation shows its title; otherwise its start and target, typeset."""
    if row.title != default_title(row.derivation):
        text = html.escape(row.title)
        return f'<span data-vs-prose="{text}">{text}</span>'
    return _formula_title(row.derivation, row.title)


def _formula_title(derivation: dict, fallback: str) -> str:
    """Start → target, typeset by the player script (the text stays as the fallback)."""
    start, target = derivation.get("start"), derivation.get("target")
    if not isinstance(start, str) or not start:
        # A free-text title may carry $…$ math; the player script renders it, text stays text.
        shown_text = html.escape(str(fallback))
        return f'<span data-vs-prose="{shown_text}">{shown_text}</span>'
    parts = [_tex_span(start)]
    if isinstance(target, str) and target:
        parts.append(_tex_span(target))
    return " ⟶ ".join(parts)


def _tex_span(latex: str) -> str:
    """A formula typeset on load; its readable text is the fallback and the accessible name."""
    readable = html.escape(plain_math(latex))
    return (
        f'<span data-vs-tex="{html.escape(latex)}" role="img" aria-label="{readable}">'
        f"{readable}</span>"
    )


def _tier(tier: Any) -> str:
    """A known tier name; anything else shows as unchecked, never stronger."""
    try:
        return Tier.parse(str(tier or "")).name_lower
    except ValueError:
        return Tier.UNCHECKED.name_lower
