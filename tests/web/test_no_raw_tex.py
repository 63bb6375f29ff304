"""No raw TeX reaches a reader: on derive, the workspace, the practice page and a saved page, no
accessible name (aria-label, title) and no visible text holds a backslash command such as
"\\frac" or "\\lor". Maths is either typeset or spoken in words.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
SLOW = 120_000

# Every aria-label and title, and every visible text node outside typeset maths' own source
# (KaTeX keeps the TeX in a MathML <annotation>, which is never shown), that holds "\word".
RAW_TEX = r"""() => {
  const command = /\\[A-Za-z]+/;
  const found = [];
  document.querySelectorAll('[aria-label], [title]').forEach(el => {
    for (const name of ['aria-label', 'title']) {
      const v = el.getAttribute(name);
      if (v && command.test(v)) found.push(name + ': ' + v);
    }
  });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const host = n.parentElement;
    if (!host || host.closest('annotation, script, style, template, textarea, input')) continue;
    if (!host.checkVisibility() || host.closest('.katex-mathml')) continue;
    if (command.test(n.textContent)) found.push('text: ' + n.textContent.trim());
  }
  return found;
}"""


def _raw_tex(page) -> list[str]:
    page.wait_for_load_state("networkidle")
    return page.evaluate(RAW_TEX)


def test_no_backslash_command_in_labels_or_text_on_derive_workspace_play_and_a_page(
    chromium, server
) -> None:
    import httpx

    made = httpx.post(
        server + "/api/derive", json={"start": "x^2 - 5x + 4 = 0", "target": ""}, timeout=120
    ).json()
    ident = made["id"]
    assert ident is not None
    derivation = httpx.get(server + f"/api/derivations/{ident}", timeout=120).json()["derivation"]
    page_body = {"title": "Roots", "blocks": [
        {"kind": "markdown", "data": {"text": "Solve $x^2 - 5x + 4 = 0$."}},
        {"kind": "derivation", "data": {"derivation": derivation}}]}  # fmt: skip
    saved = httpx.post(server + "/api/pages", json=page_body, timeout=120)
    assert saved.status_code == 200, saved.text

    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    found: dict[str, list[str]] = {}

    page.goto(server + "/")
    page.fill("#start", "x^2 - 5x + 4 = 0")
    page.fill("#target", "")
    page.click("#derive-submit")
    page.wait_for_selector("#derive-answer:not([hidden])", timeout=SLOW)
    page.wait_for_selector(".vs-badge", timeout=SLOW)
    assert page.locator(".vs-badge").count() >= 2  # a real derivation with graded steps
    found["derive"] = _raw_tex(page)

    # The quadratic formula's steps are labelled with maths ("add $\\frac{b^{2}}{4 a^{2}}$ ...").
    formula_tex = "x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}"
    quadratic = {"start": "a x^2 + b x + c = 0", "target": formula_tex}
    formula = httpx.post(server + "/api/derive", json=quadratic, timeout=120).json()["id"]
    assert formula is not None
    page.goto(server + f"/d/{formula}")
    page.wait_for_selector(".vs-badge", timeout=SLOW)
    assert page.locator(".vs-badge").count() >= 5
    found["saved derivation"] = _raw_tex(page)

    page.goto(server + "/workspace")
    page.fill("#ws-start-input", "2x + 3 = 7")
    page.locator("#ws-start button").first.click()
    page.wait_for_selector("#ws-state .katex", timeout=SLOW)
    page.fill("#ws-command-input", "solve for x")  # lines labelled "subtract $3$ ..."
    page.locator("#ws-command button").first.click()
    page.wait_for_function("document.querySelectorAll('#ws-steps li').length >= 3", timeout=SLOW)
    assert page.locator("#ws-steps .ws-op .katex").count() >= 2  # the labels' maths typeset
    found["workspace"] = _raw_tex(page)

    page.goto(server + f"/play?d={ident}")
    page.wait_for_selector("#pl-state .katex", timeout=SLOW)
    found["play"] = _raw_tex(page)

    page.goto(server + f"/pages/{saved.json()['id']}")
    page.wait_for_selector(".katex", timeout=SLOW)
    found["page"] = _raw_tex(page)
    context.close()
    assert {where: texts for where, texts in found.items() if texts} == {}
