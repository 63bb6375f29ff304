"""Zoom, pan and the trace readout of a page's plot (Debian chromium, the real plot endpoint):
each new view is re-sampled by the server within its limits, and the readout gives (x, f(x))."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
SLOW = 60_000


def _bounds(page) -> tuple[float, float]:
    svg = page.locator("figure.vs-zoomable svg.vs-plot")
    return float(svg.get_attribute("data-from")), float(svg.get_attribute("data-to"))


def _wait_for(page, low: float, high: float) -> None:
    page.wait_for_function(
        "([a, b]) => { const s = document.querySelector('figure.vs-zoomable svg.vs-plot');"
        " return Number(s.dataset.from) === a && Number(s.dataset.to) === b; }",
        arg=[low, high], timeout=SLOW,
    )  # fmt: skip


def test_a_page_plot_zooms_pans_and_reads_out_the_point_under_the_pointer(chromium, server) -> None:
    import httpx

    page_body = {"title": "Parabola", "blocks": [
        {"kind": "plot", "data": {"expr": "x^2 - 4", "from": -4, "to": 4}}]}  # fmt: skip
    saved = httpx.post(server + "/api/pages", json=page_body, timeout=120)
    assert saved.status_code == 200, saved.text
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + f"/pages/{saved.json()['id']}")
    page.wait_for_selector(".vs-plot-tools", timeout=SLOW)
    assert _bounds(page) == (-4.0, 4.0)

    page.get_by_role("button", name="zoom in").click()
    _wait_for(page, -2.0, 2.0)
    page.get_by_role("button", name="pan right").click()
    _wait_for(page, -1.0, 3.0)
    # The keyboard: focus the figure, "-" zooms out about the centre, the left arrow pans.
    page.locator("figure.vs-zoomable").focus()
    page.keyboard.press("-")
    _wait_for(page, -3.0, 5.0)
    page.keyboard.press("ArrowLeft")
    _wait_for(page, -5.0, 3.0)
    # Up and down move a trace cursor; the readout is the sampled value there (f(-1) = -3).
    page.get_by_role("button", name="reset the view").click()
    _wait_for(page, -4.0, 4.0)
    page.locator("figure.vs-zoomable").focus()
    for _ in range(20):  # from the middle (x = 0), 20 samples of 8/160 to the left: x = -1
        page.keyboard.press("ArrowDown")
    assert page.inner_text(".vs-plot-readout") == "x = \u22121, y = \u22123"
    # The pointer: hovering over the plot's middle reads x = 0, y = -4.
    svg = page.locator("figure.vs-zoomable svg.vs-plot")
    box = svg.bounding_box()
    scale = box["width"] / 480
    left, right = box["x"] + 48 * scale, box["x"] + 468 * scale
    page.mouse.move((left + right) / 2, box["y"] + box["height"] / 2)
    assert page.inner_text(".vs-plot-readout") == "x = 0, y = \u22124"
    context.close()
    assert errors == []


def test_the_plot_endpoint_refuses_a_view_beyond_its_limits(client) -> None:
    ok = client.post("/api/pages/plot", json={"expr": "x^2", "from": -1, "to": 1})
    assert ok.status_code == 200 and ok.json()["ok"]
    assert 'data-values="[' in ok.json()["svg"]
    # The sample count is fixed by the server; bounds past 10^6 or not numbers are refused.
    for body in ({"expr": "x^2", "from": -1e9, "to": 1}, {"expr": "x^2", "from": 0, "to": "inf"},
                 {"expr": "x^2", "from": 0, "to": 1, "samples": 10**9}):  # fmt: skip
        assert client.post("/api/pages/plot", json=body).status_code == 422, body


def test_an_exported_pages_plot_zooms_pans_and_traces_with_no_server(chromium, tmp_path) -> None:
    """The export samples the function itself (a whitelisted tree, plain floating point) and
    draws the server's drawing: the same interval gives the server's values."""
    from veristep.web.testing import fetched_from_network, offline_context
    from veristep.workspace.pages import Block, Page, export_html
    from veristep.workspace.plots import plot_svg
    from veristep.workspace.session import Workspace

    ws = Workspace("2x + 3 = 7")
    ws.apply("subtract 3 from both sides")
    page_data = Page("Offline", (
        Block("plot", {"expr": "x^2 - 4", "from": -4, "to": 4}),
        Block("plot", {"expr": r"\arcsin x", "from": -1, "to": 1}),  # no tree: drawn, fixed
        Block("derivation", {"derivation": ws.derivation().to_json()}),
    ))  # fmt: skip
    path = tmp_path / "page.html"
    path.write_text(export_html(page_data, plot=plot_svg), encoding="utf-8")
    context, asked = offline_context(chromium, viewport={"width": 390, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_selector(".vs-plot-tools")
    plot = page.locator("figure.vs-zoomable")
    served = [v for v in _values(page)]
    plot.get_by_role("button", name="zoom in").click()
    _wait_for(page, -2.0, 2.0)
    plot.get_by_role("button", name="pan right").click()
    _wait_for(page, -1.0, 3.0)
    page.locator("figure.vs-zoomable").focus()
    page.keyboard.press("-")
    _wait_for(page, -3.0, 5.0)
    plot.get_by_role("button", name="reset the view").click()
    _wait_for(page, -4.0, 4.0)
    local = _values(page)
    assert len(local) == len(served) == 161
    assert all(abs(a - b) <= 1e-5 * (1 + abs(b)) for a, b in zip(local, served, strict=True))
    page.locator("figure.vs-zoomable").focus()
    for _ in range(20):
        page.keyboard.press("ArrowDown")
    assert page.inner_text(".vs-plot-readout") == "x = \u22121, y = \u22123"
    assert page.locator("figure.vs-zoomable svg.vs-plot polyline").count() == 1
    # A derivation's plot draws (uPlot is inlined too) and zooms with the same controls.
    states = page.locator(".vs-block-derivation .vs-plot[data-kind=states]")
    assert states.locator("canvas").count() >= 1
    before = states.get_attribute("data-view")
    states.get_by_role("button", name="zoom in").click()
    assert states.get_attribute("data-view") != before
    # A function the browser cannot sample keeps the server's drawing, with no controls.
    fixed = page.locator("figure.vs-plot-fixed")
    assert fixed.locator("svg.vs-plot polyline").count() >= 1
    assert fixed.locator(".vs-plot-tools").count() == 0
    context.close()
    assert fetched_from_network(asked) == []
    assert errors == []


def _values(page) -> list[float]:
    import json

    svg = page.locator("figure.vs-zoomable svg.vs-plot")
    return json.loads(svg.get_attribute("data-values"))
