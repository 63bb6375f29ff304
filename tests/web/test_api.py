"""Every JSON endpoint, against the real grounding engine and symbolic proposer."""

from __future__ import annotations

import json
import re

import pytest

from veristep.web.agent import known_endpoints
from veristep.web.engine import Engine

QF_START, QF_TARGET = known_endpoints("quadratic formula")

LINEAR = {"start": "2x + 3 = 9", "target": "x = 3"}


def _events(client, **params) -> list[dict]:
    out = []
    with client.stream("GET", "/api/derive/stream", params=params) as resp:
        assert resp.status_code == 200
        assert resp.headers["content-type"].startswith("text/event-stream")
        for line in resp.iter_lines():
            if line.startswith("data: "):
                out.append(json.loads(line[6:]))
    return out


def test_health_and_vendored_assets_are_served(client):
    assert client.get("/api/health").json() == {"ok": True, "katex": "0.19.1"}
    css = client.get("/static/katex.css").text
    font = re.search(r"url\((katex/fonts/[\w-]+\.woff2)\)", css).group(1)
    assert client.get(f"/static/{font}").status_code == 200
    assert ".ttf" not in css
    assert client.get("/static/player.js").status_code == 200


def test_check_grades_each_step_and_refutes_a_wrong_one(client):
    r = client.post("/api/check", json={"states": ["2x + 3 = 9", "2x = 6", "x = 4"]})
    assert r.status_code == 200
    body = r.json()
    tiers = [s["tier"] for s in body["derivation"]["steps"]]
    assert tiers == ["grounded", "refuted"]
    assert body["derivation"]["confidence"]["tier"] == "refuted"
    assert [s["tier"] for s in body["payload"]["steps"]] == tiers
    assert len(body["payload"]["frames"]) == 3
    assert body["id"] is None  # checks are not saved unless asked


def test_check_with_bad_latex_reports_an_unchecked_step_quoting_the_fragment(client):
    r = client.post("/api/check", json={"states": ["2x = 6", r"x = \fracc{6}{2}"], "save": True})
    assert r.status_code == 200
    step = r.json()["derivation"]["steps"][0]
    assert step["tier"] == "unchecked" and "fracc" in step["reason"]
    assert r.json()["id"] and client.get(r.json()["url"]).status_code == 200


def test_derive_with_bad_latex_is_a_located_json_error(client):
    r = client.post("/api/derive", json={"start": r"2x + \fracc{3}{1} = 9", "target": "x = 3"})
    assert r.status_code == 400
    body = r.json()
    assert body["fragment"] == r"\fracc" and body["hint"] == r"\frac"
    assert "column 6" in body["message"] and "Traceback" not in r.text


def test_derive_saves_and_every_read_endpoint_serves_it(client):
    r = client.post("/api/derive", json=LINEAR)
    assert r.status_code == 200
    body = r.json()
    ident = body["id"]
    assert body["url"] == f"/d/{ident}"
    assert body["derivation"]["confidence"]["tier"] == "grounded"
    assert body["derivation"]["proposer"]["kind"] == "symbolic"
    got = client.get(f"/api/derivations/{ident}").json()
    assert got["derivation"] == body["derivation"] and got["payload"] == body["payload"]
    listed = client.get("/api/derivations").json()
    assert listed["total"] == 1 and listed["derivations"][0]["id"] == ident
    page = client.get(f"/d/{ident}")
    assert page.status_code == 200 and 'data-veristep-payload="vs-payload"' in page.text
    assert ident in client.get("/gallery").text
    export = client.get(f"/api/derivations/{ident}/export")
    assert export.status_code == 200
    assert "attachment" in export.headers["content-disposition"]
    assert "data:font/woff2;base64," in export.text and "/static/" not in export.text


def test_save_endpoint_validates_the_derivation_json(client):
    made = client.post("/api/check", json={"states": ["x + 1 = 2", "x = 1"]}).json()
    r = client.post("/api/derivations", json={"derivation": made["derivation"], "title": "mine"})
    assert r.status_code == 200
    assert client.get(f"/api/derivations/{r.json()['id']}").json()["title"] == "mine"
    bad = client.post("/api/derivations", json={"derivation": {"start": "x"}})
    assert bad.status_code == 400 and bad.json()["error"] == "input"


def test_stream_reports_attempts_then_done(client):
    events = _events(client, **LINEAR)
    kinds = [e["event"] for e in events]
    assert kinds[0] == "started" and kinds[-1] == "done" and "attempt" in kinds
    attempt = next(e for e in events if e["event"] == "attempt")
    assert attempt["steps"] and all("tier" in s for s in attempt["steps"])
    done = events[-1]
    assert client.get(f"/api/derivations/{done['id']}").status_code == 200


def test_stream_with_bad_latex_ends_with_an_error_event(client):
    events = _events(client, start=r"2x + \fracc 3 = 9", target="x = 3")
    assert events[-1]["event"] == "error" and events[-1]["fragment"] == r"\fracc"


def test_oversized_bodies_are_refused_with_json(make_client, settings):
    client = make_client(settings.replace(web_max_body_bytes=2_000))
    big = {"states": ["x = 1"] * 1000}
    r = client.post("/api/check", json=big)
    assert r.status_code == 413 and r.json()["error"] == "too_large"

    def chunks():  # no content-length: the limit must hold while streaming too
        for _ in range(10):
            yield b"[" + b" " * 500

    r = client.post("/api/check", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "limit" in r.json()["message"]


def test_a_derivation_that_times_out_answers_504(make_client, settings):
    client = make_client(settings.replace(web_request_timeout_s=0.05))
    r = client.post("/api/derive", json={"start": QF_START, "target": QF_TARGET, "save": True})
    assert r.status_code == 504
    assert r.json()["error"] == "timeout" and "deadline" in r.json()["message"]
    assert client.get("/api/derivations").json()["total"] == 0


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"target": "x = 1"}, 422),  # missing start (a missing target is a goal-only task)
        ({"start": "x = 1", "target": "x = 1", "proposr": "llm"}, 422),  # typo'd field
        ({"start": "x = 1", "target": "x = 1", "proposer": "oracle"}, 400),
        ({"start": "", "target": "x = 1"}, 422),
    ],
)
def test_bad_requests_are_json_errors(client, body, status):
    r = client.post("/api/derive", json=body)
    assert r.status_code == status
    assert set(r.json()) >= {"error", "message"}


def test_not_found_and_malformed_json(client):
    r = client.get("/api/derivations/nope")
    assert r.status_code == 404 and r.json()["error"] == "http"
    assert client.get("/d/nope").status_code == 404
    r = client.post(
        "/api/check", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and r.json()["error"] == "validation"


class _ExplodingEngine(Engine):
    def check(self, *args, **kwargs):
        raise RuntimeError("secret internal path /etc/passwd")


def test_internal_errors_never_leak_a_stack_trace(make_client, settings):
    client = make_client(settings, engine=_ExplodingEngine(settings))
    r = client.post("/api/check", json={"states": ["x = 1", "x = 1"]})
    assert r.status_code == 500
    assert r.json() == {"error": "internal", "message": "internal error: RuntimeError"}
    assert "secret" not in r.text and "Traceback" not in r.text


@pytest.mark.parametrize(
    ("path", "marker"),
    [("/", 'id="derive-form"'), ("/check", 'id="check-form"'), ("/gallery", 'id="gallery"'),
     ("/chat", 'id="chat-form"')],
)  # fmt: skip
def test_pages_are_served_with_local_assets_only(client, path, marker):
    r = client.get(path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert marker in r.text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", r.text)
    for asset in re.findall(r"""(?:src|href)="(/(?:static|assets)/[^"]+)\"""", r.text):
        assert client.get(asset).status_code == 200, asset


def test_derive_without_a_target_states_the_checked_answer(client):
    for body in ({"start": "2x + 3 = 25"}, {"start": "2x + 3 = 25", "target": "  "}):
        d = client.post("/api/derive", json={**body, "save": False}).json()["derivation"]
        assert d["goal"] == "solve" and d["target"] is None
        assert d["states"][-1]["latex"] == "x = 11"
        assert d["endpoint"]["reached"] and d["confidence"]["tier"] == "grounded"
        assert d["answer"]["stated"] and d["answer"]["sentence"] == "$x = 11$"
        assert d["answer"]["substitution"]["holds"] is True  # 11 substituted back


def test_derive_with_task_words_and_a_goal_field(client):
    d = client.post("/api/derive", json={"start": "factor x^2 - 5x + 6", "save": False}).json()
    assert d["derivation"]["goal"] == "factor"
    assert "factors as" in d["derivation"]["answer"]["sentence"]
    r = client.post("/api/derive", json={"start": "x^2 - 1", "goal": "factor", "save": False})
    assert r.json()["derivation"]["answer"]["latex"].count("x") == 2  # (x - 1)(x + 1)
    r = client.post("/api/derive", json={"start": "x^2 - 1", "goal": "tidy", "save": False})
    assert r.status_code == 400 and "unknown goal" in r.json()["message"]


def test_derive_answers_a_wrong_target_with_the_right_one(client):
    body = {"start": "2x + 8 = 30", "target": "x = 12", "save": False}
    d = client.post("/api/derive", json=body).json()["derivation"]
    assert not d["endpoint"]["reached"]
    said = d["endpoint"]["correction"]
    assert said.startswith("$x = 12$ does not solve it")
    assert "the left side is $32$, the right side $30$" in said and "$x = 11$" in said


def test_stream_without_a_target_ends_with_the_answer(client):
    events = _events(client, start="x^2 - 5x + 6 = 0")
    assert events[0]["event"] == "started" and events[-1]["event"] == "done"
    answer = events[-1]["derivation"]["answer"]
    assert answer["sentence"] == "the solutions are $x = 2$ and $x = 3$"


def test_check_of_one_equation_judges_the_claim(client):
    d = client.post("/api/check", json={"states": ["(a+b)^2 = a^2 + b^2"]}).json()["derivation"]
    assert d["claim"]["verdict"] == "false" and d["confidence"]["tier"] == "refuted"
    d = client.post("/api/check", json={"states": ["(a+b)^2 = a^2+2ab+b^2"]}).json()["derivation"]
    assert d["claim"]["verdict"] == "true" and d["confidence"]["tier"] == "grounded"


def test_a_saved_goal_only_derivation_is_regraded_against_its_goal(client):
    d = client.post("/api/derive", json={"start": "2x + 3 = 25", "save": False}).json()
    forged = d["derivation"]
    forged["states"] = forged["states"][:2]  # stops at 2x = 22: not solved
    forged["steps"] = forged["steps"][:1]
    forged["answer"] = {"stated": True, "sentence": "$x = 99$"}  # a client's claim
    r = client.post("/api/derivations", json={"derivation": forged})
    saved = client.get(f"/api/derivations/{r.json()['id']}").json()["derivation"]
    assert saved["endpoint"]["reached"] is False
    assert saved["answer"]["stated"] is False and "99" not in saved["answer"]["sentence"]
