"""Interactive pages: an ordered list of blocks, edited by plain functions, rendered as HTML.

A block is one of ``markdown`` (prose with ``$…$`` maths), ``derivation`` (a judged derivation
JSON, shown with its animation and steps), ``workspace`` (a workspace's saved tree, shown as the
graded path), ``exercise`` (a next-step exercise, see ``games``) and ``plot`` (a function of one
variable over an interval). Editing never mutates: :func:`add_block`, :func:`move_block`,
:func:`edit_block` and :func:`delete_block` return a new :class:`Page`, which the store saves as
a new version.

>>> page = add_block(Page("Quadratics"), Block("markdown", {"text": "# Roots\\nSolve $x^2 = 4$."}))
>>> page = add_block(page, Block("plot", {"expr": "x^2 - 4", "from": -3, "to": 3}))
>>> [b.kind for b in move_block(page, 1, 0).blocks]
['plot', 'markdown']
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from veristep.core.errors import InputError, VeristepError, did_you_mean

BLOCK_KINDS = ("markdown", "derivation", "workspace", "exercise", "plot")
MAX_BLOCKS = 200
MAX_TEXT = 20_000
_REQUIRED = {
    "markdown": ("text",),
    "derivation": ("derivation",),
    "workspace": ("workspace",),
    "exercise": ("exercise",),
    "plot": ("expr",),
}


@dataclass(frozen=True)
class Block:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    # The server's grade of a derivation or workspace block, computed when the page was saved
    # (web.page_grading); None: not graded by this server, so every step shows as unchecked.
    grade: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.kind not in BLOCK_KINDS:
            hint = did_you_mean(self.kind, BLOCK_KINDS, cutoff=0.6)
            names = ", ".join(BLOCK_KINDS)
            raise InputError(f"unknown block kind {self.kind!r}; expected {names}", hint=hint)
        if not isinstance(self.data, dict):
            raise InputError(f"a {self.kind} block's data must be an object")
        missing = [k for k in _REQUIRED[self.kind] if k not in self.data]
        if missing:
            raise InputError(f"a {self.kind} block needs {', '.join(missing)}")
        text = self.data.get("text")
        if text is not None and (not isinstance(text, str) or len(text) > MAX_TEXT):
            raise InputError(f"a markdown block's text must be a string of at most {MAX_TEXT}")

    def to_json(self, *, grade: bool = True) -> dict[str, Any]:
        out = {"kind": self.kind, "data": self.data}
        if grade and self.grade is not None:
            out["grade"] = self.grade
        return out

    @classmethod
    def from_json(cls, raw: Any) -> Block:
        """A block as stored: its grade is read here, so this is for the store, never a client."""
        if not isinstance(raw, dict) or "kind" not in raw:
            raise InputError("a block must be an object with a 'kind'")
        grade = raw.get("grade")
        grade = grade if isinstance(grade, dict) else None
        return cls(str(raw["kind"]), raw.get("data") or {}, grade)


@dataclass(frozen=True)
class Page:
    title: str
    blocks: tuple[Block, ...] = ()

    def to_json(self, *, grades: bool = True) -> dict[str, Any]:
        return {"title": self.title, "blocks": [b.to_json(grade=grades) for b in self.blocks]}

    @classmethod
    def from_json(cls, raw: Any) -> Page:
        if not isinstance(raw, dict):
            raise InputError("a page must be an object with a title and blocks")
        title = raw.get("title")
        if not isinstance(title, str) or not title.strip() or len(title) > 200:
            raise InputError("a page needs a title of 1 to 200 characters")
        blocks = raw.get("blocks") or []
        if not isinstance(blocks, list) or len(blocks) > MAX_BLOCKS:
            raise InputError(f"'blocks' must be a list of at most {MAX_BLOCKS} blocks")
        return cls(title.strip(), tuple(Block.from_json(b) for b in blocks))


def _index(page: Page, index: int, *, end_ok: bool = False) -> int:
    top = len(page.blocks) + (1 if end_ok else 0)
    if not isinstance(index, int) or not 0 <= index < top:
        raise InputError(f"no block {index} on this page (it has {len(page.blocks)})")
    return index


def add_block(page: Page, block: Block, at: int | None = None) -> Page:
    if len(page.blocks) >= MAX_BLOCKS:
        raise InputError(f"a page holds at most {MAX_BLOCKS} blocks")
    at = len(page.blocks) if at is None else _index(page, at, end_ok=True)
    return replace(page, blocks=(*page.blocks[:at], block, *page.blocks[at:]))


def move_block(page: Page, src: int, dst: int) -> Page:
    blocks = list(page.blocks)
    block = blocks.pop(_index(page, src))
    blocks.insert(_index(page, dst), block)
    return replace(page, blocks=tuple(blocks))


def edit_block(page: Page, index: int, block: Block) -> Page:
    blocks = list(page.blocks)
    blocks[_index(page, index)] = block
    return replace(page, blocks=tuple(blocks))


def delete_block(page: Page, index: int) -> Page:
    blocks = list(page.blocks)
    del blocks[_index(page, index)]
    return replace(page, blocks=tuple(blocks))


# ---- read-only HTML -----------------------------------------------------------------------


def render_blocks(
    page: Page,
    plot: Any = None,
    block_ok: Any = None,
    links: Any = None,
    *,
    offline: bool = False,
) -> str:
    """The page's blocks as HTML; maths is typeset in the browser by the player script.

    ``plot(block_data) -> svg`` draws a plot block (the caller computes it under a deadline).
    ``links(index) -> str | None`` is where an exercise block is played (none in an export).
    ``offline``: the page is a file with no server behind it, so a plot carries its function
    as a tree the browser samples itself when the reader zooms or pans.
    ``block_ok(block) -> str | None`` says why a stored block cannot be shown (None: it can);
    a block that cannot be shown, or whose rendering fails, becomes a notice, never the page's
    failure. Tiers come only from each block's server grade.
    """
    parts = [f'<h1 class="vs-page-title">{html.escape(page.title)}</h1>']
    for i, block in enumerate(page.blocks):
        parts.append(f'<section class="vs-block vs-block-{block.kind}" data-block="{i}">'
                     f"{render_block(block, i, plot, block_ok, links, offline=offline)}"
                     "</section>")  # fmt: skip
    return "\n".join(parts)


def render_block(
    block: Block,
    index: int,
    plot: Any = None,
    block_ok: Any = None,
    links: Any = None,
    *,
    offline: bool = False,
) -> str:
    problem = block_ok(block) if block_ok is not None else None
    if problem is not None:
        return notice(f"This block cannot be shown: {problem}")
    try:
        if block.kind == "exercise":
            return _render_exercise(block, index, links(index) if links is not None else None)
        if block.kind == "plot":
            return _render_plot(block, index, plot, offline=offline)
        return _RENDER[block.kind](block, index, plot)
    except RenderLate:
        return notice("This block could not be drawn in time; reload the page to try again.")
    except Exception as exc:  # one bad block costs that block, never the page
        return notice(f"This block cannot be shown ({type(exc).__name__}).")


class RenderLate(VeristepError):
    """The page's render budget ran out before this block."""


def notice(text: str) -> str:
    return f'<p class="vs-block-notice" role="note">{html.escape(text)}</p>'


def _prose(tag: str, text: str) -> str:
    return f'<{tag} data-vs-prose="{html.escape(text, quote=True)}">{html.escape(text)}</{tag}>'


def render_markdown(data: Any, *_: Any) -> str:
    """A small Markdown subset: ``#`` headings, ``-`` lists, paragraphs; ``$…$`` maths inline."""
    if isinstance(data, Block):
        data = data.data
    out: list[str] = []
    for chunk in str(data["text"]).replace("\r\n", "\n").split("\n\n"):
        lines = [ln.strip() for ln in chunk.split("\n") if ln.strip()]
        if lines and all(ln.startswith(("- ", "* ")) for ln in lines):
            out.append("<ul>" + "".join(_prose("li", ln[2:]) for ln in lines) + "</ul>")
            continue
        para: list[str] = []
        for ln in lines:
            heading = re.match(r"(#{1,3}) (.+)", ln)
            if heading is None:
                para.append(ln)
                continue
            if para:
                out.append(_prose("p", " ".join(para)))
                para = []
            out.append(_prose(f"h{len(heading.group(1)) + 1}", heading.group(2)))
        if para:
            out.append(_prose("p", " ".join(para)))
    return "\n".join(out)


def _render_derivation(block: Block, index: int, _: Any) -> str:
    """The server's graded derivation; without a grade, the chain with every tier unchecked."""
    from veristep.animate.html import player_section
    from veristep.animate.payload import build_payload
    from veristep.core.verdicts import NOT_GRADED, ungraded_view

    grade = block.grade or {}
    if grade.get("status") == "graded" and isinstance(grade.get("payload"), dict):
        return player_section(grade["payload"], element_id=f"vs-payload-{index}")
    why = {
        "late": "not graded: the check ran past its deadline when the page was saved",
        "failed": f"not graded: {grade.get('message') or 'the chain could not be read'}",
    }.get(str(grade.get("status")), NOT_GRADED)
    view = ungraded_view(block.data["derivation"], reason=why)
    return player_section(build_payload(view), element_id=f"vs-payload-{index}")


MAX_PATH = 1_000  # a stored tree is checked at save; this bounds a walk over an older one


def _render_workspace(block: Block, index: int, _: Any) -> str:
    """The saved workspace's current path, each step with the server's badge and warnings."""
    ws = block.data["workspace"]
    nodes = {n["id"]: n for n in ws.get("nodes") or [] if isinstance(n, dict) and "id" in n}
    graded = (block.grade or {}).get("nodes") or {}
    path, seen, at = [], set(), ws.get("cursor", 0)
    while at is not None and at in nodes and at not in seen and len(path) < MAX_PATH:
        seen.add(at)
        path.append(nodes[at])
        at = nodes[at].get("parent")
    rows = []
    for node in reversed(path):
        start = node.get("parent") is None
        mine = graded.get(str(node.get("id"))) if not start else None
        tier = "start" if start else (mine or {}).get("tier") or "unchecked"
        reason = "" if start else (mine or {}).get("reason") or "not graded by this server"
        warn = "".join(_prose("span", f"⚠ {w}") for w in node.get("warnings") or [])
        op = html.escape(str(node.get("operation") or "start"))
        rows.append(f'<li class="vs-ws-step" data-tier="{html.escape(tier)}">'
                    f'<span class="vs-ws-op">{op}</span> '
                    f'<span data-vs-tex="{html.escape(str(node["latex"]), quote=True)}"></span>'
                    f' <span class="vs-ws-tier" title="{html.escape(reason, quote=True)}">'
                    f"{html.escape(tier)}</span>{warn}</li>")  # fmt: skip
    return f'<ol class="vs-ws-path">{"".join(rows)}</ol>'


def _render_exercise(block: Block, index: int, play_url: str | None = None) -> str:
    """The server's exercise (its own choices); a block it did not build shows only its state."""
    grade = block.grade or {}
    ex = grade.get("exercise") if grade.get("status") == "graded" else None
    state = ex["state"] if ex else block.data["exercise"].get("state", "")
    question = (f'<p class="vs-ex-q">What is the next step?</p>'
                f'<div data-vs-tex="{html.escape(state, quote=True)}"></div>')  # fmt: skip
    if ex is None:
        why = grade.get("message") or "not built by this server yet: save the page again"
        return question + notice(f"This exercise cannot be played: {why}")
    choices = "".join(
        f'<li data-vs-tex="{html.escape(c["latex"], quote=True)}"></li>' for c in ex["choices"]
    )
    play = ""
    if play_url is not None:
        play = (f'<p><a class="vs-ex-play" href="{html.escape(play_url, quote=True)}">'
                "Play this exercise</a></p>")  # fmt: skip
    return f'{question}<ol class="vs-ex-choices" type="A">{choices}</ol>{play}'


def _render_plot(block: Block, index: int, plot: Any, *, offline: bool = False) -> str:
    data = block.data
    caption = _prose("figcaption", f"$y = {_as_latex(str(data['expr']))}$")
    svg = plot(data) if plot is not None else ""
    # What zooming and panning re-sample through the plot endpoint (see plots.js).
    zoom = " ".join(f'data-{k}="{html.escape(str(data.get(k, d)))}"'
                    for k, d in (("expr", ""), ("var", "x"), ("from", -5), ("to", 5)))  # fmt: skip
    if offline:
        tree = _function_tree(str(data["expr"]), str(data.get("var") or "x"))
        if tree is None:  # nothing to re-sample with: the drawing stays as the server made it
            return f'<figure class="vs-plot-fixed">{svg}{caption}</figure>'
        zoom += f' data-tree="{html.escape(json.dumps(tree), quote=True)}"'
    return f'<figure class="vs-zoomable" {zoom}>{svg}{caption}</figure>'


def _function_tree(text: str, var: str) -> list[Any] | None:
    """The plot's function as the tree plots.js samples (see animate.plots.function_tree)."""
    from veristep.animate.plots import function_tree
    from veristep.mathgraph import parse_math

    try:
        return function_tree(parse_math(text), var)
    except Exception:  # unreadable: the plot shows why; an export just keeps its drawing
        return None


def _as_latex(text: str) -> str:
    """A plot's function as LaTeX (it may be typed as plain maths: ``sin x``)."""
    from veristep.mathgraph import parse_math, to_latex

    try:
        return to_latex(parse_math(text))
    except Exception:  # the plot itself says why it cannot be read; the caption shows the text
        return text


_RENDER = {
    "markdown": render_markdown,
    "derivation": _render_derivation,
    "workspace": _render_workspace,
    "exercise": _render_exercise,
    "plot": _render_plot,
}


def export_html(page: Page, plot: Any = None, block_ok: Any = None) -> str:
    """One self-contained offline HTML file: KaTeX, fonts, uPlot, the player and the page
    inlined; its plots zoom, pan and trace by sampling their functions in the browser."""
    from veristep.animate.assets import player_css
    from veristep.animate.html import inline_math_assets

    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(page.title)}</title>
{inline_math_assets(plots=True)}
<style>{player_css()}</style>
<style>{PAGE_CSS}
body {{ margin: 1.5rem; background: #f3f5f9; font-family: system-ui, sans-serif; }}</style>
</head>
<body>
<main class="vs-page">
{render_blocks(page, plot, block_ok, offline=True)}
</main>
</body>
</html>
"""


PAGE_CSS = """
.vs-page { max-width: 52rem; margin: 0 auto; }
.vs-plot-tools { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .3rem 0; }
.vs-plot-tools button { min-width: 2.75rem; min-height: 2.75rem; }
.vs-plot-readout { font-variant-numeric: tabular-nums; color: #333; }
figure.vs-zoomable:focus-visible { outline: 3px solid #1f4fbf; outline-offset: 2px; }
.vs-block { background: #fff; border-radius: 8px; padding: 0.8rem 1.2rem; margin: 0.8rem 0; }
.vs-ws-path { list-style: decimal; } .vs-ws-op { color: #555; font-style: italic; }
.vs-ws-tier { font-size: 0.8em; padding: 0 0.4em; border-radius: 4px; background: #eef; }
[data-tier=refuted] .vs-ws-tier { background: #fdd; }
[data-tier=grounded] .vs-ws-tier { background: #fe9; }
figure svg { width: 100%; max-width: 32rem; height: auto; }
.vs-block-notice { color: #6b4e00; background: #fff7e0; padding: .4em .6em; border-radius: 4px; }
"""
