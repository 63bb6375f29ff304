"""The pages list: every saved page, newest first, searchable by title, titles escaped."""

from __future__ import annotations


def _save(client, title: str) -> str:
    r = client.post("/api/pages", json={"title": title, "blocks": []})
    assert r.status_code == 200, r.text
    return r.json()["id"]


def test_the_pages_list_shows_and_searches_saved_pages(client) -> None:
    empty = client.get("/pages")
    assert empty.status_code == 200 and "No pages yet" in empty.text
    assert 'href="/pages/new"' in empty.text
    first = _save(client, "Quadratics")
    second = _save(client, "100% of <b>roots</b>")
    listing = client.get("/pages").text
    assert listing.index(second) < listing.index(first)  # newest first
    assert "<b>roots</b>" not in listing and "&lt;b&gt;roots&lt;/b&gt;" in listing
    found = client.get("/pages", params={"q": "quad"}).text
    assert first in found and second not in found
    # A % or _ in the query is a character, not a wildcard.
    assert second in client.get("/pages", params={"q": "100%"}).text
    assert first not in client.get("/pages", params={"q": "%"}).text
    assert "No page title holds" in client.get("/pages", params={"q": "_"}).text
    api = client.get("/api/pages", params={"q": "Quad"}).json()["pages"]
    assert [p["id"] for p in api] == [first]
    assert client.get("/api/pages", params={"q": "x" * 201}).status_code == 422
