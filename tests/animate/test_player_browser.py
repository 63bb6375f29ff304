"""The player in headless Chromium, from the self-contained export with the network cut off."""

from __future__ import annotations

import pytest

from veristep.animate import export_html
from veristep.web.testing import fetched_from_network, offline_context

pytestmark = pytest.mark.browser

BOX = """id => { const e = document.querySelector('.vs-stage [data-n="' + id + '"]');
  const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }"""

# The inserted glyph itself: the innermost element carrying the id (a container with the same id
# may also hold moved glyphs, and is not what fades in).
INSERTED_OPACITY = """id => { const leaf =
  [...document.querySelectorAll('.vs-stage [data-n="' + id + '"]')]
  .find(e => !e.querySelector('[data-n]')); return +getComputedStyle(leaf).opacity; }"""


@pytest.fixture(scope="module")
def offline_page(chromium, tmp_path_factory, make_derivation):
    """The exported file opened with every non-file request refused and the context offline."""
    path = tmp_path_factory.mktemp("export") / "qf.html"
    path.write_text(export_html(make_derivation()), encoding="utf-8")
    context, requests = offline_context(chromium, viewport={"width": 1100, "height": 700})
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_function(
        "() => document.querySelector('.vs-mount') && document.querySelector('.vs-mount').veristep"
    )
    page.evaluate("document.fonts.ready")
    page.evaluate("window.P = document.querySelector('.vs-mount').veristep; P.pause()")
    yield page, requests, problems, path
    context.close()


def test_offline_export_renders_glyphs_with_ids_and_fonts(offline_page):
    page, requests, problems, _ = offline_page
    assert page.evaluate("document.querySelectorAll('.vs-stage [data-n]').length") > 10
    assert page.evaluate("document.fonts.check('20px KaTeX_Main')")
    loaded = page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').length")
    assert loaded >= 2, "KaTeX fonts must load from the inlined data URIs"
    assert fetched_from_network(requests) == []
    assert not page.query_selector(".vs-unrendered")
    assert problems == []


def test_transition_moves_persistent_glyphs_fades_deletes_inserts_last(offline_page):
    page, _, problems, _ = offline_page
    page.evaluate("P.show(0)")
    # Step 1 moves c from the left side to the right (under a new minus sign).
    c_id = page.evaluate(
        "P.payload.steps[0].moves.find(id => "
        "document.querySelector('.vs-stage [data-n=\"' + id + '\"]').textContent === 'c')"
    )
    assert c_id is not None
    before = page.evaluate(BOX, c_id)
    detail = page.evaluate("P.prepare(0), P.last")
    assert str(c_id) in detail["moved"]
    assert detail["inserted"] and detail["deleted"]
    start = page.evaluate(BOX, c_id)  # the new element, drawn where the old one was
    page.evaluate("P.seek(0.999)")
    page.evaluate("P.anims.forEach(a => a.finish())")
    after = page.evaluate(BOX, c_id)
    assert abs(start[0] - before[0]) < 1.5 and abs(start[1] - before[1]) < 1.5
    assert abs(after[0] - before[0]) > 20, "a persistent glyph must travel"
    # Deleted ghosts fade out during the first phase; inserted glyphs appear only at the end.
    page.evaluate("P.prepare(0); P.seek(0.02)")
    ghost_start = page.evaluate(
        "[...document.querySelectorAll('.vs-ghost')].map(e => +getComputedStyle(e).opacity)"
    )
    page.evaluate("P.seek(0.45)")
    ghost_mid = page.evaluate(
        "[...document.querySelectorAll('.vs-ghost')].map(e => +getComputedStyle(e).opacity)"
    )
    ins_mid = page.evaluate(INSERTED_OPACITY, detail["inserted"][0])
    page.evaluate("P.seek(0.999)")
    ins_end = page.evaluate(INSERTED_OPACITY, detail["inserted"][0])
    assert ghost_start and min(ghost_start) > 0.8
    assert max(ghost_mid) < 0.05
    assert ins_mid < 0.05 and ins_end > 0.95
    assert problems == []


def test_badges_match_tiers_and_explain_on_hover_and_tap(offline_page, make_derivation):
    page, _, problems, _ = offline_page
    want = [s["tier"] for s in make_derivation()["steps"]]
    got = page.eval_on_selector_all(".vs-badge", "bs => bs.map(b => b.dataset.tier)")
    assert got == want
    icons = page.eval_on_selector_all(".vs-badge", "bs => bs.map(b => b.dataset.icon)")
    assert icons == ["✓", "✓", "✓", "✓", "?", "✓"]  # shapes, never a digit
    page.hover(".vs-badge[data-step='5']")
    assert "reason 5" in page.text_content(".vs-reason")
    assert "Plausible" in page.text_content(".vs-reason")
    page.click(".vs-badge[data-step='2']")
    assert page.get_attribute(".vs-mount", "data-frame") == "2"
    assert "reason 2" in (page.get_attribute(".vs-badge[data-step='2']", "title") or "")
    assert problems == []


def test_play_runs_to_the_end_and_screenshot(offline_page, tmp_path_factory):
    page, _, problems, _ = offline_page
    page.evaluate("P.show(0); P.speed = 4")
    page.evaluate("P.play()")
    page.wait_for_function(
        "() => document.querySelector('.vs-mount').dataset.frame === '2'", timeout=15000
    )
    page.evaluate("P.pause(); P.speed = 1; P.show(6)")
    shot = tmp_path_factory.mktemp("screens") / "player-final.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 5000
    print(f"screenshot: {shot}")
    assert problems == []


def test_reduced_motion_switches_without_animation(chromium, offline_page):
    _, _, _, path = offline_page
    context = chromium.new_context(reduced_motion="reduce")
    context.set_offline(True)
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_function(
        "() => document.querySelector('.vs-mount') && document.querySelector('.vs-mount').veristep"
    )
    assert page.evaluate("document.querySelector('.vs-mount').veristep.reduced") is True
    detail = page.evaluate(
        "(() => { const P = document.querySelector('.vs-mount').veristep; "
        "P.pause(); P.prepare(0); return P.last; })()"
    )
    assert detail["duration"] == 0
    context.close()


def test_controls_step_back_and_scrub(offline_page):
    page, _, problems, _ = offline_page
    page.evaluate("P.show(0); P.speed = 8")
    page.click(".vs-step")
    page.wait_for_function("() => P.root.dataset.frame === '1' && !P.transition")
    page.click(".vs-step")
    page.wait_for_function("() => P.root.dataset.frame === '2' && !P.transition")
    page.click(".vs-prev")
    assert page.get_attribute(".vs-mount", "data-frame") == "1"
    page.click(".vs-first")
    assert page.get_attribute(".vs-mount", "data-frame") == "0"
    # Dragging the scrubber to 2.5 shows the transition 2 → 3 paused halfway.
    page.evaluate(
        "() => { const s = document.querySelector('.vs-scrub'); s.value = '2.5';"
        " s.dispatchEvent(new Event('input')); }"
    )
    state = page.evaluate(
        "({from: P.transition.from, t: P.anims.map(a => a.currentTime), total: P.total,"
        " playing: P.anims.some(a => a.playState === 'running')})"
    )
    assert state["from"] == 2 and not state["playing"]
    assert all(abs(t - state["total"] / 2) < 1 for t in state["t"])
    page.evaluate("P.speed = 1")
    assert problems == []


PROSE = """t => { const p = document.body.appendChild(document.createElement('p'));
  window.veristepProse(p, t);
  const out = {text: p.innerText, katex: p.querySelectorAll('.katex').length,
               elements: p.querySelectorAll('b, script, img').length};
  p.remove(); return out; }"""


def test_prose_renders_delimited_math_and_keeps_everything_else_text(offline_page):
    page, _, problems, _ = offline_page
    math = page.evaluate(PROSE, r"add $\frac{b^{2}}{4 \cdot a^{2}}$ to both sides")
    assert math["katex"] == 1 and "\\frac" not in math["text"] and "$" not in math["text"]
    assert math["text"].startswith("add ") and math["text"].endswith(" to both sides")
    # No delimiters, or an unbalanced one: exactly the text, nothing typeset.
    for text in ("at x = 2 the left side is 9", "costs $5 \\frac"):
        shown = page.evaluate(PROSE, text)
        assert shown["katex"] == 0 and shown["text"] == text
    escaped = page.evaluate(PROSE, r"a \$ sign and $x$")  # an escaped dollar is a dollar
    assert escaped["katex"] == 1 and escaped["text"].startswith("a $ sign and ")
    # Markup in the words stays words; markup inside math is not trusted either.
    unsafe = page.evaluate(PROSE, r"<b>bold</b><img src=x> and $\htmlData{x=1}{y}$")
    assert unsafe["elements"] == 0 and unsafe["text"].startswith("<b>bold</b><img src=x> and")
    page.evaluate("P.show(0)")
    assert problems == []


def test_reduced_motion_keeps_the_pause_between_steps(chromium, offline_page):
    _, _, _, path = offline_page
    context = chromium.new_context(reduced_motion="reduce")
    context.set_offline(True)
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_function(
        "() => document.querySelector('.vs-mount') && document.querySelector('.vs-mount').veristep"
    )
    page.evaluate("window.P = document.querySelector('.vs-mount').veristep; P.show(0); P.play()")
    page.wait_for_function("() => P.lastHold !== null")
    # No gliding, but at least the normal reading pause (here longer: it replaces the glide).
    assert page.evaluate("P.last.duration") == 0
    assert page.evaluate("P.lastHold") >= 900
    assert page.evaluate("P.root.dataset.frame") == "1"  # still on the first step, reading
    page.evaluate("P.pause()")
    context.close()


def test_export_has_the_steps_view_legend_and_readable_labels(offline_page, make_derivation):
    page, requests, problems, _ = offline_page
    steps = make_derivation()["steps"]
    items = page.locator(".vs-step-item")
    assert items.count() == len(steps) + 1
    assert page.locator(".vs-legend dt").count() == 5
    assert page.eval_on_selector_all(".vs-badge-text", "bs => bs.map(b => b.textContent)") == [
        f"{s['index']} {word}"
        for s, word in zip(
            steps, ["proved", "checked", "proved", "proved", "not proved", "proved"], strict=True
        )
    ]
    items.nth(3).click()
    assert page.get_attribute(".vs-mount", "data-frame") == "3"
    label = page.get_attribute(".vs-step-item[data-step='6'] .vs-step-math", "aria-label")
    assert "over" in label and "square root of" in label and "\\" not in label
    assert fetched_from_network(requests) == []
    assert problems == []


def _offline_phone(chromium, folder, derivation):
    """The export of ``derivation`` opened at phone width with the network off; page errors
    are collected in the returned list."""
    path = folder / "d.html"
    path.write_text(export_html(derivation), encoding="utf-8")
    context = chromium.new_context(viewport={"width": 390, "height": 800})
    context.set_offline(True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_function("() => document.querySelector('.vs-mount').veristep")
    return context, page, errors


def test_calculus_plots_draw_offline(chromium, tmp_path_factory, make_derivation):
    derivation = make_derivation([r"\frac{d}{dx} x^2 = 2x", "2x = 2x"], ["grounded"])
    context, page, errors = _offline_phone(chromium, tmp_path_factory.mktemp("calc"), derivation)
    plot = page.locator(".vs-plot[data-kind=derivative]")
    assert plot.locator("canvas").count() >= 1 and plot.get_attribute("data-error") is None
    assert "derivative" in plot.inner_text()
    assert errors == []
    context.close()


def test_the_state_plot_follows_the_animation_offline(chromium, tmp_path_factory, make_derivation):
    derivation = make_derivation(["2x + 3 = 9", "2x = 6", "x = 3"], ["grounded", "grounded"])
    folder = tmp_path_factory.mktemp("states")
    context, page, errors = _offline_phone(chromium, folder, derivation)
    plot = page.locator(".vs-plot[data-kind=states]")
    page.evaluate("document.querySelector('.vs-mount').veristep.show(0)")
    assert plot.get_attribute("data-shows-frame") == "0" and plot.locator("canvas").count() >= 1
    assert "Both sides of the start" in plot.inner_text()
    page.evaluate("document.querySelector('.vs-mount').veristep.show(2)")
    assert plot.get_attribute("data-shows-frame") == "2"
    assert plot.locator("svg.vs-numberline circle").count() == 1
    assert "x = 3" in plot.inner_text() and "number line" in plot.inner_text()
    assert errors == []
    context.close()


def test_lossy_steps_are_amber_assumptions_are_noted_and_the_gate_is_red(
    chromium, tmp_path_factory, make_derivation
):
    derivation = make_derivation(["a x^2 = 4 a", "x^2 = 4", "x = 2"], ["verified", "plausible"])
    derivation["steps"][0].update(relation="narrows", reason="assumes a ≠ 0")
    derivation["steps"][1].update(relation="narrows", reason="loses -2, which solves $x^2 = 4$")
    derivation["confidence"].update(
        tier="refuted", summary="conclusion refuted: x = 9 does not solve the start"
    )
    path = tmp_path_factory.mktemp("gate") / "d.html"
    path.write_text(export_html(derivation), encoding="utf-8")
    context = chromium.new_context(viewport={"width": 390, "height": 800})
    context.set_offline(True)
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_function("() => document.querySelector('.vs-mount').veristep")
    kinds = page.eval_on_selector_all(".vs-warn", "ws => ws.map(w => w.dataset.kind)")
    assert kinds == ["assumes", "lossy", "refuted"]
    lossy = page.locator(".vs-warn[data-kind=lossy]")
    assert "Step 2 loses a solution" in lossy.inner_text() and "loses -2" in lossy.inner_text()
    assert lossy.locator(".katex").count() == 1  # the $…$ in the reason is typeset
    amber = page.evaluate(
        "getComputedStyle(document.querySelector('.vs-warn[data-kind=lossy]')).backgroundColor"
    )
    assert amber == "rgb(255, 244, 224)"
    assert "assumption" in page.inner_text(".vs-warn[data-kind=assumes]")
    gate = page.locator(".vs-warn[data-kind=refuted]")
    assert "The conclusion is wrong" in gate.inner_text()
    assert "x = 9 does not solve" in gate.inner_text()
    # A lost root's badge says "incomplete", not a neutral "not proved" that reads as fine.
    words = page.eval_on_selector_all(".vs-badge-text", "bs => bs.map(b => b.textContent)")
    assert words == ["1 checked", "2 incomplete"]
    context.close()


SYSTEM = [r"\begin{cases} x + y = 3 \\ x - y = 1 \end{cases}", r"2 y = 2 \land x - y = 1",
          r"y = 1 \land x - y = 1", r"y = 1 \land x - 1 = 1", r"x = 2 \land y = 1"]  # fmt: skip


def test_a_system_is_two_curves_that_meet_where_both_hold_and_follow_the_animation(
    chromium, tmp_path_factory, make_derivation
):
    derivation = make_derivation(SYSTEM, ["grounded"] * 4)
    context, page, errors = _offline_phone(chromium, tmp_path_factory.mktemp("sys"), derivation)
    plot = page.locator(".vs-plot[data-kind=states]")
    for frame in (0, 1, 4):  # a slanted pair, a level line and a slanted one, then x = 2, y = 1
        page.evaluate(f"document.querySelector('.vs-mount').veristep.show({frame})")
        assert plot.get_attribute("data-shows-frame") == str(frame)
        curves = plot.locator("svg.vs-system path[data-curve]")
        assert curves.count() == 2
        assert all(int(curves.nth(i).get_attribute("data-segments")) > 50 for i in range(2))
        # Where they meet is found on the curves and refined (Newton), not read off a pixel.
        assert plot.get_attribute("data-meets") == "[[2,1]]", frame
        assert plot.locator("svg.vs-system circle.vs-meet").count() == 1
        assert "they meet at (x, y) = (2, 1)" in plot.inner_text()
        # The key names each curve by its equation, typeset.
        assert plot.locator(".vs-system-key .katex").count() == 2
    # The morph moves the plot on too: halfway through a transition it already shows the next
    # state (the one being drawn in).
    page.evaluate("P = document.querySelector('.vs-mount').veristep; P.pause(); P.seek(1.5)")
    assert plot.get_attribute("data-shows-frame") == "2"
    # On a phone the plot comes below the stage; on a wide screen it sits beside it.
    stage = page.locator(".vs-stage-wrap")
    assert plot.bounding_box()["y"] > stage.bounding_box()["y"] + stage.bounding_box()["height"]
    page.set_viewport_size({"width": 1280, "height": 900})
    beside = ("() => document.querySelector('.vs-plot').getBoundingClientRect().x >"
              " document.querySelector('.vs-stage-wrap')"
              ".getBoundingClientRect().right")  # fmt: skip
    page.wait_for_function(beside)
    assert plot.bounding_box()["y"] < stage.bounding_box()["y"] + stage.bounding_box()["height"]
    assert errors == []
    context.close()


def test_system_plot_of_parallel_and_of_coincident_lines(
    chromium, tmp_path_factory, make_derivation
):
    parallel = make_derivation([r"x + y = 1 \land x + y = 3", r"x + y = 1 \land 0 = 2"],
                               ["grounded"])  # fmt: skip
    context, page, errors = _offline_phone(chromium, tmp_path_factory.mktemp("par"), parallel)
    plot = page.locator(".vs-plot[data-kind]").first
    page.evaluate("document.querySelector('.vs-mount').veristep.show(0)")
    assert plot.get_attribute("data-meets") == "[]"
    assert "they do not meet in this range" in plot.inner_text()
    context.close()
    same = make_derivation([r"x + y = 1 \land 2x + 2y = 2", r"x + y = 1 \land x + y = 1"],
                           ["grounded"])  # fmt: skip
    context, page, errors2 = _offline_phone(chromium, tmp_path_factory.mktemp("same"), same)
    plot = page.locator(".vs-plot[data-kind=states]")
    page.evaluate("document.querySelector('.vs-mount').veristep.show(0)")
    assert plot.get_attribute("data-meets") == "[]"
    assert "the same curve" in plot.inner_text()
    context.close()
    assert errors == errors2 == []


def test_player_plots_zoom_pan_and_trace_like_a_pages_plot(
    chromium, tmp_path_factory, make_derivation
):
    derivation = make_derivation(["2x + 3 = 9", "2x = 6", "x = 3"], ["grounded", "grounded"])
    context, page, errors = _offline_phone(chromium, tmp_path_factory.mktemp("zoom"), derivation)
    page.evaluate("document.querySelector('.vs-mount').veristep.show(0)")
    plot = page.locator(".vs-plot[data-kind=states]")
    x_scale = ("() => { const c = document.querySelector('.vs-mount').veristep"
               ".plotCharts[0].chart; return [c.scales.x.min, c.scales.x.max]; }")  # fmt: skip
    assert plot.get_attribute("data-view") == "-10 10" and page.evaluate(x_scale) == [-10, 10]
    plot.get_by_role("button", name="zoom in").click()
    assert plot.get_attribute("data-view") == "-5 5" and page.evaluate(x_scale) == [-5, 5]
    plot.get_by_role("button", name="pan right").click()
    assert plot.get_attribute("data-view") == "-2.5 7.5"
    assert plot.get_attribute("data-marks") == "[3]"  # the root is still marked in the new view
    # The keyboard on the focused figure: "-" zooms out, the arrows pan; none steps the player.
    plot.focus()
    page.keyboard.press("-")
    assert plot.get_attribute("data-view") == "-7.5 12.5"
    page.keyboard.press("ArrowLeft")
    assert plot.get_attribute("data-view") == "-12.5 7.5"
    assert page.evaluate("document.querySelector('.vs-mount').veristep.k") == 0
    plot.get_by_role("button", name="reset the view").click()
    assert plot.get_attribute("data-view") == "-10 10"
    # Up and down move the trace cursor: 40 samples of 20/160 left of the middle is x = -5.
    plot.focus()
    for _ in range(40):
        page.keyboard.press("ArrowDown")
    assert (
        plot.locator(".vs-plot-readout").inner_text()
        == "x = \u22125: left side \u22127, right side 9"
    )
    # The pointer over the middle of the plotting area reads x = 0.
    area = page.evaluate("() => { const r = document.querySelector('.vs-mount').veristep"
                         ".plotCharts[0].chart.over.getBoundingClientRect();"
                         " return [r.left, r.right, r.top, r.bottom]; }")  # fmt: skip
    page.mouse.move((area[0] + area[1]) / 2, (area[2] + area[3]) / 2)
    assert plot.locator(".vs-plot-readout").inner_text() == "x = 0: left side 3, right side 9"
    # A number line has nothing to zoom: its controls are put away, and come back after it.
    page.evaluate("document.querySelector('.vs-mount').veristep.show(2)")
    assert plot.locator(".vs-plot-tools").is_hidden()
    page.evaluate("document.querySelector('.vs-mount').veristep.show(1)")
    assert plot.locator(".vs-plot-tools").is_visible()
    assert errors == []
    context.close()
