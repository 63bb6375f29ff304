"""The web app in headless Chromium: derive the quadratic formula and watch it animate."""

from __future__ import annotations

import pytest

from veristep.web.app import create_app
from veristep.web.testing import live_server

pytestmark = pytest.mark.browser

GLYPHS = """() => [...document.querySelectorAll('.vs-stage [data-n]')]
  .filter(e => !e.querySelector('[data-n]'))
  .map(e => { const r = e.getBoundingClientRect();
              return [e.dataset.n, e.textContent, Math.round(r.x), Math.round(r.y)]; })"""
LEAF_BOX = """id => { const e = [...document.querySelectorAll('.vs-stage [data-n="' + id + '"]')]
  .find(x => !x.querySelector('[data-n]')); const r = e.getBoundingClientRect();
  return [r.x, r.y, r.width, r.height]; }"""
LEAF_OPACITY = """id => { const e =
  [...document.querySelectorAll('.vs-stage [data-n="' + id + '"]')]
  .find(x => !x.querySelector('[data-n]')); return +getComputedStyle(e).opacity; }"""

# Caption of each step as shown (rendered text, and whether KaTeX typeset something in it).
# Selecting by KaTeX's own class is fine here: it only tells that KaTeX ran.
CAPTIONS = """n => { const out = [...Array(n).keys()].map(i => { P.show(i + 1);
  const c = document.querySelector('.vs-caption');
  return {text: c.innerText, katex: !!c.querySelector('.katex')}; }); P.show(0); return out; }"""
TEXTS = "ls => ls.map(l => l.innerText)"


def _page(chromium, base: str):
    """A page that may reach only the app; every other request is refused and recorded."""
    context = chromium.new_context(viewport={"width": 1200, "height": 800})
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
    page.on(
        "console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    return context, page, blocked, problems


def test_derive_the_quadratic_formula_and_watch_it(chromium, server, artifacts):
    context, page, blocked, problems = _page(chromium, server)
    page.goto(server + "/")
    page.click("#derive-form button[type=submit]")
    page.wait_for_selector("body[data-derive=done]", timeout=120_000)
    assert page.locator("#progress-steps > li").count() >= 1  # streamed attempt(s)
    ident = page.get_attribute("#saved-link", "href").rsplit("/", 1)[-1]
    saved = page.request.get(f"{server}/api/derivations/{ident}").json()
    # One streamed line per judged step; the kept attempt's lines carry the final tiers.
    best = saved["derivation"]["proposer"]["best_attempt"]
    streamed = page.eval_on_selector_all(
        f'#progress-steps > li[data-attempt="{best}"] li[data-step]',
        "ls => ls.map(l => [+l.dataset.step, l.dataset.tier])",
    )
    assert streamed == [[s["index"], s["tier"]] for s in saved["derivation"]["steps"]]
    streamed_text = page.eval_on_selector_all("#progress-steps li[data-step]", TEXTS)
    streamed_katex = page.locator("#progress-steps li[data-step] .katex").count()
    bar = page.eval_on_selector("#progress-bar", "b => [b.value, b.max]")
    assert bar[0] == bar[1] >= 1  # the last attempt was judged to its end

    page.goto(f"{server}/d/{ident}")
    page.wait_for_function(
        "() => document.querySelector('.vs-mount') && document.querySelector('.vs-mount').veristep"
    )
    page.evaluate("document.fonts.ready")
    page.evaluate("window.P = document.querySelector('.vs-mount').veristep; P.pause(); P.show(0)")
    assert page.evaluate("document.querySelectorAll('.vs-stage [data-n]').length") > 10

    # Operations carry $…$ math: every caption is typeset by KaTeX, no raw LaTeX shows.
    captions = page.evaluate(CAPTIONS, len(saved["payload"]["steps"]))
    with_math = [c for c in captions if c["katex"]]
    assert any("\\frac" in s["operation"] for s in saved["derivation"]["steps"])
    assert with_math and all("\\frac" not in c["text"] and "$" not in c["text"] for c in captions)
    # The streamed step list on the derive page rendered the same prose.
    assert streamed_text and all("\\frac" not in t for t in streamed_text)
    assert streamed_katex > 0

    # Badges carry exactly the tiers of the JSON.
    tiers = page.eval_on_selector_all(".vs-badge", "bs => bs.map(b => b.dataset.tier)")
    assert tiers == [s["tier"] for s in saved["derivation"]["steps"]]

    # Step 1 (subtract c): c glides to the other side, and it is the same glyph (same data-n).
    step = saved["payload"]["steps"][0]
    c_id = next(
        i
        for i in step["moves"]
        if page.evaluate(f"document.querySelector('.vs-stage [data-n=\"{i}\"]').textContent") == "c"
    )
    before = page.evaluate(LEAF_BOX, c_id)
    detail = page.evaluate("P.prepare(0), P.last")
    assert str(c_id) in detail["moved"]
    assert page.evaluate(LEAF_BOX, c_id)[:2] == pytest.approx(before[:2], abs=1.5)
    page.evaluate("P.seek(0.5)")
    page.screenshot(path=str(artifacts / "derive-mid-transition.png"))
    page.evaluate("P.seek(0.999)")
    after = page.evaluate(LEAF_BOX, c_id)
    assert abs(after[0] - before[0]) > 20

    # Deleted glyphs fade out; inserted glyphs are invisible until the end, then appear.
    page.evaluate("P.prepare(0); P.seek(0.01)")
    assert (
        min(page.eval_on_selector_all(".vs-ghost", "g => g.map(e => +getComputedStyle(e).opacity)"))
        > 0.8
    )
    assert page.evaluate(LEAF_OPACITY, detail["inserted"][0]) < 0.05
    page.evaluate("P.seek(0.5)")
    assert (
        max(page.eval_on_selector_all(".vs-ghost", "g => g.map(e => +getComputedStyle(e).opacity)"))
        < 0.05
    )
    page.evaluate("P.seek(0.999)")
    assert page.evaluate(LEAF_OPACITY, detail["inserted"][0]) > 0.95

    # Play the whole derivation through and keep a picture of the end.
    page.evaluate("P.show(0); P.speed = 6; P.play()")
    last = len(saved["payload"]["frames"]) - 1
    settled = (
        f"() => document.querySelector('.vs-mount').dataset.frame === '{last}' && !P.transition"
    )
    page.wait_for_function(settled, timeout=60_000)
    shot = artifacts / "derive-quadratic-formula.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert blocked == [] and problems == []
    context.close()


def test_export_renders_the_same_with_the_network_disabled(
    chromium, server, artifacts, tmp_path_factory
):
    context, page, _, problems = _page(chromium, server)
    made = page.request.post(f"{server}/api/check", data={
        "states": ["2x + 3 = 9", "2x = 6", "x = 3"], "save": True}).json()  # fmt: skip
    page.goto(server + made["url"])
    page.wait_for_function(
        "() => document.querySelector('.vs-mount') && document.querySelector('.vs-mount').veristep"
    )
    page.evaluate("document.fonts.ready")
    online = page.evaluate(GLYPHS)
    export = page.request.get(f"{server}/api/derivations/{made['id']}/export").text()
    context.close()

    path = tmp_path_factory.mktemp("export") / "export.html"
    path.write_text(export, encoding="utf-8")
    offline = chromium.new_context(viewport={"width": 1200, "height": 800})
    offline.set_offline(True)
    attempts: list[str] = []
    offline.route(
        "**/*",
        lambda r: (
            attempts.append(r.request.url),
            r.continue_() if r.request.url.startswith(("file:", "data:")) else r.abort(),
        ),
    )
    page2 = offline.new_page()
    page2.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page2.goto(path.as_uri())
    page2.wait_for_function(
        "() => document.querySelector('.vs-mount') && document.querySelector('.vs-mount').veristep"
    )
    page2.evaluate("document.fonts.ready")
    exported = page2.evaluate(GLYPHS)
    # The export carries the steps view and the plot, drawn with the inlined uPlot.
    assert page2.locator(".vs-step-item").count() == 3
    assert page2.locator(".vs-plot[data-kind=states] canvas").count() >= 1
    assert page2.get_attribute(".vs-plot[data-kind=states]", "data-marks") == "[3]"  # the start
    page2.screenshot(path=str(artifacts / "export-offline.png"))
    offline.close()
    assert [g[:2] for g in exported] == [g[:2] for g in online]
    # Same glyphs, same sizes, same relative placement (the saved page has a header above).
    dx, dy = exported[0][2] - online[0][2], exported[0][3] - online[0][3]
    assert all(abs(e[2] - o[2] - dx) <= 1 and abs(e[3] - o[3] - dy) <= 1
               for e, o in zip(exported, online, strict=True))  # fmt: skip
    assert [u for u in attempts if not u.startswith(("file:", "data:"))] == []
    assert problems == []


def test_step_checker_grades_each_line(chromium, server):
    context, page, blocked, problems = _page(chromium, server)
    page.goto(server + "/check")
    # No button press: a pause in typing grades the lines written so far.
    page.fill("textarea[name=states]", "2x + 3 = 9\n2x = 6\nx = 4")
    page.wait_for_selector("body[data-check=done]", timeout=60_000)
    grades = page.eval_on_selector_all("#check-results > li", "ls => ls.map(l => l.dataset.tier)")
    assert grades == ["grounded", "refuted"]
    steps = page.eval_on_selector_all("#check-results > li", "ls => ls.map(l => +l.dataset.step)")
    assert steps == [1, 2]
    bar = page.eval_on_selector("#check-bar", "b => [b.hidden, b.value, b.max]")
    assert bar == [False, 2, 2]
    # The learner view by default: plain words; the teacher's tier one click away.
    assert "Step 2 is wrong" in page.text_content("#check-summary")
    page.check("input[name=view][value=teacher]")
    assert "refuted" in page.text_content("#check-summary")
    assert blocked == [] and problems == []
    context.close()


def test_chat_page_with_dummy_lm_shows_the_verified_animation(chromium, tmp_path_factory):
    from dspy.utils.dummies import DummyLM

    from veristep.core.settings import Settings

    args = {"start_latex": "2x + 3 = 9", "target_latex": "x = 3"}
    lm = DummyLM([
        {"next_thought": "Use the tool.", "next_tool_name": "derive_proof_animation",
         "next_tool_args": args},
        {"next_thought": "Done.", "next_tool_name": "finish", "next_tool_args": {}},
        {"reasoning": "Graded.", "answer": "Solved: x = 3."},
    ])  # fmt: skip
    tmp = tmp_path_factory.mktemp("chat")
    app = create_app(Settings().replace(data_dir=tmp), tmp / "chat.sqlite3", lm=lm)
    with live_server(app) as base:
        context, page, blocked, problems = _page(chromium, base)
        page.goto(base + "/chat")
        page.fill("input[name=message]", "solve 2x + 3 = 9")
        page.click("#chat-form button[type=submit]")
        page.wait_for_selector("#chat-result .vs-badge", timeout=60_000)
        log = page.text_content("#chat-log")
        assert "Solved: x = 3." in log and "verifier: 2/2 steps verified" in log
        tiers = page.eval_on_selector_all(
            "#chat-result .vs-badge", "b => b.map(e => e.dataset.tier)"
        )
        assert tiers == ["grounded", "grounded"]
        assert blocked == [] and problems == []
        context.close()
