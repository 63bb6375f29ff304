"""Per-step progress: the streamed derive and check endpoints send one ``step`` event per judged
step, in order, before the final answer, against the real grounding engine and symbolic planner."""

from __future__ import annotations

import json

import veristep.grounding
import veristep.propose
from veristep.web.engine import Engine, accepts_keyword

LINEAR = {"start": "2x + 3 = 9", "target": "x = 3"}
CHAIN = ["2x + 3 = 9", "2x = 6", "x = 4", r"x = \fracc{4}{1}"]  # grounded, refuted, unchecked


def _read(resp) -> list[dict]:
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/event-stream")
    out, name = [], None
    for line in resp.iter_lines():
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            event = json.loads(line[6:])
            assert event["event"] == name  # the SSE event name matches the payload
            out.append(event)
    return out


def _steps_by_attempt(events: list[dict]) -> dict[int, list[dict]]:
    grouped: dict[int, list[dict]] = {}
    for e in events:
        if e["event"] == "step":
            grouped.setdefault(e["attempt"], []).append(e)
    return grouped


def test_check_stream_sends_each_step_as_judged_then_the_answer(client):
    with client.stream("POST", "/api/check/stream", json={"states": CHAIN}) as resp:
        events = _read(resp)
    assert [e["event"] for e in events] == ["started", "step", "step", "step", "done"]
    assert events[0]["total"] == 3
    steps = events[1:4]
    assert [(s["index"], s["total"]) for s in steps] == [(1, 3), (2, 3), (3, 3)]
    assert [s["tier"] for s in steps] == ["grounded", "refuted", "unchecked"]
    assert [s["icon"] for s in steps] == ["🥇", "✗", "○"]
    assert "fracc" in steps[2]["reason"] and all(s["reason"] for s in steps)
    done = events[-1]
    final = done["derivation"]["steps"]
    assert [(s["index"], s["tier"], s["reason"]) for s in steps] == [
        (s["index"], s["tier"], s["reason"]) for s in final
    ]
    assert done["id"] is None and done["payload"]["steps"]


def test_check_stream_errors_are_json_events_or_plain_errors(client):
    bad = {"states": ["x = 1", "x = 1"], "change_types": ["bogus"]}
    with client.stream("POST", "/api/check/stream", json=bad) as resp:
        events = _read(resp)
    assert [e["event"] for e in events] == ["started", "error"]
    assert events[-1]["error"] == "input" and "bogus" in events[-1]["message"]
    r = client.post("/api/check/stream", json={"states": []})
    assert r.status_code == 422 and r.json()["error"] == "validation"


def test_derive_stream_sends_every_attempts_steps_before_its_verdict(client):
    with client.stream("GET", "/api/derive/stream", params=LINEAR) as resp:
        events = _read(resp)
    kinds = [e["event"] for e in events]
    assert kinds[0] == "started" and kinds[-1] == "done"
    attempts = [e for e in events if e["event"] == "attempt"]
    assert attempts
    grouped = _steps_by_attempt(events)
    for att in attempts:
        steps = grouped[att["attempt"]]
        last_step = max(i for i, e in enumerate(events) if e in steps)
        assert last_step < events.index(att)  # a draft's steps come before its verdict
        assert [s["index"] for s in steps] == list(range(1, len(att["steps"]) + 1))
        assert {s["total"] for s in steps} == {len(att["steps"])}
        assert [s["tier"] for s in steps] == [s["tier"] for s in att["steps"]]
    done = events[-1]
    best = grouped[done["derivation"]["proposer"]["best_attempt"]]
    assert [s["tier"] for s in best] == [s["tier"] for s in done["derivation"]["steps"]]
    assert done["derivation"]["confidence"]["tier"] == "grounded"


def test_engine_forwards_on_step_live_when_derive_accepts_it(settings, monkeypatch):
    """``propose.derive(on_step=...)`` forwards the callback to grounding: the events must arrive
    while each draft is being grounded, not replayed after it."""
    log: list[object] = []
    real_check = veristep.grounding.check

    def check(*args, **kw):
        derivation = real_check(*args, **kw)
        log.append("grounded")  # the moment this draft's check returned
        return derivation

    monkeypatch.setattr(veristep.grounding, "check", check)
    assert accepts_keyword(veristep.propose.derive, "on_step")
    out = Engine(settings).derive(LINEAR["start"], LINEAR["target"], progress=log.append)
    first_attempt = next(
        i for i, e in enumerate(log) if isinstance(e, dict) and e["event"] == "attempt"
    )
    head = log[:first_attempt]
    assert head[-1] == "grounded" and all(e["event"] == "step" for e in head[:-1])
    assert [e["attempt"] for e in head[:-1]] == [1] * (len(head) - 1)
    assert [e["index"] for e in head[:-1]] == list(range(1, len(head) - 1 + 1))
    assert out["confidence"]["tier"] == "grounded"


def test_engine_replays_each_attempts_steps_when_derive_has_no_on_step(settings, monkeypatch):
    real_derive = veristep.propose.derive

    def derive_without_on_step(start, target, *, settings, proposer, on_attempt):
        return real_derive(start, target, settings=settings, proposer=proposer,
                           on_attempt=on_attempt)  # fmt: skip

    monkeypatch.setattr(veristep.propose, "derive", derive_without_on_step)
    assert not accepts_keyword(veristep.propose.derive, "on_step")
    events: list[dict] = []
    out = Engine(settings).derive(LINEAR["start"], LINEAR["target"], progress=events.append)
    kinds = [e["event"] for e in events]
    assert kinds[:3] == ["step", "step", "attempt"]
    assert [(e["attempt"], e["index"], e["total"]) for e in events[:2]] == [(1, 1, 2), (1, 2, 2)]
    assert [e["tier"] for e in events[:2]] == [s["tier"] for s in events[2]["steps"]]
    assert [s["tier"] for s in out["steps"]] == ["grounded", "grounded"]
