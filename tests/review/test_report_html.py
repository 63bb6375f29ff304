"""The HTML review report typesets its math with the inlined KaTeX, with no network at all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from veristep.core.settings import Settings
from veristep.review.report import html_report
from veristep.review.run import review_proof

PROOF = """We have $\\frac{6}{2} \\cdot 7 = 21$.

Hence, in total, there are $420 + 48 = 478$ seconds.
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("report")
    trace = review_proof(
        PROOF, settings=Settings().replace(data_dir=tmp), trace_path=tmp / "trace.jsonl"
    )
    path = tmp / "report.html"
    path.write_text(html_report(trace), encoding="utf-8")
    return path


def test_report_inlines_katex_and_its_fonts_and_links_nothing(report: Path) -> None:
    page = report.read_text(encoding="utf-8")
    assert "katex.render" in page and "@font-face" in page
    assert "data:font/woff2;base64," in page
    # Self-contained: no external script, stylesheet or font reference.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    # url(data:…) is inline and url(#clip) names an element of the page itself: nothing else.
    assert not re.search(r"url\((?!data:|#)", page)
    # The math stays escaped in the markup (as the text fallback) until the script typesets it.
    assert 'data-vs-prose="We have $\\frac{6}{2} \\cdot 7 = 21$."' in page


@pytest.mark.browser
def test_report_renders_math_offline_in_chromium(report: Path, chromium) -> None:
    context = chromium.new_context()
    context.set_offline(True)
    outside: list[str] = []

    def gate(route):  # only the file itself and its data URIs may load
        if route.request.url.startswith(("file:", "data:")):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", gate)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(report.as_uri())
    page.evaluate("document.fonts.ready")
    cells = page.eval_on_selector_all(
        "tr[data-step] td:nth-child(5) > span[data-vs-prose]",
        "ss => ss.map(s => [s.innerText, s.querySelectorAll('.katex').length])",
    )
    assert len(cells) == 2 and all(n == 1 for _, n in cells)
    assert all("\\frac" not in t and "\\cdot" not in t and "$" not in t for t, _ in cells)
    assert cells[1][0].startswith("Hence, in total, there are ")
    assert page.evaluate("document.fonts.check('20px KaTeX_Main')")
    assert outside == [] and problems == []
    context.close()
