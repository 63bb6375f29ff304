"""The student loop in headless Chromium (Debian's, through Playwright): plain maths typed, read
back by the server, checked, and fed back in plain words; the teacher view one click away."""

from __future__ import annotations

import re

import pytest

from veristep.core.learner import JARGON
from veristep.grounding.cascade import CHECKS

pytestmark = pytest.mark.browser

CHECK_NAMES = tuple(c.__name__ for c in CHECKS)
LEARNER_TEXT = """() => [...document.querySelectorAll(
  '#check-results[data-view=learner] > li, #check-summary, #hint-list li')].map(e => e.innerText)"""


def _plain(texts: list[str]) -> None:
    """No SymPy syntax, no check's name, no tier's internal word in what the learner reads."""
    assert texts
    for text in texts:
        assert "**" not in text, text
        low = text.lower()
        for word in JARGON + CHECK_NAMES:
            assert not re.search(rf"\b{re.escape(word)}\b", low), (word, text)


def _check(page, lines: str) -> None:
    page.evaluate("document.body.removeAttribute('data-check')")
    page.fill("textarea[name=states]", lines)
    page.wait_for_selector("body[data-check=done]", timeout=90_000)


@pytest.mark.parametrize("width", [1280, 390])
def test_plain_input_gets_plain_feedback(chromium, server, artifacts, width):
    context = chromium.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server + "/check")
    # Typed as a student types: sqrt( ), ^, "or"; the preview shows what the server read.
    _check(page, "sqrt(x) = x - 2\nx = (x - 2)^2\nx^2 - 5x + 4 = 0\nx = 1 or x = 4")
    page.wait_for_function(
        "document.querySelectorAll('#states-preview li[data-read]').length === 4", timeout=30_000
    )
    read = page.eval_on_selector_all("#states-preview li", "ls => ls.map(l => l.dataset.read)")
    assert "\\sqrt{x}" in read[0] and "or" in read[3] and "x^{2}" in read[2]
    items = page.locator("#check-results > li")
    assert items.count() == 3
    words = page.eval_on_selector_all("#check-results > li", "ls => ls.map(l => l.dataset.word)")
    assert words == ["right", "right", "right"]
    first = items.nth(0).inner_text()
    assert "squaring can add a solution" in first
    summary = page.inner_text("#check-summary")
    assert summary.startswith("Your answer is wrong: x = 1 does not solve √x = x − 2.")
    assert "the left side is 1, the right side −1" in summary
    _plain(page.evaluate(LEARNER_TEXT))
    page.screenshot(path=str(artifacts / f"learner-squaring-{width}.png"), full_page=True)

    # A lost root reads as incomplete, with the likely slip named; never as "probably fine".
    _check(page, "x^2 = 4\nx = 2")
    page.wait_for_selector("#check-results .learner-slip", timeout=60_000)
    item = page.locator("#check-results > li").nth(0)
    assert item.get_attribute("data-word") == "incomplete"
    assert "incomplete: you lost x = −2" in item.inner_text()
    assert "Likely slip: a solution was lost" in item.inner_text()
    _plain(page.evaluate(LEARNER_TEXT))

    # A wrong line: a substitution to redo, and a hint ladder on request.
    _check(page, "2x + 8 = 30\n2x = 38")
    page.wait_for_selector("#check-results .learner-slip", timeout=60_000)
    text = page.locator("#check-results > li").nth(0).inner_text()
    assert "Put x = 19 into 2x + 8 = 30: the left side is 46, the right side 30." in text
    assert "Likely slip: a sign slipped" in text
    _check(page, "2x + 8 = 30")
    assert page.locator("#check-results > li").count() == 0
    for n in (1, 2, 3):
        page.click("#check-hint")
        page.wait_for_selector(f"body[data-hints='{n}']", timeout=60_000)
    assert page.eval_on_selector_all("#hint-list li", "ls => ls.map(l => l.dataset.rung)") == [
        "nudge", "move", "line"]  # fmt: skip
    assert page.inner_text("#hint-list li[data-rung=line]") == "The next line can be 2x = 22"
    assert page.is_disabled("#check-hint")
    _plain(page.evaluate(LEARNER_TEXT))
    page.screenshot(path=str(artifacts / f"learner-hints-{width}.png"), full_page=True)

    # The teacher view keeps the tiers, the checks and the witnesses.
    _check(page, "2x + 8 = 30\n2x = 38")
    page.check("input[name=view][value=teacher]")
    teacher = page.inner_text("#check-results")
    assert "refuted" in teacher and "check: solution_set" in teacher and "witness" in teacher
    assert page.inner_text("#check-summary").startswith("refuted:")
    page.screenshot(path=str(artifacts / f"teacher-{width}.png"), full_page=True)
    assert problems == []
    context.close()


def test_derive_without_a_target_states_the_answer(chromium, server, artifacts):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server + "/")
    page.fill("#start", "x^2 - 5x + 6 = 0")
    page.fill("#target", "")
    page.wait_for_selector("#start-preview[data-read]", timeout=30_000)
    page.click("#derive-submit")
    page.wait_for_selector("body[data-derive=done]", timeout=120_000)
    assert page.is_visible("#derive-answer")
    said = page.inner_text("#derive-answer")
    assert "2" in said and "3" in said, said
    assert not page.is_visible("#target-error")
    page.screenshot(path=str(artifacts / "derive-no-target-1280.png"), full_page=True)
    context.close()
