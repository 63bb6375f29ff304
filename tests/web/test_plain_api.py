"""The web API reads plain typed maths and answers with the LaTeX each state was read as."""

from __future__ import annotations


def test_check_answers_with_the_latex_each_plain_state_was_read_as(client):
    r = client.post("/api/check", json={"states": ["3/4 y = 6", "y = 8"]})
    assert r.status_code == 200
    doc = r.json()
    derivation = doc.get("derivation", doc)
    assert [s["latex"] for s in derivation["states"]] == [r"\frac{3}{4} y = 6", "y = 8"]
    assert [s["tier"] for s in derivation["steps"]] == ["grounded"]
    frame = doc["payload"]["frames"][0]  # what the player renders with KaTeX
    assert frame["latex"] == r"\frac{3}{4} y = 6" and "\\frac{" in frame["tex"]


def test_an_ambiguous_plain_state_is_unchecked_with_its_column(client):
    r = client.post("/api/check", json={"states": ["y = 1/2x", "y = 1"]})
    assert r.status_code == 200
    doc = r.json()
    derivation = doc.get("derivation", doc)
    state = derivation["states"][0]
    assert state["latex"] == "y = 1/2x" and "column 8" in state["error"]
    assert derivation["steps"][0]["tier"] == "unchecked"
