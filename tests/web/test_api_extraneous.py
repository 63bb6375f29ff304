"""The web checker judges a rejected extraneous root against the start, like ``veristep check``."""

from __future__ import annotations

RADICAL = [r"\sqrt{x+2} = x", "x + 2 = x^2", r"x = -1 \lor x = 2"]


def test_rejecting_the_extraneous_root_is_grounded_with_the_value_named(client):
    r = client.post("/api/check", json={"states": [*RADICAL, "x = 2"]})
    assert r.status_code == 200
    last = r.json()["derivation"]["steps"][-1]
    assert (last["tier"], last["relation"]) == ("grounded", "narrows")
    assert "drops -1, which does not solve the start" in last["reason"]


def test_dropping_the_real_root_stays_a_lost_solution(client):
    r = client.post("/api/check", json={"states": [*RADICAL, "x = -1"]})
    body = r.json()["derivation"]
    last = body["steps"][-1]
    assert (last["tier"], last["relation"]) == ("plausible", "narrows")
    assert "loses 2" in last["reason"] and "a lost solution" in last["reason"]
    assert body["confidence"]["tier"] == "refuted"  # and the answer −1 fails the start
