"""The same sweep on a local Ray instance (small pool): same cells, same verdicts."""

from __future__ import annotations

import pytest

from veristep.alps.sweep import LocalBackend, SweepStore, run_ladder

pytestmark = [pytest.mark.ray, pytest.mark.eprover, pytest.mark.slow]

LAWS = ["x = y ◇ (z ◇ y)", "x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))"]


def _verdicts(store: SweepStore) -> dict[str, str]:
    return {r["law"]: r["verdict"] for r in store.rows()}


def test_ray_backend_runs_the_ladder_like_the_local_pool(tmp_path, ray_backend):
    local = SweepStore(tmp_path / "local.sqlite", tmp_path / "local-certs")
    run_ladder(LAWS, ["e/triv/auto"], [3], local, LocalBackend(2), 1024, False)
    store = SweepStore(tmp_path / "s.sqlite", tmp_path / "certs")
    summary = run_ladder(LAWS, ["e/triv/auto"], [3], store, ray_backend, 1024, False)
    assert summary.ran == 2
    assert _verdicts(store) == _verdicts(local) == {LAWS[0]: "TRIVIAL", LAWS[1]: "AUSTIN"}
    again = run_ladder(LAWS, ["e/triv/auto"], [3], store, ray_backend, 1024, False)
    assert (again.ran, again.resumed) == (0, 2)  # a rerun resumes: no cell runs twice
