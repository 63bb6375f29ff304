"""Every part of the site, reached from the home page by its links alone, at phone and desktop
widths, each checked by axe-core (the script ships in a Python package; nothing is fetched).

A screenshot of each page goes to $VERISTEP_ARTIFACTS when set, else pytest's temporary folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from veristep.web.app import create_app
from veristep.web.testing import live_server

pytestmark = pytest.mark.browser
SLOW = 120_000
PARTS = ("Derive", "Step checker", "Workspace", "Practice", "Pages", "Gallery", "Chat", "Review",
         "Prove", "Laws")  # fmt: skip
SERIOUS = ("serious", "critical")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from veristep.core.settings import Settings
    from veristep.workspace.session import Workspace

    tmp = tmp_path_factory.mktemp("site")
    app = create_app(Settings().replace(data_dir=tmp), tmp / "app.sqlite3")
    with live_server(app) as url:
        import httpx

        ws = Workspace("2x + 3 = 7")
        ws.apply("subtract 3 from both sides")
        body = {"derivation": ws.derivation().to_json(), "title": "A linear equation"}
        assert httpx.post(url + "/api/derivations", json=body, timeout=120).status_code == 200
        page = {"title": "Roots", "blocks": [
            {"kind": "markdown", "data": {"text": "# Roots\n\nSolve $x^2 = 4$."}},
            {"kind": "plot", "data": {"expr": "x^2 - 4", "from": -3, "to": 3}}]}  # fmt: skip
        assert httpx.post(url + "/api/pages", json=page, timeout=120).status_code == 200
        yield url


def _axe_script() -> str:
    import axe_playwright_python

    return Path(axe_playwright_python.__file__).with_name("axe.min.js").read_text("utf-8")


def _serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=_axe_script())
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {node['target']}"
        for v in result["violations"]
        if v["impact"] in SERIOUS
        for node in v["nodes"][:3]
    ]


@pytest.mark.parametrize("width", [390, 1280])
def test_every_part_is_reached_by_its_link_with_no_serious_accessibility_violation(
    chromium, server, artifacts, width
) -> None:
    context = chromium.new_context(viewport={"width": width, "height": 900})
    outside: list[str] = []
    errors: list[str] = []

    def gate(route):
        if route.request.url.startswith(server):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", gate)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    found: dict[str, list[str]] = {}

    def visit(name: str) -> None:
        page.wait_for_load_state("networkidle")
        assert page.locator("main#main h1").count() >= 1, name
        page.screenshot(path=str(artifacts / f"site-{name.lower().replace(' ', '-')}-{width}.png"),
                        full_page=True)  # fmt: skip
        found[name] = _serious(page)

    for name in PARTS:
        nav = page.get_by_role("navigation", name="pages")
        nav.get_by_role("link", name=name, exact=True).click()
        visit(name)
        assert (
            nav.get_by_role("link", name=name, exact=True).get_attribute("aria-current") == "page"
        ), name
    # What the parts lead to: a saved derivation from the gallery, a page and its editor.
    page.get_by_role("navigation", name="pages").get_by_role("link", name="Gallery").click()
    page.get_by_role("link", name="A linear equation", exact=True).click()
    visit("derivation")
    page.get_by_role("navigation", name="pages").get_by_role("link", name="Pages").click()
    page.get_by_role("link", name="Roots", exact=True).click()
    visit("page")
    page.get_by_role("link", name="edit").click()
    visit("page editor")
    context.close()
    assert outside == [] and errors == []
    assert {name: v for name, v in found.items() if v} == {}


def test_a_derive_brings_its_answer_into_view_on_a_phone(chromium, server) -> None:
    context = chromium.new_context(viewport={"width": 390, "height": 700})
    page = context.new_page()
    page.goto(server + "/")
    page.fill("#start", "2x + 3 = 9")
    page.fill("#target", "")
    page.click("#derive-submit")
    page.wait_for_selector("#derive-answer:not([hidden])", timeout=SLOW)
    # The smooth scroll settles with the answer's top in view (within a pixel: sub-pixel layout).
    page.wait_for_function(
        "h => { const t = document.querySelector('#derive-answer').getBoundingClientRect().top;"
        " return t >= -2 && t < h; }",
        arg=page.viewport_size["height"],
        timeout=10_000,
    )
    assert "x=3" in page.inner_text("#derive-answer").replace("\n", "").replace(" ", "")
    context.close()


def test_the_derive_pages_plot_of_a_system_is_two_curves_that_zoom(chromium, server) -> None:
    """On the site itself (scripts served, not inlined): a derived system's plot and its
    controls, the same as a page's."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.fill("#start", r"\begin{cases} x + y = 3 \\ x - y = 1 \end{cases}")
    page.fill("#target", "")
    page.click("#derive-submit")
    page.wait_for_selector("#derive-answer:not([hidden])", timeout=SLOW)
    plot = page.locator(".vs-plot[data-kind=states]")
    plot.locator("svg.vs-system").wait_for(timeout=SLOW)
    assert plot.get_attribute("data-meets") == "[[2,1]]"
    assert plot.locator("path[data-curve]").count() == 2
    before = plot.get_attribute("data-view")
    plot.get_by_role("button", name="zoom in").click()
    low, high = (float(v) for v in before.split())
    assert plot.get_attribute("data-view") == f"{low / 2:g} {high / 2:g}"
    assert plot.get_attribute("data-meets") == "[[2,1]]"  # still in view, still exact
    plot.focus()
    page.keyboard.press("ArrowUp")  # the readout: where each curve crosses x
    assert ": first equation y = " in plot.locator(".vs-plot-readout").inner_text()
    assert _serious(page) == []
    # A one-unknown equation's plot (uPlot) with its controls passes too.
    page.fill("#start", "2x + 3 = 9")
    page.click("#derive-submit")
    page.locator(".vs-plot[data-kind=states] canvas").first.wait_for(timeout=SLOW)
    assert page.locator(".vs-plot[data-kind=states] .vs-plot-tools").is_visible()
    assert _serious(page) == []
    context.close()
    assert errors == []
