"""Hostile pages: every case of the hostile round against the page routes, and their neighbours.

Each saved page is also viewed and exported: a page that was stored must be viewable, with only
the tiers this server computed.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from veristep.workspace.page_store import PageStore
from veristep.workspace.pages import Block, Page

BROWSER = {"accept": "text/html,application/xhtml+xml"}
CYCLE = {"workspace": {"nodes": [{"id": 0, "latex": "x", "parent": 0}], "cursor": 0}}


def _post(client, *blocks, title="Hostile"):
    return client.post("/api/pages", json={"title": title, "blocks": list(blocks)})


def _stored(client) -> list:
    return client.get("/api/pages").json()["pages"]


def _payloads(page_html: str) -> list[dict]:
    found = re.findall(r'<script type="application/json" id="vs-payload-\d+">(.*?)</script>',
                       page_html, re.S)  # fmt: skip
    return [json.loads(text) for text in found]


def _ws(nodes, cursor=0, start="x = 1"):
    return {"kind": "workspace", "data": {"workspace": {"start": start, "cursor": cursor,
                                                        "nodes": nodes}}}  # fmt: skip


# ---- 1. a workspace whose node is its own parent (the request that took the server down) -------


@pytest.mark.parametrize(
    ("workspace", "fragment"),
    [
        ({"kind": "workspace", "data": CYCLE}, "start"),
        (_ws([{"id": 0, "latex": "x", "parent": 0}]), "cannot have a parent"),
        (
            _ws(
                [
                    {"id": 0, "latex": "x"},
                    {"id": 1, "latex": "y", "parent": 2},
                    {"id": 2, "latex": "z", "parent": 1},
                ]
            ),
            "cycle",
        ),
        (_ws([{"id": 0, "latex": "x"}, {"id": 1, "latex": "y", "parent": 1}]), "cycle"),
        (_ws([{"id": 0, "latex": "x"}, {"id": 1, "latex": "y", "parent": 7}]), "parent 7"),
        (_ws([{"id": 0, "latex": "x"}, {"id": 0, "latex": "y"}]), "twice"),
        (_ws([{"id": 1, "latex": "x"}]), "node 0"),
        (_ws([{"id": 0, "latex": "x"}], cursor=5), "cursor"),
        (
            _ws(
                [{"id": 0, "latex": "x"}]
                + [{"id": k, "latex": "x", "parent": k - 1} for k in range(1, 150)]
            ),
            "deep",
        ),
    ],
)
def test_a_workspace_that_is_not_one_tree_is_refused_and_never_stored(
    client, workspace, fragment
) -> None:
    r = _post(client, workspace)
    assert r.status_code == 422, r.text
    message = r.json()["message"]
    assert fragment in message and "blocks.0.data.workspace" in message
    assert _stored(client) == []


@pytest.mark.timeout(60)
def test_a_cyclic_page_stored_by_an_older_version_is_viewed_without_looping(
    client, tmp_path
) -> None:
    store = PageStore(tmp_path / "veristep-pages.sqlite3")  # beside web.sqlite3: the app's store
    ident = store.save(Page("Old", (Block("workspace", CYCLE),
                                    Block("markdown", {"text": "still here"}))))  # fmt: skip
    for url in (f"/pages/{ident}", f"/pages/{ident}/export"):
        r = client.get(url)
        assert r.status_code == 200
        assert "cannot be shown" in r.text and "still here" in r.text
    assert client.get("/api/health").status_code == 200


# ---- 2. tiers are the server's, never the client's -------------------------------------------


def _forged_derivation() -> dict:
    """x = 4 does not follow from 2x = 6; the client says every step is grounded."""
    states = ["2x + 3 = 9", "2x = 6", "x = 4"]
    steps = [{"index": k, "tier": "grounded", "reason": "trust me", "change_type": "rewrite",
              "operation": f"step {k}"} for k in (1, 2)]  # fmt: skip
    return {"start": states[0], "target": "x = 4", "states": [{"latex": s} for s in states],
            "steps": steps, "confidence": {"tier": "grounded", "summary": "all proved"},
            "endpoint": {"reached": True}}  # fmt: skip


def test_a_forged_derivation_tier_is_regraded_on_save(client) -> None:
    r = _post(client, {"kind": "derivation", "data": {"derivation": _forged_derivation()}})
    assert r.status_code == 200, r.text
    assert r.json()["grades"][0]["tier"] == "refuted"
    ident = r.json()["id"]
    for url in (f"/pages/{ident}", f"/pages/{ident}/export"):
        (payload,) = _payloads(client.get(url).text)
        assert [s["tier"] for s in payload["steps"]] == ["grounded", "refuted"]
        assert payload["confidence"]["tier"] == "refuted"
        assert "trust me" not in json.dumps(payload)
    assert "operation" in client.get(f"/api/pages/{ident}").text  # descriptive text is kept
    assert "trust me" not in client.get(f"/api/pages/{ident}").text


def test_a_forged_workspace_verdict_is_regraded_on_save(client) -> None:
    forged = {"tier": "grounded", "icon": "🥇", "reason": "trust me", "index": 1}
    nodes = [{"id": 0, "parent": None, "latex": "2x = 6"},
             {"id": 1, "parent": 0, "latex": "x = 4", "operation": "divide by 2",
              "change_type": "rewrite", "verdict": forged}]  # fmt: skip
    r = _post(client, _ws(nodes, cursor=1, start="2x = 6"))
    assert r.status_code == 200, r.text
    assert r.json()["grades"][0]["nodes"] == {"1": "refuted"}
    page = client.get(f"/pages/{r.json()['id']}").text
    assert 'data-tier="refuted"' in page and 'data-tier="grounded"' not in page
    assert "trust me" not in page


def test_blocks_saved_by_an_older_version_show_unchecked_until_regraded(client, tmp_path) -> None:
    store = PageStore(tmp_path / "veristep-pages.sqlite3")
    old_ws = {
        "start": "2x = 6",
        "cursor": 1,
        "nodes": [
            {"id": 0, "parent": None, "latex": "2x = 6"},
            {"id": 1, "parent": 0, "latex": "x = 3", "verdict": {"tier": "grounded", "index": 1}},
        ],
    }
    ident = store.save(Page("Old", (Block("derivation", {"derivation": _forged_derivation()}),
                                    Block("workspace", {"workspace": old_ws}))))  # fmt: skip
    page = client.get(f"/pages/{ident}").text
    (payload,) = _payloads(page)
    assert {s["tier"] for s in payload["steps"]} == {"unchecked"}
    assert payload["confidence"]["tier"] == "unchecked"
    assert 'data-tier="grounded"' not in page and 'data-tier="unchecked"' in page
    r = client.post(f"/api/pages/{ident}/regrade")
    assert r.status_code == 200 and r.json()["version"] == 2
    assert [g and g.get("tier", g.get("nodes")) for g in r.json()["grades"]] == [
        "refuted", {"1": "grounded"}]  # fmt: skip
    assert 'data-tier="grounded"' in client.get(f"/pages/{ident}").text


# ---- 3. block data is validated at save --------------------------------------------------------


@pytest.mark.parametrize(
    ("block", "path"),
    [
        ({"kind": "derivation", "data": {"derivation": "x = 1"}}, "data.derivation"),
        ({"kind": "workspace", "data": {"workspace": 5}}, "data.workspace"),
        (_ws([{"id": 0}]), "nodes.0.latex"),
        (_ws([{"id": 0, "latex": 7}]), "nodes.0.latex"),
        (_ws([{"id": "0", "latex": "x"}]), "nodes.0.id"),
        ({"kind": "exercise", "data": {"exercise": {"state": "x", "choices": "abc"}}}, "exercise"),
        ({"kind": "exercise", "data": {"exercise": []}}, "data.exercise"),
        (
            {
                "kind": "exercise",
                "data": {"exercise": {"state": "x", "expected": "y", "choices": [{"latex": 3}]}},
            },
            "choices.0",
        ),
        ({"kind": "plot", "data": {"expr": "x", "from": "a", "to": 3}}, "data.from"),
        ({"kind": "plot", "data": {"expr": "x", "from": 3, "to": -3}}, "less than"),
        ({"kind": "plot", "data": {"expr": "x", "from": 1, "to": 1}}, "less than"),
        ({"kind": "plot", "data": {"expr": "", "from": 1, "to": 2}}, "data.expr"),
        ({"kind": "plot", "data": {"expr": "x", "from": 0, "to": 1e300}}, "data.to"),
        ({"kind": "plot", "data": {"expr": "x", "var": "xy"}}, "data.var"),
        ({"kind": "markdown", "data": {"text": 5}}, "data.text"),
        ({"kind": "markdown", "data": {"text": "x", "html": "<b>"}}, "data.html"),
        ({"kind": "markdown"}, "data"),
        ({"kind": "derivation", "data": {"derivation": {"states": []}}}, "states"),
        (
            {
                "kind": "derivation",
                "data": {"derivation": {"states": ["x", "y"], "steps": [{}, {}]}},
            },
            "steps",
        ),
        (
            {
                "kind": "derivation",
                "data": {"derivation": {"states": ["x", "y"], "steps": [{"change_type": "magic"}]}},
            },
            "change_type",
        ),
        ({"kind": "plott", "data": {}}, "'plot'"),
    ],
)
def test_bad_block_data_is_a_422_with_its_path_and_never_stored(client, block, path) -> None:
    r = _post(client, {"kind": "markdown", "data": {"text": "fine"}}, block)
    assert r.status_code == 422, r.text
    assert "blocks.1" in r.json()["message"] and path in r.json()["message"]
    assert _stored(client) == []


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_plot_ranges_that_are_not_finite_are_refused(client, number) -> None:
    block = '{"kind": "plot", "data": {"expr": "x", "from": ' + number + ', "to": 1}}'
    body = '{"title": "t", "blocks": [' + block + "]}"
    r = client.post("/api/pages", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "data.from" in r.json()["message"]
    assert _stored(client) == []


def test_an_edit_that_breaks_a_block_keeps_the_last_good_version(client) -> None:
    made = _post(client, {"kind": "plot", "data": {"expr": "x^2", "from": -1, "to": 1}}).json()
    bad = {"title": "t", "blocks": [{"kind": "plot", "data": {"expr": "x", "from": 2, "to": 1}}]}
    assert client.put(f"/api/pages/{made['id']}", json=bad).status_code == 422
    got = client.get(f"/api/pages/{made['id']}").json()
    assert got["versions"] == [1] and got["page"]["blocks"][0]["data"]["to"] == 1.0


# ---- 4. rendering under a deadline, in the lanes -----------------------------------------------


@pytest.mark.timeout(120)
def test_slow_plots_are_cut_and_the_page_still_answers(make_client, settings) -> None:
    client = make_client(settings.replace(cas_timeout_s=1.0))
    slow = [{"kind": "plot", "data": {"expr": f"{1000000 + k}! x", "from": 0, "to": 1}}
            for k in range(8)]  # fmt: skip
    made = _post(client, *slow, {"kind": "markdown", "data": {"text": "after the plots"}}).json()
    r = client.get(f"/pages/{made['id']}")
    assert r.status_code == 200 and "after the plots" in r.text
    assert r.text.count("too long") + r.text.count("in time") == 8
    again = time.monotonic()
    client.get(f"/pages/{made['id']}")  # failures are remembered: no worker is tied up again
    assert time.monotonic() - again < 5


def test_a_plot_that_cannot_be_read_is_refused_at_save_and_one_that_draws_nothing_says_so(
    client, tmp_path
) -> None:
    blocks = [{"kind": "plot", "data": {"expr": "x + y", "from": 0, "to": 1}},
              {"kind": "plot", "data": {"expr": "\\frac{", "from": 0, "to": 1}},
              {"kind": "plot", "data": {"expr": "x = 1", "from": 0, "to": 1}},
              {"kind": "plot", "data": {"expr": "sin x", "from": 0, "to": 3}}]  # fmt: skip
    r = _post(client, *blocks)
    assert r.status_code == 422, r.text
    message = r.json()["message"]
    assert "blocks.0.data.expr: cannot be plotted: only x may vary, and y would too" in message
    assert "blocks.1.data.expr: cannot be plotted" in message
    assert "blocks.2.data.expr: cannot be plotted: a plot needs an expression" in message
    assert "blocks.3" not in message and _stored(client) == []  # plain "sin x" reads fine
    empty = {"kind": "plot", "data": {"expr": "\\ln(x)", "from": -2, "to": -1}}
    made = _post(client, empty).json()
    assert "nothing to draw" in client.get(f"/pages/{made['id']}").text
    # A page stored by an older version with an unreadable plot still shows, and says why.
    store = PageStore(tmp_path / "veristep-pages.sqlite3")
    ident = store.save(Page("Old", (Block("plot", {"expr": "x + y", "from": 0, "to": 1}),)))
    assert "only one variable may be free" in client.get(f"/pages/{ident}").text


def test_the_editor_previews_a_plot_as_it_is_typed(client) -> None:
    ok = client.post("/api/pages/plot", json={"expr": "x^2", "from": -1, "to": 1}).json()
    assert ok["ok"] and "<polyline" in ok["svg"]
    bad = client.post("/api/pages/plot", json={"expr": "x y", "from": -1, "to": 1}).json()
    assert not bad["ok"] and "y would too" in bad["message"]
    assert client.post("/api/pages/plot", json={"expr": "x", "from": 2, "to": 1}).status_code == 400
    nan = '{"expr": "x", "from": NaN, "to": 1}'
    r = client.post("/api/pages/plot", content=nan, headers={"content-type": "application/json"})
    assert r.status_code == 422


# ---- 5. versions, unknown pages, browsers -----------------------------------------------------


def test_versions_out_of_range_are_not_found_not_500(client) -> None:
    made = _post(client, {"kind": "markdown", "data": {"text": "hi"}}).json()
    huge = "99999999999999999999"
    for url in (f"/pages/{made['id']}", f"/pages/{made['id']}/export"):
        for version in (huge, "0", "-1", "abc", "2"):
            r = client.get(url, params={"version": version}, headers=BROWSER)
            assert r.status_code == 404 and "text/html" in r.headers["content-type"], version
    for version in (huge, "0", "-3"):
        r = client.get(f"/api/pages/{made['id']}", params={"version": version})
        assert r.status_code == 422 and r.json()["error"] == "validation"
    assert client.get(f"/api/pages/{made['id']}", params={"version": 9}).status_code == 404


@pytest.mark.parametrize("path", ["/pages/-1", "/pages/nope", "/pages/nope/edit",
                                  "/pages/nope/export"])  # fmt: skip
def test_an_unknown_page_is_a_404_page_in_a_browser_and_json_to_a_client(client, path) -> None:
    r = client.get(path, headers=BROWSER)
    assert r.status_code == 404 and r.text.startswith("<!doctype html>")
    assert "no page" in r.text
    r = client.get(path, headers={"accept": "application/json"})
    assert r.status_code == 404 and "no page" in r.json()["message"]


def test_saving_to_an_unknown_page_is_a_404(client) -> None:
    r = client.put("/api/pages/nope", json={"title": "t", "blocks": []})
    assert r.status_code == 404 and _stored(client) == []


def test_a_blank_title_is_refused(client) -> None:
    assert client.post("/api/pages", json={"title": "   ", "blocks": []}).status_code == 422


# ---- the workspace API: the same tree rules, and only sealed verdicts ---------------------------


def _act(client, **body):
    return client.post("/api/workspace", json=body)


@pytest.mark.timeout(60)
def test_a_workspace_action_on_a_cyclic_tree_is_refused(client) -> None:
    twice = [{"id": 0, "parent": None, "latex": "x = 1"}, {"id": 1, "parent": 0, "latex": "x=1"},
             {"id": 1, "parent": 1, "latex": "x = 1"}]  # fmt: skip
    for nodes in (twice, [{"id": 0, "latex": "x", "parent": 0}]):
        r = _act(client, action="undo", workspace={"start": "x = 1", "cursor": 1, "nodes": nodes})
        assert r.status_code == 422 and "workspace" in r.json()["message"]
    assert client.get("/api/health").status_code == 200


def test_a_workspace_verdict_without_the_servers_seal_is_judged_again(client) -> None:
    view = _act(client, action="start", start="2x = 6").json()
    view = _act(client, workspace=view["workspace"], action="apply", command="divide by 2").json()
    assert [s["tier"] for s in view["path"]] == [None, "grounded"]
    sealed = view["workspace"]
    # The server's own tree goes back and forth unchanged, and its verdicts are kept.
    again = _act(client, workspace=sealed, action="goto", node=1).json()
    assert again["workspace"]["nodes"] == sealed["nodes"]
    # A client that edits a state and keeps the verdict gets the step judged again.
    forged = json.loads(json.dumps(sealed))
    forged["nodes"][1]["latex"] = "x = 4"
    shown = _act(client, workspace=forged, action="goto", node=1).json()
    assert shown["path"][1]["tier"] == "refuted"
    # So does one that writes a verdict of its own, with or without a seal.
    forged = json.loads(json.dumps(sealed))
    forged["nodes"][1]["latex"] = "x = 4"
    forged["nodes"][1]["verdict"]["reason"] = "trust me"
    forged["nodes"][1].pop("seal")
    shown = _act(client, workspace=forged, action="goto", node=1).json()
    assert shown["path"][1]["tier"] == "refuted" and "trust me" not in json.dumps(shown)
