"""``veristep.animation``: a judged derivation plays inline in a notebook cell, offline.

The cell's HTML (what Jupyter inserts into its page) is loaded into headless Chromium with every
network request refused: the iframe's player mounts, typesets the states with the inlined KaTeX
fonts and carries each step's badge.
"""

from __future__ import annotations

import re

import pytest

import veristep
from veristep.core.errors import InputError
from veristep.web.testing import fetched_from_network, offline_context

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def derivation():
    return veristep.check(["x^2 - 5x + 6 = 0", "(x - 2)(x - 3) = 0", "x = 2 \\lor x = 3"])


def test_the_cell_plays_the_derivation_with_no_network(chromium, derivation, tmp_path):
    cell = veristep.animation(derivation)._repr_html_()
    context, asked = offline_context(chromium, viewport={"width": 1000, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_content(f"<!doctype html><html><body><h1>a notebook</h1>{cell}</body></html>")
    frame = page.frame_locator("iframe")
    frame.locator(".vs-stage [data-n]").first.wait_for(timeout=20_000)
    assert frame.locator(".vs-stage [data-n]").count() > 5  # the glyphs carry stable ids
    inner = page.frames[1]
    assert inner.evaluate("document.fonts.check('20px KaTeX_Main')")
    assert inner.evaluate("document.querySelector('.vs-mount').veristep !== undefined")
    assert fetched_from_network(asked) == [] and errors == []
    context.close()


def test_it_saves_as_one_file_and_names_what_it_shows(derivation, tmp_path):
    shown = veristep.animation(derivation)
    assert shown.title == "x^2 - 5x + 6 = 0"
    saved = shown.save(tmp_path / "d.html")
    text = saved.read_text(encoding="utf-8")
    assert text == shown.document and "<script" in text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)  # links nothing


def test_a_grade_without_a_derivation_is_refused_with_its_reason():
    ungradable = veristep.grade([])  # no states: an unchecked grade with its error
    with pytest.raises(InputError, match="nothing to animate"):
        veristep.animation(ungradable)
