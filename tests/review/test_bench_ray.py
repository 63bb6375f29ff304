"""``review --bench --ray`` on a local Ray instance against the OpenAI stub server: the three
systems give the local pool's verdicts, and a resumed sweep asks the model nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veristep.cli import main

pytestmark = [pytest.mark.ray, pytest.mark.slow]


def _verdicts(folder: Path) -> dict[str, list[tuple[str, str, int | None]]]:
    out = {}
    for path in sorted(folder.glob("opc-*.jsonl")):
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        out[path.stem] = [(r["key"], r["verdict"], r["flagged"]) for r in rows]
    return out


def test_review_bench_on_ray_gives_the_local_verdicts_openai_stub_server(
    tmp_path, stub_server, monkeypatch, capsys, ray_backend
):
    monkeypatch.setenv("VERISTEP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DSPY_CACHEDIR", str(tmp_path / "dspy-cache"))
    monkeypatch.setenv("VERISTEP_API_BASE", stub_server.api_base)
    monkeypatch.setenv("VERISTEP_API_KEY", "stub-key")
    base = ["review", "--bench", "opc", "--limit", "2", "--model", "openai/stub", "--json"]
    assert main([*base, "--out", str(tmp_path / "local"), "--workers", "2"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*base, "--out", str(tmp_path / "ray"), "--ray"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert on_ray["metrics"] == local["metrics"] and set(on_ray["metrics"]) == {
        "agent", "global", "sentence",
    }  # fmt: skip
    ray_rows = _verdicts(tmp_path / "ray" / "openai_stub")
    assert ray_rows == _verdicts(tmp_path / "local" / "openai_stub") and len(ray_rows) == 3
    asked = len(stub_server.requests)
    assert main([*base, "--out", str(tmp_path / "ray"), "--ray", "--resume"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"] == on_ray["metrics"]
    assert len(stub_server.requests) == asked
