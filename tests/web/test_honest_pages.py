"""The server shows only tiers it computed, keeps failures out of the gallery, and never 500s on
a model's reply or an odd saved row. Gallery management, 404 pages and offline API docs."""

from __future__ import annotations

import json

from veristep.llm.testing import OpenAIStubServer
from veristep.web.store import DerivationStore


def _forged() -> dict:
    """``2x = 6 → x = 4`` (wrong: x = 3) claiming 🥇 everywhere."""
    states = ["2x = 6", "x = 4"]
    return {
        "start": states[0], "target": states[1],
        "states": [{"latex": s, "latex_ids": None} for s in states],
        "steps": [{"index": 1, "operation": "trust me", "expr_latex": states[1],
                   "justification": None, "change_type": "rewrite", "relation": "equivalent",
                   "tier": "grounded", "check": "symbolic_equivalence", "reason": "proved",
                   "witness": None, "ms": 1.0}],
        "endpoint": {"reached": True, "math_correct": True, "exact_graph": True},
        "confidence": {"tier": "grounded", "steps_verified": 1, "steps_total": 1, "refuted": 0,
                       "convertible": 2, "summary": "1/1 steps verified"},
        "proposer": {"kind": "symbolic", "model": None, "attempts": 1, "usage": None},
    }  # fmt: skip


def test_a_forged_grounded_derivation_is_regraded_before_it_is_saved(client):
    r = client.post("/api/derivations", json={"derivation": _forged(), "title": "forged"})
    assert r.status_code == 200, r.text
    ident = r.json()["id"]
    assert r.json()["tier"] == "refuted"
    got = client.get(f"/api/derivations/{ident}").json()
    assert got["tier"] != "grounded"
    assert [s["tier"] for s in got["derivation"]["steps"]] == ["refuted"]
    assert [s["tier"] for s in got["payload"]["steps"]] == ["refuted"]
    # The client's words survive; its verdict does not.
    assert got["derivation"]["steps"][0]["operation"] == "trust me"
    assert got["derivation"]["steps"][0]["reason"] != "proved"
    assert 'data-tier="grounded"' not in client.get("/gallery").text
    assert '"tier": "grounded"' not in client.get(f"/d/{ident}").text
    assert '"tier": "grounded"' not in client.get(f"/api/derivations/{ident}/export").text


def test_a_row_this_server_did_not_grade_shows_unchecked_and_a_numeric_start_is_fine(
    client, settings, tmp_path
):
    store = client.app.state.store
    legacy = {**_forged(), "start": 5, "target": None}
    ident = store.save(legacy, None, graded=False)
    gallery = client.get("/gallery")
    assert gallery.status_code == 200 and ident in gallery.text
    assert 'data-tier="grounded"' not in gallery.text
    page = client.get(f"/d/{ident}")
    assert page.status_code == 200 and '"tier": "grounded"' not in page.text
    got = client.get(f"/api/derivations/{ident}").json()
    assert got["tier"] == "unchecked" and got["graded"] is False
    assert {s["tier"] for s in got["derivation"]["steps"]} == {"unchecked"}


def test_a_store_from_before_the_graded_column_opens_with_rows_marked_ungraded(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE derivations (ident TEXT PRIMARY KEY, created REAL NOT NULL,"
            " title TEXT NOT NULL, tier TEXT, derivation TEXT NOT NULL, payload TEXT)"
        )
        conn.execute(
            "INSERT INTO derivations VALUES ('old', 1.0, 't', 'grounded', ?, NULL)",
            (json.dumps(_forged()),),
        )
    row = DerivationStore(path).get("old")
    assert row is not None and row.graded is False and row.summary()["tier"] == "unchecked"


def test_saving_the_same_chain_twice_keeps_one_row(client):
    body = {"states": ["2x = 6", "x = 3"], "save": True}
    first, second = (
        client.post("/api/check", json=body).json(),
        client.post("/api/check", json=body).json(),
    )
    assert first["id"] == second["id"]
    assert client.get("/api/derivations").json()["total"] == 1


def test_a_derive_that_fails_is_answered_but_not_saved(client):
    r = client.post("/api/derive", json={"start": "x^2 = 4", "target": "y = 7"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["id"] is None and body["not_saved"]
    assert client.get("/api/derivations").json()["total"] == 0


def test_llm_derive_with_an_unusable_model_saves_nothing_and_shows_no_grounded_tier(
    make_client, settings
):
    with OpenAIStubServer(lambda body: "I will not follow your format.") as server:
        configured = settings.replace(
            model="openai/stub-model", api_base=server.api_base, api_key="local"
        )
        client = make_client(configured)
        r = client.post(
            "/api/derive", json={"start": "2x + 3 = 9", "target": "x = 3", "proposer": "llm"}
        )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["id"] is None and "nothing to judge" in body["not_saved"]
    assert body["payload"]["confidence"]["tier"] != "grounded"
    assert client.get("/api/derivations").json()["total"] == 0


def test_chat_answers_an_unparseable_model_reply_without_a_500(make_client, settings):
    with OpenAIStubServer(lambda body: "no fields here, just prose") as server:
        configured = settings.replace(
            model="openai/stub-model", api_base=server.api_base, api_key="local"
        )
        r = make_client(configured).post("/api/chat", json={"message": "derive x = 1"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["model_error"] and "could not be used" in body["answer"]
    assert body["result"] is None and "Traceback" not in r.text


def test_rename_delete_and_search_the_gallery(client):
    ids = [
        client.post("/api/check", json={"states": [f"x + {i} = {i}", "x = 0"], "save": True})
        .json()["id"]
        for i in (1, 2)
    ]  # fmt: skip
    long = "a very long title " * 40
    r = client.patch(f"/api/derivations/{ids[0]}", json={"title": long})
    assert r.status_code == 200 and len(r.json()["title"]) <= 200
    r = client.patch(f"/api/derivations/{ids[0]}", json={"title": "Linear, renamed"})
    assert r.json()["title"] == "Linear, renamed"
    assert client.patch(f"/api/derivations/{ids[0]}", json={"title": "  "}).status_code == 400
    assert client.patch("/api/derivations/nope", json={"title": "x"}).status_code == 404
    page = client.get("/gallery", params={"q": "renamed"}).text
    assert ids[0] in page and ids[1] not in page and "Linear, renamed" in page
    assert "Nothing matches" in client.get("/gallery", params={"q": "100%"}).text  # % is literal
    assert client.delete(f"/api/derivations/{ids[1]}").json() == {"deleted": ids[1]}
    assert client.delete(f"/api/derivations/{ids[1]}").status_code == 404
    assert client.get("/api/derivations").json()["total"] == 1


def test_unknown_pages_are_html_404s_and_the_api_stays_json(client):
    r = client.get("/d/nope", headers={"accept": "text/html"})
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "Not found" in r.text and "{" not in r.text.split("<main")[1].split("</main>")[0]
    assert client.get("/no/such/page").status_code == 404
    api = client.get("/api/derivations/nope")
    assert api.status_code == 404 and api.json()["error"] == "http"


def test_api_docs_and_favicon_need_no_network(client):
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and "/api/derive" in docs.text and "/api/check" in docs.text
    assert "http://" not in docs.text and "https://" not in docs.text
    assert "``" not in docs.text and ":func:" not in docs.text  # reST shown as code, not markup
    assert "<code>started</code>" in docs.text  # from the derive stream's docstring
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")


def test_long_input_is_named_as_too_long_not_empty(client):
    r = client.get("/api/derive/stream", params={"start": "x" * 20_001, "target": "x = 1"})
    assert r.status_code == 400
    assert "20,001 characters" in r.json()["message"] and "non-empty" not in r.json()["message"]
