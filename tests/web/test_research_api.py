"""The research routes through the real app (TestClient): review, prove/check, laws; bad input."""

from __future__ import annotations

import json
import re

import pytest

FALSE_AND_TRUE = "We have $17 \\cdot 3 = 52$. Also $2^{10} = 1024$. Hence the claim holds."


def events(text: str) -> list[dict]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def test_review_streams_each_finding_then_saves_a_shareable_offline_report(client) -> None:
    r = client.post("/api/review/stream", json={"proof": FALSE_AND_TRUE})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    got = events(r.text)
    assert got[0] == {"event": "started", "has_model": False}
    steps = [e for e in got if e["event"] == "step"]
    assert [(e["id"], e["state"]) for e in steps] == [
        ("s1", "flawed"),
        ("s2", "verified"),
        ("s3", "open"),
    ]
    flawed = steps[0]
    assert flawed["flaw"]["kind"] == "computational_error" and "51" in flawed["flaw"]["witness"]
    assert flawed["checks"][0]["latex"] == "17 \\cdot 3 = 52"
    assert steps[1]["flaw"] is None and steps[1]["tier"] == "grounded"
    done = got[-1]
    assert done["event"] == "done" and done["verdict"] == "rejected"
    assert done["url"] == f"/review/{done['id']}"

    page = client.get(done["url"])
    assert page.status_code == 200 and 'id="review-data"' in page.text
    saved = client.get(f"/api/review/{done['id']}").json()
    assert [(s["id"], s["state"]) for s in saved["steps"]] == [
        ("s1", "flawed"),
        ("s2", "verified"),
        ("s3", "open"),
    ]
    export = client.get(done["url"] + "/export")
    assert export.status_code == 200 and "attachment" in export.headers["content-disposition"]
    assert "the left side is 51" in export.text
    # One offline file: no script, style or font is fetched from anywhere.
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", export.text)


def test_a_saved_page_escapes_what_the_proof_holds(client) -> None:
    proof = "We have $1 + 1 = 2$. </script><script>alert(1)</script>"
    done = events(client.post("/api/review/stream", json={"proof": proof}).text)[-1]
    page = client.get(done["url"]).text
    assert "<script>alert(1)" not in page


@pytest.mark.parametrize(
    ("url", "body", "where"),
    [
        ("/api/review/stream", {"proof": ""}, "proof"),
        ("/api/review/stream", {"proof": "x" * 20_001}, "proof"),
        ("/api/review/stream", {"proof": "ok", "model": "x"}, "model"),
        ("/api/review/stream", {"proof": 7}, "proof"),
        ("/api/review/stream", {"proof": "ok", "save": "yes"}, "save"),
        ("/api/prove/stream", {"name": "../etc/passwd"}, "name"),
        ("/api/prove/stream", {"name": "mathd_algebra_176", "budget_s": 1e9}, "budget_s"),
        ("/api/prove/stream", {"name": "mathd_algebra_176", "mcts_iterations": -1}, "mcts"),
        ("/api/prove/check", {"proof": ""}, "proof"),
        ("/api/prove/check", {"proof": "x", "expect": "a b"}, "expect"),
        ("/api/alps/law", {"law": "x" * 401}, "law"),
        ("/api/alps/judge", {"law": "x = y", "submission": ["a"]}, "submission"),
    ],
)
def test_bad_requests_are_422_naming_the_field(client, url, body, where) -> None:
    r = client.post(url, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "validation" and where in r.json()["message"]


def test_lone_surrogates_and_unknown_reviews_are_refused_cleanly(client) -> None:
    raw = b'{"proof": "\\ud800 x"}'
    r = client.post("/api/review/stream", content=raw, headers={"content-type": "application/json"})
    assert r.status_code in (400, 422) and "surrogate" in r.json()["message"]
    for path in ("/review/nope", "/review/..%2F..%2Fetc", "/api/review/" + "x" * 100):
        assert client.get(path).status_code == 404
    assert client.get("/review/nope/export").status_code == 404


def test_prove_refuses_a_missing_or_unknown_theorem_with_a_reason(client) -> None:
    r = client.post("/api/prove/stream", json={})
    assert r.status_code == 400 and "either a theorem name or a statement" in r.json()["message"]
    last = events(client.post("/api/prove/stream", json={"name": "mathd_algebra_4122"}).text)[-1]
    assert last["event"] == "error" and "unknown miniF2F theorem" in last["message"]
    assert "did you mean" in (last.get("hint") or last["message"]).lower()


def test_a_law_gets_its_etp_number_and_its_dual(client) -> None:
    out = client.post("/api/alps/law", json={"law": "x = y ◇ x"}).json()
    assert (out["id"], out["dual"]["law"], out["dual"]["id"]) == (5, "x = x ◇ y", 4)
    bad = client.post("/api/alps/law", json={"law": "x = y ◇"})
    assert bad.status_code == 400 and "column" in bad.json()["message"]


def test_a_wrong_chain_is_rejected_at_its_first_bad_link_and_a_good_one_accepted(client) -> None:
    law = "x = y ◇ z"
    chain = {"chain": ["a", "a ◇ a", "b"]}
    # Link 1 applies x = x ◇ y, link 2 (a ◇ a to b ◇ b) applies nothing, link 3 applies it again.
    wrong = {"chain": ["a", "a ◇ a", "b ◇ b", "b"]}
    ok = client.post("/api/alps/judge", json={"law": law, "submission": json.dumps(chain)})
    assert ok.json()["status"] == "accepted", ok.json()
    out = client.post("/api/alps/judge", json={"law": "x = x ◇ y", "submission": json.dumps(wrong)})
    assert out.json()["status"] == "rejected" and out.json()["message"].startswith("step 2 ")
    links = out.json()["certificate"]["links"]
    assert [(link["index"], link["ok"]) for link in links] == [(1, True), (2, False)]
    assert links[0]["application"]["sigma"] == {"x": "a", "y": "a"}
    junk = client.post("/api/alps/judge", json={"law": law, "submission": '{"chain": '}).json()
    assert junk["status"] == "invalid"


@pytest.mark.eprover
def test_a_law_screen_shows_its_status_and_a_finite_model(client) -> None:
    out = client.post("/api/alps/screen", json={"law": "x = y ◇ x"}).json()
    assert out["status"] == "HAS_FINITE_MODEL" and out["stages"]["finite_model"]["outcome"] == "yes"
    rows = [r.split() for r in out["model"].splitlines()]
    # The table is a model: a ◇ b = b for every a, b... read back from the shown table.
    assert all(rows[a][b] == str(b) for a in range(len(rows)) for b in range(len(rows)))


EVEN = "Let $n$ be an even integer. Then $n = 2k$ for some integer $k$. Hence $n^2 = 4k^2$ is even."


def test_with_a_model_the_agent_transitions_stream_after_the_machine_findings_dummylm(
    make_client, settings
) -> None:
    from dspy.utils import DummyLM

    from veristep.review.scripted import elaborate

    lm = DummyLM([elaborate(), elaborate(local=("s1",)), elaborate(local=("s2",))])
    client = make_client(settings, lm=lm)
    assert "A language model is configured" in client.get("/review").text
    got = events(client.post("/api/review/stream", json={"proof": EVEN}).text)
    assert got[0] == {"event": "started", "has_model": True}
    kinds = [e["event"] for e in got]
    # The machine findings come first: one per step, before any model call.
    steps = [e for e in got if e["event"] == "step"]
    assert [(e["id"], e["state"], e["elaboration"]) for e in steps[:3]] == [
        ("s1", "open", None),
        ("s2", "open", None),
        ("s3", "open", None),
    ]
    # Then each iteration sends the steps it changed (OPEN -> VERIFIED, with the model's
    # elaboration), then every step's state.
    assert kinds[4:] == ["step", "iteration"] * 3 + ["done"]
    assert [(e["id"], e["state"]) for e in steps[3:]] == [(f"s{i}", "verified") for i in (1, 2, 3)]
    assert all(e["elaboration"]["verdict"] == "verified" for e in steps[3:])
    iterations = [e for e in got if e["event"] == "iteration"]
    assert iterations[0]["states"]["s1"] == "verified"  # OPEN -> VERIFIED, as it happened
    assert iterations[-1]["states"] == {"s1": "verified", "s2": "verified", "s3": "verified"}
    done = got[-1]
    assert done["verdict"] == "accepted" and done["has_model"]
    # A model's elaboration is plausibility only: never grounded.
    assert {s["tier"] for s in done["steps"]} == {"plausible"}


@pytest.mark.eprover
def test_a_screen_sends_each_stages_certificate_a_prover_proof_for_12857(client) -> None:
    out = client.post("/api/alps/screen", json={"law": "x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)"})
    report = out.json()
    assert report["status"] == "AUSTIN_PROVEN", report
    admissible = report["certificates"]["admissible"]
    assert admissible["prover"] == "e/auto" and "SZS status Theorem" in admissible["text"]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # DSPy's note on LM subclasses
def test_a_review_past_its_deadline_stops_calling_the_model_dummylm(make_client, settings) -> None:
    import time

    from dspy.utils import DummyLM

    from veristep.review.scripted import elaborate

    calls: list[float] = []

    class SlowLM(DummyLM):
        """A fake model that takes 0.4 s a reply and counts its calls."""

        def forward(self, *args, **kwargs):
            calls.append(time.monotonic())
            time.sleep(0.4)
            return super().forward(*args, **kwargs)

    steps = " ".join(f"Then $n_{i}$ is even." for i in range(12))
    lm = SlowLM([elaborate()] * 60)
    client = make_client(settings.replace(web_request_timeout_s=1.5), lm=lm)
    got = events(client.post("/api/review/stream", json={"proof": steps}).text)
    assert got[-1]["event"] == "error" and "deadline" in got[-1]["message"]
    time.sleep(1.0)  # the review thread sees the spent budget at its next iteration
    settled = len(calls)
    time.sleep(2.0)
    assert len(calls) == settled, "the abandoned review kept calling the model"
    assert settled < 12  # it stopped well short of one call per step
