"""Certificates are sealed by content hash; a verdict is reproducible from its certificate."""

from __future__ import annotations

import json

import pytest

from veristep.alps.judge import JudgeConfig, certificates, judge
from veristep.alps.terms import parse_law, parse_term, replace_at, substitute, subterm_at


def test_chain_verdict_is_reproducible_and_saved_under_its_hash(tmp_path):
    cfg = JudgeConfig(cert_dir=tmp_path)
    first = judge("x = y ◇ z", {"chain": ["a", "a ◇ a", "b"]}, cfg)
    second = judge("x = y ◇ z", {"chain": ["a", "a ◇ a", "b"]}, cfg)
    assert first.certificate_hash == second.certificate_hash
    saved = certificates.load(tmp_path / f"{first.certificate_hash}.json")
    assert saved["status"] == "accepted" and saved["lean"]["status"] == "skipped"


def test_tampered_certificate_is_detected(tmp_path):
    v = judge("x = y ◇ z", {"chain": ["a", "b"]}, JudgeConfig(cert_dir=tmp_path))
    path = tmp_path / f"{v.certificate_hash}.json"
    cert = json.loads(path.read_text(encoding="utf-8"))
    cert["status"] = "accepted"
    path.write_text(json.dumps(cert), encoding="utf-8")
    with pytest.raises(ValueError, match="content hash"):
        certificates.load(path)


def test_per_link_matches_in_the_certificate_recheck_independently():
    """Replaying σ(lhs) → σ(rhs) at the recorded position reproduces every link."""
    law = parse_law("x = y ◇ (z ◇ y)")
    chain = ["a", "a ◇ (a ◇ a)", "a ◇ ((b ◇ (a ◇ b)) ◇ a)", "b"]
    v = judge(law, {"chain": chain})
    assert v.status == "accepted"
    for link in v.certificate["links"]:
        app = link["application"]
        sigma = {k: parse_term(t) for k, t in app["sigma"].items()}
        src, dst = (law.lhs, law.rhs) if app["direction"] == "forward" else (law.rhs, law.lhs)
        before, pos = parse_term(link["from"]), tuple(app["position"])
        assert subterm_at(before, pos) == substitute(src, sigma)
        assert replace_at(before, pos, substitute(dst, sigma)) == parse_term(link["to"])
