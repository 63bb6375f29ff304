"""Property-based pages: Hypothesis writes pages, good and hostile, block by block.

Whatever a client sends, (1) the answer is never a 500, (2) a stored page can always be viewed
and exported, and (3) every tier a page shows is the one this server computes for that step —
the client's own tiers (which every generated block carries, forged) never show.
"""

from __future__ import annotations

import functools
import json
import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.grounding import check
from veristep.grounding.chain import judge_transition

STATES = ["2x = 6", "x = 3", "x = 4", "x^2 = 4", "x = 2", "x = -2", "2 \\cdot 3", "\\frac{", "y"]
TIERS = [t.name_lower for t in Tier]
CHANGE_TYPES = [None, "rewrite", "solve", "given"]
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=8),
    st.floats(allow_nan=True, allow_infinity=True), st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)  # fmt: skip


def _maybe_junk(strategy: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly the well-typed value; one time in twelve any JSON value in its place."""
    return st.integers(0, 11).flatmap(lambda k: JUNK if k == 0 else strategy)


forged = st.fixed_dictionaries({"tier": st.sampled_from(TIERS), "reason": st.just("forged")})
markdown = st.fixed_dictionaries({"text": _maybe_junk(st.text(max_size=60))})
plot = st.fixed_dictionaries(
    {"expr": _maybe_junk(st.sampled_from(["x^2", "\\sin x", "\\frac{1}{x}", "x +", "x y"]))},
    optional={"from": _maybe_junk(st.floats(-10, 10)), "to": _maybe_junk(st.floats(-10, 10)),
              "var": _maybe_junk(st.sampled_from(["x", "t", "xy"]))},
)  # fmt: skip


@st.composite
def derivation(draw: st.DrawFn) -> dict:
    states = draw(st.lists(st.sampled_from(STATES), min_size=1, max_size=4))
    steps = [
        {"tier": draw(st.sampled_from(TIERS)), "reason": "forged", "index": k,
         "change_type": draw(_maybe_junk(st.sampled_from(CHANGE_TYPES)))}
        for k in range(1, len(states) + (draw(st.integers(0, 9)) == 0))
    ]  # fmt: skip
    body = {"states": [{"latex": s} for s in states], "steps": steps,
            "confidence": {"tier": draw(st.sampled_from(TIERS))}}  # fmt: skip
    if draw(st.booleans()):
        body["target"] = draw(st.sampled_from(STATES))
    return {"derivation": draw(_maybe_junk(st.just(body)))}


@st.composite
def workspace(draw: st.DrawFn) -> dict:
    """A tree, or a graph with cycles, self-parents, missing parents and duplicate ids."""
    size = draw(st.integers(1, 5))
    ids = list(range(size))
    if draw(st.integers(0, 9)) == 0:  # duplicate or missing ids, no start
        ids = draw(st.lists(st.integers(0, 5), min_size=1, max_size=size))
    nodes = []
    for k, ident in enumerate(ids):
        tree_parent = None if k == 0 else draw(st.sampled_from(ids[:k]))
        hostile = draw(st.integers(0, 9)) == 0  # a self-parent, a missing one, a cycle
        parent = draw(st.sampled_from([None, ident, 9, *ids])) if hostile else tree_parent
        node = {"id": ident, "parent": parent, "latex": draw(st.sampled_from(STATES))}
        node.update(change_type=draw(st.sampled_from(CHANGE_TYPES)), verdict=draw(forged))
        if draw(st.integers(0, 19)) == 0:
            del node["latex"]
        nodes.append(node)
    cursor = draw(
        st.sampled_from([*ids, 7]) if draw(st.integers(0, 9)) == 0 else st.sampled_from(ids)
    )
    ws = {"start": nodes[0].get("latex", "x = 1"), "cursor": cursor,
          "nodes": nodes}  # fmt: skip
    return {"workspace": draw(_maybe_junk(st.just(ws)))}


choice = st.fixed_dictionaries({
    "latex": _maybe_junk(st.sampled_from(STATES)), "correct": st.booleans(),
    "tier": st.sampled_from(TIERS)})  # fmt: skip
exercise_body = st.fixed_dictionaries({
    "state": st.sampled_from(STATES), "expected": st.sampled_from(STATES),
    "choices": st.lists(choice, max_size=3)})  # fmt: skip
exercise = st.fixed_dictionaries({"exercise": _maybe_junk(exercise_body)})

unknown_kind = st.fixed_dictionaries({"kind": st.sampled_from(["plott", "", "script"]),
                                      "data": JUNK})  # fmt: skip
known_kind = st.one_of(
    st.fixed_dictionaries({"kind": st.just("markdown"), "data": markdown}),
    st.fixed_dictionaries({"kind": st.just("plot"), "data": plot}),
    st.fixed_dictionaries({"kind": st.just("derivation"), "data": derivation()}),
    st.fixed_dictionaries({"kind": st.just("workspace"), "data": workspace()}),
    st.fixed_dictionaries({"kind": st.just("exercise"), "data": exercise}),
)
block = st.integers(0, 19).flatmap(lambda k: unknown_kind if k == 0 else known_kind)


@functools.cache
def _step_tier(prev: str, nxt: str, change: str | None) -> str:
    return judge_transition(prev, nxt, change or "rewrite").tier.name_lower


@functools.cache
def _chain(states: tuple[str, ...], types: tuple[str, ...] | None, target: str | None) -> tuple:
    d = check(list(states), list(types) if types else None, target, Settings())
    return tuple(s.tier.name_lower for s in d.steps), d.confidence.tier.name_lower


def _expected_derivation(body: dict) -> tuple:
    states = tuple(s["latex"] for s in body["states"])
    types = tuple(s.get("change_type") for s in body["steps"])
    usable = len(types) == len(states) - 1 and all(isinstance(t, str) and t for t in types)
    return _chain(states, types if usable else None, body.get("target") or None)


def _shown_workspace_tiers(section: str) -> list[str]:
    return re.findall(r'<li class="vs-ws-step" data-tier="([a-z]+)"', section)


def _expected_workspace_tiers(ws: dict) -> list[str]:
    nodes = {n["id"]: n for n in ws["nodes"]}
    path, at = [], ws["cursor"]
    while at is not None:
        path.append(nodes[at])
        at = nodes[at]["parent"]
    path.reverse()
    latex = {**{n["id"]: n["latex"] for n in ws["nodes"]}, 0: ws["start"]}
    return ["start"] + [_step_tier(latex[n["parent"]], n["latex"], n.get("change_type"))
                        for n in path[1:]]  # fmt: skip


def _sections(page: str) -> list[str]:
    return re.split(r'<section class="vs-block ', page)[1:]


@pytest.mark.timeout(900)
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])  # fmt: skip
@given(blocks=st.lists(block, min_size=1, max_size=3))
def test_pages_are_never_a_500_always_viewable_and_show_only_server_tiers(client, blocks) -> None:
    r = client.post("/api/pages", json={"title": "P", "blocks": blocks})
    assert r.status_code in (200, 422), r.text
    if r.status_code == 422:
        event("refused")
        assert r.json()["error"] == "validation" and "blocks." in r.json()["message"]
        return
    event("stored: " + "+".join(sorted({b["kind"] for b in blocks})))
    ident = r.json()["id"]
    view, export = client.get(f"/pages/{ident}"), client.get(f"/pages/{ident}/export")
    assert view.status_code == 200 and export.status_code == 200
    assert "forged" not in view.text and "forged" not in export.text
    for sent, section in zip(blocks, _sections(view.text), strict=True):
        if sent["kind"] == "derivation":
            payload = json.loads(re.search(r'type="application/json"[^>]*>(.*?)</script>',
                                           section, re.S).group(1))  # fmt: skip
            steps, chain = _expected_derivation(sent["data"]["derivation"])
            assert tuple(s["tier"] for s in payload["steps"]) == steps
            assert payload["confidence"]["tier"] == chain
        elif sent["kind"] == "workspace":
            expected = _expected_workspace_tiers(sent["data"]["workspace"])
            assert _shown_workspace_tiers(section) == expected
