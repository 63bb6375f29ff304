"""HTML pages: derive (progress streamed), step checker, gallery, one page per derivation, chat.

Pages are thin: each is a form or a list in a shared layout, and ``/assets/app.js`` talks to the
JSON API. A saved derivation's page embeds its payload and mounts the same player as the export.
"""

from __future__ import annotations

import datetime as dt
import html

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from veristep.animate.html import player_document
from veristep.core.tiers import Tier

router = APIRouter(include_in_schema=False)

_NAV = (
    ("/", "Derive"),
    ("/check", "Step checker"),
    ("/gallery", "Gallery"),
    ("/chat", "Chat"),
)


def _layout(title: str, body: str, active: str) -> str:
    nav = " ".join(
        f'<a href="{href}"{" aria-current=page" if href == active else ""}>{label}</a>'
        for href, label in _NAV
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · veristep</title>
<link rel="stylesheet" href="/static/katex.css">
<link rel="stylesheet" href="/static/player.css">
<link rel="stylesheet" href="/assets/app.css">
<script src="/static/katex/katex.min.js" defer></script>
<script src="/static/player.js" defer></script>
<script src="/assets/app.js" defer></script>
</head><body>
<header><strong>veristep</strong> <nav>{nav}</nav></header>
<main>{body}</main>
</body></html>"""


@router.get("/", response_class=HTMLResponse)
def derive_page() -> str:
    body = """
<h1>Derive</h1>
<form id="derive-form" class="card">
  <label>Start <input name="start" value="a x^2 + b x + c = 0" required></label>
  <label>Target
    <input name="target" value="x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}" required></label>
  <label>Proposer <select name="proposer">
    <option value="symbolic" selected>symbolic (offline CAS planner)</option>
    <option value="llm">language model</option></select></label>
  <button type="submit">Derive</button>
</form>
<section id="progress" class="card" hidden><h2>Progress</h2>
<progress id="progress-bar" max="1" value="0" aria-label="steps judged"></progress>
<ol id="progress-steps"></ol>
<p id="progress-status" role="status"></p></section>
<section id="result" hidden></section>"""
    return _layout("Derive", body, "/")


@router.get("/check", response_class=HTMLResponse)
def check_page() -> str:
    body = """
<h1>Step checker</h1>
<p>Type a starting equation, then one step per line. Each step is graded as you go.</p>
<form id="check-form" class="card">
  <label>Target (optional) <input name="target" placeholder="x = 3"></label>
  <label>Your steps, one state per line
    <textarea name="states" rows="8" required>2x + 3 = 9
2x = 6
x = 3</textarea></label>
  <button type="submit">Check</button>
</form>
<progress id="check-bar" max="1" value="0" aria-label="steps judged" hidden></progress>
<ol id="check-results" class="grades"></ol>
<p id="check-summary" role="status"></p>"""
    return _layout("Step checker", body, "/check")


@router.get("/gallery", response_class=HTMLResponse)
def gallery_page(request: Request) -> str:
    rows = request.app.state.store.list(limit=200)
    items = "\n".join(
        f'<li><span class="tier-icon" data-tier="{html.escape(_tier(r.tier))}" role="img" '
        f'aria-label="{Tier.parse(_tier(r.tier)).icon} {_tier(r.tier)}"></span> '
        f'<a href="/d/{html.escape(r.ident)}">{_formula_title(r.derivation, r.title)}</a> '
        f"<small>{dt.datetime.fromtimestamp(r.created, dt.UTC):%Y-%m-%d %H:%M} UTC</small></li>"
        for r in rows
    )
    empty = "<li>No saved derivations yet.</li>"
    body = f'<h1>Gallery</h1><ul id="gallery">{items or empty}</ul>'
    return _layout("Gallery", body, "/gallery")


@router.get("/d/{ident}", response_class=HTMLResponse)
def derivation_page(ident: str, request: Request) -> str:
    saved = request.app.state.store.get(ident)
    if saved is None:
        raise HTTPException(404, f"no saved derivation {ident!r}")
    from veristep.animate import build_payload

    payload = saved.payload or build_payload(saved.derivation)
    header = (
        f'<p class="vs-nav"><a href="/gallery">← gallery</a> · '
        f'<a id="export-link" href="/api/derivations/{html.escape(ident)}/export" download>'
        "download self-contained HTML</a></p>"
        f"<h1>{_formula_title(saved.derivation, saved.title)}</h1>"
    )
    return player_document(payload, inline=False, title=saved.title, body_prefix=header)


@router.get("/chat", response_class=HTMLResponse)
def chat_page() -> str:
    body = """
<h1>Chat</h1>
<p>Ask for a derivation in words; the agent calls the verified derivation tool.</p>
<form id="chat-form" class="card">
  <label>Message <input name="message" value="derive the quadratic formula" required></label>
  <button type="submit">Send</button>
</form>
<div id="chat-log" aria-live="polite"></div>
<section id="chat-result" hidden></section>"""
    return _layout("Chat", body, "/chat")


def _formula_title(derivation: dict, fallback: str) -> str:
    """Start → target, typeset by the player script (the text stays as the fallback)."""
    start, target = derivation.get("start"), derivation.get("target")
    if not start:
        # A free-text title may carry $…$ math; the player script renders it, text stays text.
        shown = html.escape(fallback)
        return f'<span data-vs-prose="{shown}">{shown}</span>'
    parts = [f'<span data-vs-tex="{html.escape(start)}">{html.escape(start)}</span>']
    if target:
        parts.append(f'<span data-vs-tex="{html.escape(target)}">{html.escape(target)}</span>')
    return " ⟶ ".join(parts)


def _tier(tier: str | None) -> str:
    """A known tier name; anything else shows as unchecked, never stronger."""
    try:
        return Tier.parse(tier or "").name_lower
    except ValueError:
        return Tier.UNCHECKED.name_lower
