"""The workspace's JSON routes: the conversational CAS, pages with versions, the next-step game."""

from __future__ import annotations


def _act(client, **body):
    return client.post("/api/workspace", json=body)


def test_workspace_actions_round_trip_through_the_browser_json(client) -> None:
    view = _act(client, action="start", start="x^2 - 5x + 6 = 0").json()
    view = _act(client, workspace=view["workspace"], action="apply", command="factor").json()
    view = _act(client, workspace=view["workspace"], action="apply", command="solve for x").json()
    # solving is written out: each factor equal to zero, then each root, every line graded
    assert [s["tier"] for s in view["path"]] == [None, "grounded", "grounded", "grounded"]
    assert view["path"][-2]["latex"] == r"x - 2 = 0 \lor x - 3 = 0"
    assert view["path"][-1]["latex"] == r"x = 2 \lor x = 3"
    assert r"\htmlData{n=" in view["term"] and view["can_undo"] and not view["can_redo"]
    back = _act(client, workspace=view["workspace"], action="undo").json()
    assert len(back["path"]) == 3 and back["can_redo"]
    hint = _act(client, workspace=back["workspace"], action="suggest").json()
    assert hint["suggestion"]["operation"]


def test_workspace_errors_are_located_400s(client) -> None:
    view = _act(client, action="start", start="x = 1").json()
    r = _act(client, workspace=view["workspace"], action="apply", command="factr")
    assert r.status_code == 400 and "did you mean factor" in r.json()["message"]
    assert _act(client, action="start", start=r"\frac{").status_code == 400
    assert _act(client, action="dance").status_code == 422
    assert _act(client, action="start", start="x", extra=1).status_code == 422


def test_pages_save_versions_and_render(client) -> None:
    blocks = [{"kind": "markdown", "data": {"text": "# Hi\nSolve $x^2 = 4$."}},
              {"kind": "plot", "data": {"expr": "x^2 - 4", "from": -3, "to": 3}}]  # fmt: skip
    made = client.post("/api/pages", json={"title": "Roots", "blocks": blocks}).json()
    again = client.put(f"/api/pages/{made['id']}", json={"title": "Roots 2", "blocks": blocks[:1]})
    assert again.json()["version"] == 2
    got = client.get(f"/api/pages/{made['id']}", params={"version": 1}).json()
    assert got["versions"] == [1, 2] and len(got["page"]["blocks"]) == 2
    html = client.get(f"/pages/{made['id']}").text
    assert "Roots 2" in html and "version 2" in html
    old = client.get(f"/pages/{made['id']}", params={"version": 1}).text
    assert "<polyline" in old
    export = client.get(f"/pages/{made['id']}/export")
    assert "attachment" in export.headers["content-disposition"] and "<link" not in export.text
    assert client.get("/api/pages").json()["pages"][0]["id"] == made["id"]
    bad = client.post("/api/pages", json={"title": "x", "blocks": [{"kind": "plott", "data": {}}]})
    assert bad.status_code == 422 and "'plot'" in bad.json()["message"]
    assert "blocks.0" in bad.json()["message"]
    assert client.get("/api/pages/nope").status_code == 404


def test_exercise_choices_and_typed_answers(client) -> None:
    ex = client.post("/api/exercise", json={"prev": "2x + 3 = 7", "next": "2x = 4"}).json()
    choices = ex["exercise"]["choices"]
    assert sum(c["correct"] for c in choices) == 1
    assert all(c["tier"] == "refuted" for c in choices if not c["correct"])
    fb = client.post("/api/exercise/answer", json={"exercise": ex["exercise"], "answer": "2x = 5"})
    assert fb.json()["outcome"] == "wrong" and not fb.json()["counts"]
    fb = client.post("/api/exercise/answer", json={"exercise": ex["exercise"], "answer": "x = 2"})
    assert fb.json()["outcome"] in ("right-but-different", "right")


def test_html_shells_load(client) -> None:
    for url in ("/workspace", "/pages/new", "/play"):
        r = client.get(url)
        assert r.status_code == 200 and "/assets/workspace.js" in r.text


def test_a_saved_derivations_exercises_are_listed_then_built_once(client) -> None:
    from veristep.workspace.session import Workspace

    ws = Workspace("2x + 3 = 7")
    ws.apply("subtract 3 from both sides")
    ws.apply("divide both sides by 2")
    saved = client.post("/api/derivations", json={"derivation": ws.derivation().to_json()})
    ident = saved.json()["id"]
    listing = client.get(f"/api/derivations/{ident}/exercise-steps").json()
    assert listing["steps"] == [1, 2]
    # Asked for out of order while the background builds the first: each arrives, once.
    last = client.get(listing["urls"][1]).json()["exercise"]
    first = client.get(listing["urls"][0]).json()["exercise"]
    assert (first["step"], last["step"]) == (1, 2)
    assert first["state"] == ws.derivation().to_json()["states"][0]["latex"]
    assert sum(c["correct"] for c in last["choices"]) == 1
    assert client.get(listing["urls"][1]).json()["exercise"] == last  # kept, not rebuilt
    assert client.get(f"/api/derivations/{ident}/exercises/7").status_code == 400
    assert client.get("/api/derivations/nope/exercise-steps").status_code == 404


def test_a_verb_with_its_own_maths_starts_from_that_maths(client) -> None:
    view = _act(client, action="start", start="solve x^2 - 5x + 6 = 0").json()
    assert view["path"][0]["latex"] == "x^2 - 5x + 6 = 0"
    assert view["path"][-1]["tier"] in ("grounded", "verified") and view["plot"] is None
    assert "3" in view["path"][-1]["latex"] and "2" in view["path"][-1]["latex"]
    again = _act(client, workspace=view["workspace"], action="apply", command="factor x^3 - 1")
    assert again.status_code == 200, again.text
    again = again.json()
    assert again["path"][0]["latex"] == "x^3 - 1" and again["path"][1]["tier"] == "grounded"
    plotted = _act(
        client, workspace=again["workspace"], action="apply", command="plot sin x"
    ).json()
    assert "<polyline" in plotted["plot"] and "sin" in plotted["path"][0]["latex"]
    bad = _act(client, workspace=again["workspace"], action="apply", command="plot x y")
    assert bad.status_code == 400 and "y would too" in bad.json()["message"]
    typo = _act(client, workspace=again["workspace"], action="apply", command="factr")
    assert typo.status_code == 400 and "did you mean factor" in typo.json()["message"]
