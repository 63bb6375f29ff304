"""``/api/docs``: the API reference as one plain HTML page built from the OpenAPI schema.

The stock Swagger page loads its scripts from a CDN and is blank offline; this page needs nothing
but the schema the app already has.
"""

from __future__ import annotations

import html
import json
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


def _operation(method: str, path: str, op: dict[str, Any]) -> str:
    summary = html.escape(op.get("summary") or "")
    doc = html.escape(op.get("description") or "")
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
        f"<p>{summary}</p>"
        + (f"<pre>{doc}</pre>" if doc else "")
        + (f"<ul>{params}</ul>" if params else "")
        + body
        + "</section>"
    )
