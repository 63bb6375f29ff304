"""Pages: blocks edited by plain functions, the SQLite store with versions, HTML export."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from veristep.core.errors import InputError
from veristep.workspace.page_store import PageStore
from veristep.workspace.pages import (
    Block,
    Page,
    add_block,
    delete_block,
    edit_block,
    export_html,
    move_block,
    render_markdown,
)
from veristep.workspace.plots import plot_svg
from veristep.workspace.session import Workspace


def _page() -> Page:
    page = Page("Quadratics")
    page = add_block(
        page, Block("markdown", {"text": "# Roots\n\nSolve $x^2 = 4$.\n\n- one\n- two"})
    )
    return add_block(page, Block("plot", {"expr": "x^2 - 4", "from": -3, "to": 3}))


def test_block_edits_return_new_pages() -> None:
    page = _page()
    moved = move_block(page, 1, 0)
    assert [b.kind for b in moved.blocks] == ["plot", "markdown"]
    assert [b.kind for b in page.blocks] == ["markdown", "plot"]  # the original is unchanged
    edited = edit_block(moved, 0, Block("markdown", {"text": "hello"}))
    assert edited.blocks[0].data == {"text": "hello"}
    assert [b.kind for b in delete_block(edited, 1).blocks] == ["markdown"]
    assert (
        add_block(page, Block("markdown", {"text": "first"}), at=0).blocks[0].data["text"]
        == "first"
    )


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"kind": "markdwon", "data": {"text": "x"}}, "did you mean markdown"),
        ({"kind": "plot", "data": {}}, "needs expr"),
        ({"data": {}}, "'kind'"),
        ({"kind": "markdown", "data": {"text": 5}}, "must be a string"),
    ],
)
def test_bad_blocks_are_input_errors(raw: dict, message: str) -> None:
    with pytest.raises(InputError) as info:
        Block.from_json(raw)
    assert message in str(info.value)


def test_bad_indices_are_input_errors() -> None:
    with pytest.raises(InputError, match="no block 5"):
        move_block(_page(), 5, 0)
    with pytest.raises(InputError, match="title"):
        Page.from_json({"title": " ", "blocks": []})


def test_markdown_subset_keeps_maths_for_the_typesetter() -> None:
    out = render_markdown({"text": "# Roots\nSolve $x^2 = 4$ <b>now</b>.\n\n- a\n- b"})
    assert '<h2 data-vs-prose="Roots">' in out
    assert 'data-vs-prose="Solve $x^2 = 4$ &lt;b&gt;now&lt;/b&gt;."' in out  # escaped, never raw
    assert out.count("<li ") == 2


def test_versions_survive_a_restart_in_another_process(tmp_path: Path) -> None:
    db = tmp_path / "pages.sqlite3"
    store = PageStore(db)
    ident = store.save(_page())
    assert store.save(move_block(_page(), 1, 0), ident) == 2
    # A fresh interpreter opens the same file: every version is still there.
    code = (
        "import sys; from veristep.workspace.page_store import PageStore; "
        f"s = PageStore(sys.argv[1]); p = s.get({ident!r}); "
        f"print(p.version, [b.kind for b in p.page.blocks], "
        f"[b.kind for b in s.get({ident!r}, 1).page.blocks], len(s.versions({ident!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    assert out.strip() == "2 ['plot', 'markdown'] ['markdown', 'plot'] 2"


def test_store_lists_deletes_and_reports_missing_pages(tmp_path: Path) -> None:
    store = PageStore(tmp_path / "p.sqlite3")
    ident = store.save(Page("A"))
    assert [p.title for p in store.list()] == ["A"]
    with pytest.raises(InputError, match="version 9"):
        store.get(ident, 9)
    store.delete(ident)
    assert store.list() == []
    for call in (lambda: store.get(ident), lambda: store.save(Page("B"), ident),
                 lambda: store.delete(ident), lambda: store.versions(ident)):  # fmt: skip
        with pytest.raises(InputError, match="no page"):
            call()


def test_concurrent_saves_never_share_a_version(tmp_path: Path) -> None:
    store = PageStore(tmp_path / "p.sqlite3")
    ident = store.save(Page("A"))
    threads = [threading.Thread(target=store.save, args=(Page(f"v{i}"), ident)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [v for v, _ in store.versions(ident)] == list(range(1, 10))


def test_export_is_one_self_contained_file_with_every_block() -> None:
    ws = Workspace("2x = 6x^2")
    ws.apply("divide both sides by x")
    page = add_block(_page(), Block("workspace", {"workspace": ws.to_json()}))
    page = add_block(page, Block("derivation", {"derivation": ws.derivation().to_json()}))
    doc = export_html(page, plot=plot_svg)
    assert "<polyline" in doc and 'data-tier="plausible"' in doc
    assert "vs-payload-3" in doc and "katex" in doc
    assert "<link" not in doc and 'src="http' not in doc  # nothing loads from elsewhere


def test_plot_of_an_undefined_function_says_so() -> None:
    assert "undefined" in plot_svg({"expr": r"\sqrt{x}", "from": -3, "to": -1})
    with pytest.raises(InputError, match="from < to"):
        plot_svg({"expr": "x", "from": 2, "to": 1})
