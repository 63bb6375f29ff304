"""The web app as a learner meets it, in Debian's Chromium: the derive race, phones, the steps
view, warnings, keyboard playback, input help, gallery management, 404 and offline docs.

Screenshots are kept in $VERISTEP_ARTIFACTS (CI uploads it), else in the git-ignored
``artifacts/web`` folder of the checkout.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from veristep.web.app import create_app
from veristep.web.testing import live_server

pytestmark = pytest.mark.browser

QF = ("a x^2 + b x + c = 0", "x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}")
MOUNTED = "() => { const m = document.querySelector('.vs-mount'); return m && m.veristep; }"
# Every leaf glyph of the stage lies inside the stage's visible box (nothing cut off).
ALL_VISIBLE = """() => { const w = document.querySelector('.vs-stage-wrap').getBoundingClientRect();
  return [...document.querySelectorAll('.vs-stage [data-n]')]
    .filter(e => !e.querySelector('[data-n]'))
    .every(e => { const r = e.getBoundingClientRect();
                  return r.left >= w.left - 1 && r.right <= w.right + 1; }); }"""


# WCAG contrast of each element's text against the first opaque background behind it.
CONTRAST = """sels => sels.flatMap(sel => [...document.querySelectorAll(sel)].map(e => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let n = e, bg = null;
  while (n && !bg) { const c = getComputedStyle(n).backgroundColor, v = rgb(c);
    if (v.length < 4 || v[3] > 0.9) bg = v.slice(0, 3); n = n.parentElement; }
  bg = bg || [255, 255, 255];
  const a = lum(rgb(getComputedStyle(e).color)), b = lum(bg);
  return [sel, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]; }))"""


@pytest.fixture(scope="module")
def artifacts() -> Path:
    root = os.environ.get("VERISTEP_ARTIFACTS")
    path = Path(root) if root else Path(__file__).resolve().parents[2] / "artifacts" / "web"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from veristep.core.settings import Settings

    tmp = tmp_path_factory.mktemp("ux")
    app = create_app(Settings().replace(data_dir=tmp), tmp / "ux.sqlite3")
    with live_server(app) as url:
        yield url


def _page(chromium, base: str, width: int = 1280, **options):
    """A page that may reach only the app; every other request is refused and recorded."""
    context = chromium.new_context(viewport={"width": width, "height": 900}, **options)
    blocked: list[str] = []

    def gate(route):
        if route.request.url.startswith(base):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", gate)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    return context, page, blocked, problems


def _saved_quadratic(page, server: str, wait_s: float = 0.0) -> str | None:
    deadline = time.monotonic() + wait_s
    while True:
        rows = page.request.get(f"{server}/api/derivations").json()["derivations"]
        found = [r["id"] for r in rows if r["title"].startswith("a x^2")]
        if found or time.monotonic() >= deadline:
            return found[0] if found else None
        time.sleep(0.5)


@pytest.fixture(scope="module")
def quadratic(chromium, server) -> str:
    """The id of the saved quadratic-formula derivation (derived here unless already saved)."""
    context, page, _, _ = _page(chromium, server)
    ident = _saved_quadratic(page, server)
    if ident is None:
        made = page.request.post(
            f"{server}/api/derive", data={"start": QF[0], "target": QF[1]}, timeout=300_000
        ).json()
        ident = made["id"]
    context.close()
    assert ident
    return ident


def test_a_newer_derive_wins_over_a_slow_one_and_the_button_disables(chromium, server):
    context, page, blocked, problems = _page(chromium, server)
    page.goto(server + "/")
    page.fill("#start", QF[0])
    page.fill("#target", QF[1])
    page.click("#derive-submit")  # the slow one
    assert page.is_disabled("#derive-submit") and page.is_visible("#derive-cancel")
    page.wait_for_selector("#progress-steps li", timeout=120_000)  # it is under way
    # Change the inputs and derive again while the first is still running.
    page.fill("#start", "2x + 3 = 9")
    page.fill("#target", "x = 3")
    page.evaluate("document.querySelector('#derive-form').requestSubmit()")
    assert page.get_attribute("body", "data-derive-token") == "2"
    page.wait_for_selector("body[data-derive=done]", timeout=120_000)
    shown = "() => document.querySelector('#result .vs-player').veristep.payload.start"
    assert page.evaluate(shown) == "2x + 3 = 9"
    assert not page.is_disabled("#derive-submit") and not page.is_visible("#derive-cancel")
    # The abandoned derive finishes on the server (it saves the quadratic): the page keeps the
    # newer answer, because the old stream was closed and its events dropped.
    assert _saved_quadratic(page, server, wait_s=240) is not None
    page.wait_for_timeout(500)
    assert page.evaluate(shown) == "2x + 3 = 9"
    assert page.get_attribute("body", "data-derive") == "done"
    assert "x = 3" in page.text_content("#progress-status") or page.locator("#result").count()

    # Cancel: the stream is closed, the button comes back. A derive of seconds (the quadratic)
    # so that it is still running when the click lands (2x + 3 = 9 can finish before it).
    page.fill("#start", QF[0])
    page.fill("#target", QF[1])
    page.click("#derive-submit")
    page.click("#derive-cancel")
    assert page.get_attribute("body", "data-derive") == "cancelled"
    assert not page.is_disabled("#derive-submit")
    assert blocked == [] and problems == []
    context.close()


def test_the_quadratic_fits_phone_and_desktop_widths(chromium, server, quadratic, artifacts):
    context, page, blocked, problems = _page(chromium, server, width=360)
    page.goto(f"{server}/d/{quadratic}")
    page.wait_for_function(MOUNTED)
    page.evaluate("document.fonts.ready")
    last = page.evaluate("document.querySelector('.vs-mount').veristep.frames.length - 1")
    for width in (360, 390, 1280, 1920):
        page.set_viewport_size({"width": width, "height": 900})
        for k in range(last + 1):  # every state, the two roots of the last one included
            page.evaluate(f"document.querySelector('.vs-mount').veristep.show({k})")
            assert page.evaluate(ALL_VISIBLE), f"state {k} is cut off at {width} px"
        # The page itself never scrolls sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.evaluate("window.scrollTo(0, 0)")  # the previous width's steps shot scrolled
        page.screenshot(path=str(artifacts / f"quadratic-{width}.png"), full_page=width > 1000)
        page.locator(".vs-steps-view").screenshot(path=str(artifacts / f"steps-view-{width}.png"))
    assert blocked == [] and problems == []
    context.close()


def test_steps_view_warnings_and_legend_for_a_wrong_step(chromium, server, artifacts):
    context, page, blocked, problems = _page(chromium, server, width=390)
    chain = {"states": ["2x + 3 = 9", "2x = 6", "x = 4"], "target": "x = 3", "save": True}
    made = page.request.post(f"{server}/api/check", data=chain).json()
    assert [s["tier"] for s in made["derivation"]["steps"]] == ["grounded", "refuted"]
    page.goto(server + made["url"])
    page.wait_for_function(MOUNTED)
    page.evaluate("document.fonts.ready")
    # Red, in words, with the witness; and the unreached target in amber.
    warn = page.locator(".vs-warn[data-kind=refuted]")
    assert warn.count() == 1 and "Step 2 is wrong" in warn.inner_text()
    assert "4" in warn.inner_text()
    colour = page.evaluate(
        "getComputedStyle(document.querySelector('.vs-warn[data-kind=refuted]')).color"
    )
    assert colour == "rgb(110, 23, 18)"
    assert page.locator(".vs-warn[data-kind=unreached]").count() == 1
    # Badges say in words what they mean; the legend explains every icon.
    words = page.eval_on_selector_all(".vs-badge-text", "bs => bs.map(b => b.innerText.trim())")
    assert words == ["1 proved", "2 wrong"]
    page.click(".vs-legend summary")
    legend = page.inner_text(".vs-legend")
    for name in ("Grounded", "Verified", "Plausible", "Unchecked", "Refuted"):
        assert name in legend
    # Every state on one page; a click on a step seeks the animation there.
    items = page.locator(".vs-step-item")
    assert items.count() == 3
    assert "Checker:" in items.nth(2).inner_text() and "Witness: 4" in items.nth(2).inner_text()
    assert items.nth(2).locator(".vs-changed").count() >= 1  # the inserted 4 is highlighted
    items.nth(2).click()
    assert page.get_attribute(".vs-mount", "data-frame") == "2"
    assert items.nth(2).get_attribute("aria-current") == "step"
    # The witness on a plot: both states' residuals, the point where one holds and one not.
    plot = page.locator(".vs-plot[data-kind=witness]")
    assert plot.count() == 1 and plot.get_attribute("data-witness") == "4"
    assert plot.locator("canvas").count() >= 1 and "x = 4" in plot.inner_text()
    page.evaluate("document.querySelector('.vs-mount').veristep.show(0)")
    start_plot = page.locator(".vs-plot[data-kind=states]")  # it follows the shown state
    assert start_plot.get_attribute("data-marks") == "[3]"  # 2x + 3 = 9 meets at x = 3
    plot.screenshot(path=str(artifacts / "witness-plot-390.png"))
    # Text contrast passes WCAG AA (4.5:1) for the warnings, reasons, badges and legend.
    ratios = page.evaluate(CONTRAST, [
        ".vs-warn[data-kind=refuted]", ".vs-warn[data-kind=unreached]", ".vs-verdict",
        ".vs-badge-text", ".vs-caption", ".vs-legend dd", ".vs-step-reason", ".vs-step-go",
        ".vs-tier-tag", ".vs-btn"])  # fmt: skip
    assert ratios and all(r >= 4.5 for _, r in ratios), [x for x in ratios if x[1] < 4.5]
    # Readable labels, not LaTeX, for the formula and the title.
    assert "\\" not in page.get_attribute(".vs-stage", "aria-label")
    assert "\\" not in page.title()
    page.screenshot(path=str(artifacts / "refuted-390.png"), full_page=True)
    page.emulate_media(media="print")
    assert not page.is_visible(".vs-controls") and page.is_visible(".vs-steps")
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(artifacts / "refuted-1280.png"), full_page=True)
    assert blocked == [] and problems == []
    context.close()


def test_keyboard_playback_and_a_scrubber_that_moves_whole_steps(chromium, server, quadratic):
    context, page, blocked, problems = _page(chromium, server)
    page.goto(f"{server}/d/{quadratic}")
    page.wait_for_function(MOUNTED)
    page.evaluate("window.P = document.querySelector('.vs-mount').veristep; P.speed = 8")
    settled = "k => P.root.dataset.frame === String(k) && !P.transition"
    page.locator("h1").click()  # focus on the page, not in a field
    page.keyboard.press("ArrowRight")
    page.wait_for_function(settled, arg=1)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(settled, arg=2)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(settled, arg=1)
    page.keyboard.press(" ")
    assert page.evaluate("P.playing") is True
    page.keyboard.press(" ")
    assert page.evaluate("P.playing") is False
    # The scrubber's arrow keys move one whole state, never a hundredth of one.
    page.evaluate("P.show(3)")
    page.focus(".vs-scrub")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("[P.k, P.transition, document.querySelector('.vs-scrub').value]") == [
        4,
        None,
        "4",
    ]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("P.k") == 3
    # Let go mid-way: it settles on the nearer state instead of freezing half a frame.
    page.evaluate(
        "() => { const s = document.querySelector('.vs-scrub'); s.value = '2.7';"
        " s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change')); }"
    )
    assert page.evaluate("[P.k, P.transition]") == [3, None]
    # Speed control.
    page.select_option(".vs-speed", "2")
    assert page.evaluate("P.speed") == 2
    assert blocked == [] and problems == []
    context.close()


def test_input_preview_examples_and_errors_next_to_the_field(chromium, server):
    context, page, blocked, problems = _page(chromium, server)
    page.goto(server + "/")
    page.fill("#start", "\\frac{1}{2} x = 3")
    # The preview is what the server read back, drawn after a pause in typing (the field starts
    # filled, so wait for the new reading, not for any typeset box).
    page.wait_for_function(
        "(document.querySelector('#start-preview').dataset.read || '').includes('frac')",
        timeout=30_000,
    )
    assert page.locator("#start-preview .katex").count() == 1
    page.click("button.example:has-text('Linear equation')")
    assert page.input_value("#start") == "2x + 3 = 9" and page.input_value("#target") == "x = 3"
    # Too long: said so, next to the field, in red, before anything is sent.
    page.evaluate("document.querySelector('#start').value = 'x'.repeat(44000)")
    page.click("#derive-submit")
    error = page.locator("#start-error")
    assert error.is_visible() and "44,000 characters" in error.inner_text()
    assert "non-empty" not in error.inner_text()
    assert page.get_attribute("#start", "aria-invalid") == "true"
    # A located error from the server keeps its caret line under the fragment.
    page.fill("#start", "x + = 2")
    page.click("#derive-submit")
    page.wait_for_selector("body[data-derive=error]", timeout=60_000)
    text = page.inner_text("#start-error")
    assert "column 5" in text and "\n" in text and "^" in text.splitlines()[-1]
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#start-error')).whiteSpace")
        == "pre-wrap"
    )
    assert blocked == [] and problems == []
    context.close()


def test_gallery_rename_search_and_delete(chromium, server):
    context, page, blocked, problems = _page(chromium, server)
    # The step checker saves and animates what it graded.
    page.goto(server + "/check")
    page.fill("#states", "x + 11 = 22\nx = 11")
    page.wait_for_selector("body[data-check=done]", timeout=60_000)
    page.click("#check-save")
    page.wait_for_selector("#check-result .vs-player .vs-badge", timeout=60_000)
    first = page.get_attribute("body", "data-check-saved")
    second = page.request.post(f"{server}/api/check", data={
        "states": ["x + 12 = 24", "x = 12"], "save": True}).json()["id"]  # fmt: skip
    made = [first, second]
    page.goto(server + "/gallery")
    row = page.locator(f"#gallery li[data-id='{made[0]}']")
    row.locator("button.rename").click()
    row.locator(".rename-form input").fill("My linear equation " + "x" * 400)
    row.locator(".rename-form button[type=submit]").click()
    page.wait_for_function(
        f"() => !document.querySelector(\"#gallery li[data-id='{made[0]}'] .rename-form\")"
    )
    title_box = row.locator("a.title").bounding_box()
    assert title_box["height"] < 60  # a long title takes two lines at most
    page.fill("#gallery-q", "My linear")
    page.click("#gallery-search button")
    page.wait_for_url("**/gallery?q=*")
    assert page.locator("#gallery > li[data-id]").count() == 1
    page.once("dialog", lambda d: d.accept())
    page.locator(f"#gallery li[data-id='{made[0]}'] button.delete").click()
    page.wait_for_function(f"() => !document.querySelector(\"li[data-id='{made[0]}']\")")
    assert page.request.get(f"{server}/api/derivations/{made[0]}").status == 404
    assert page.request.get(f"{server}/api/derivations/{made[1]}").status == 200
    assert blocked == [] and problems == []
    context.close()


def test_unknown_page_is_a_page_and_api_docs_work_offline(chromium, server):
    context, page, blocked, problems = _page(chromium, server)
    response = page.goto(server + "/d/no-such-id")
    assert response.status == 404
    assert "Not found" in page.inner_text("h1") and "{" not in page.inner_text("main")
    page.goto(server + "/api/docs")
    assert "API reference" in page.inner_text("h1")
    assert "/api/derivations/{ident}" in page.inner_text("body")
    assert page.request.get(server + "/favicon.ico").ok
    assert blocked == [] and problems == []
    context.close()


def test_chat_without_a_model_says_so_at_once_and_offers_the_offline_tool(chromium, server):
    context, page, blocked, problems = _page(chromium, server)
    page.goto(server + "/chat")
    assert "No language model is configured" in page.inner_text("#model-status")
    assert page.is_disabled("#chat-form button[type=submit]")
    page.fill("#tool-start", "2x + 3 = 9")
    page.fill("#tool-target", "x = 3")
    page.click("#tool-form button[type=submit]")
    page.wait_for_selector("body[data-tool=done]", timeout=120_000)
    tiers = page.eval_on_selector_all("#chat-result .vs-badge", "b => b.map(e => e.dataset.tier)")
    assert tiers and set(tiers) <= {"grounded", "verified"}
    assert blocked == [] and problems == []
    context.close()
