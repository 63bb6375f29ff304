"""``/api/docs``: the API reference as one plain HTML page built from the OpenAPI schema.

The stock Swagger page loads its scripts from a CDN and is blank offline; this page needs nothing
but the schema the app already has.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

_METHODS = ("get", "post", "put", "patch", "delete")


def docs_html(schema: dict[str, Any]) -> str:
    """Every route with its summary, parameters and request body schema."""
    sections = []
    for path, ops in sorted((schema.get("paths") or {}).items()):
        for method in _METHODS:
            op = ops.get(method)
            if op is None:
                continue
            sections.append(_operation(method, path, op))
    info = schema.get("info") or {}
    components = json.dumps(
        (schema.get("components") or {}).get("schemas") or {}, indent=1, ensure_ascii=False
    )
    body = "\n".join(sections)
    title = html.escape(f"{info.get('title', 'API')} {info.get('version', '')}".strip())
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
body {{ font-family: system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem;
       color: #1d2330; }}
section {{ border: 1px solid #d9dee7; border-radius: 8px; padding: .6rem 1rem; margin: .8rem 0; }}
.method {{ font-weight: 700; text-transform: uppercase; color: #1f4fbf; margin-right: .5rem; }}
code, pre {{ font-family: ui-monospace, monospace; }}
pre {{ background: #f3f5f9; padding: .5rem; overflow-x: auto; }}
</style></head><body>
<h1>{title}: API reference</h1>
<p>The machine-readable schema is at <a href="/api/openapi.json">/api/openapi.json</a>.</p>
{body}
<details><summary>Schemas</summary><pre>{html.escape(components)}</pre></details>
</body></html>"""


_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|obj):`~?([^`]+)`")
_LITERAL = re.compile(r"``(.+?)``")


def prose(docstring: str) -> str:
    """A route's docstring as paragraphs, with reST's ``literals`` and :func:`roles` as code
    (the page shows them as a reader expects, not as markup).

    >>> prose("See :func:`~veristep.grounding.check`.\\n\\nReturns ``tier``.")
    '<p>See <code>check</code>.</p><p>Returns <code>tier</code>.</p>'
    """
    out = []
    for para in re.split(r"\n\s*\n", docstring.strip()):
        text = html.escape(" ".join(para.split()))
        text = _ROLE.sub(_role, text)
        text = _LITERAL.sub(lambda m: f"<code>{m.group(1)}</code>", text)
        if text:
            out.append(f"<p>{text}</p>")
    return "".join(out)


def _role(match: re.Match[str]) -> str:
    name = match.group(1)
    short = "~" in match.group(0)  # :func:`~a.b.c` shows only c, as Sphinx does
    return f"<code>{name.rsplit('.', 1)[-1] if short else name}</code>"


def _operation(method: str, path: str, op: dict[str, Any]) -> str:
    summary = html.escape(op.get("summary") or "")
    doc = prose(op.get("description") or "")
    params = "".join(
        f"<li><code>{html.escape(p.get('name', ''))}</code> ({html.escape(p.get('in', ''))}"
        f"{', required' if p.get('required') else ''})</li>"
        for p in op.get("parameters") or []
    )
    request = (op.get("requestBody") or {}).get("content") or {}
    body_schema = next(iter(request.values()), {}).get("schema") if request else None
    body = (
        f"<p>Body: <code>{html.escape(json.dumps(body_schema, ensure_ascii=False))}</code></p>"
        if body_schema
        else ""
    )
    return (
        f'<section><h2><span class="method">{method}</span><code>{html.escape(path)}</code></h2>'
        f"<p>{summary}</p>" + doc + (f"<ul>{params}</ul>" if params else "") + body + "</section>"
    )
