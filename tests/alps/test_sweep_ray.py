"""The same sweep on a local Ray instance (small pool): same cells, same verdicts."""

from __future__ import annotations

import pytest

from veristep.alps.sweep import SweepStore, run_ladder

pytestmark = [pytest.mark.ray, pytest.mark.eprover, pytest.mark.slow]


def test_ray_backend_runs_the_ladder_like_the_local_pool(tmp_path, monkeypatch):
    pytest.importorskip("ray")
    from veristep.alps.sweep_ray import RayBackend

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    backend = RayBackend(num_cpus=2)
    try:
        store = SweepStore(tmp_path / "s.sqlite", tmp_path / "certs")
        laws = ["x = y ◇ (z ◇ y)", "x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))"]
        summary = run_ladder(laws, ["e/triv/auto"], [3], store, backend, 1024, False)
    finally:
        backend.close()
    assert summary.ran == 2
    verdicts = {r["law"]: r["verdict"] for r in store.rows()}
    assert verdicts == {laws[0]: "TRIVIAL", laws[1]: "AUSTIN"}
