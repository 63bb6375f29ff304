"""Fixtures shared by every test package."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).parent
TEST_DATA = TESTS_DIR / "data"  # slices of the public corpora, each with licence and provenance


def pytest_configure(config: pytest.Config) -> None:
    """Product loaders read ``$VERISTEP_DATA_ROOT``; in tests it is always the repository's slices
    (from collection on), never a full corpus the user fetched: the asserted figures are fixed."""
    os.environ["VERISTEP_DATA_ROOT"] = str(TEST_DATA)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The corpora the tests read: ``tests/data`` (see its README for what each slice holds)."""
    return TEST_DATA


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium driven by Playwright, one browser per test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from veristep.web.testing import chromium_path, launch_chromium

    if chromium_path() is None:
        pytest.fail("chromium is not installed (Debian package: chromium)")
    with sync_api.sync_playwright() as pw:
        browser = launch_chromium(pw)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def ray_backend():
    """The batch engine on a local Ray instance of two CPUs, one per test module (Ray starts
    slowly); never a cluster named by ``RAY_ADDRESS``."""
    pytest.importorskip("ray")
    from veristep.core.batch_ray import RayBackend

    saved = os.environ.pop("RAY_ADDRESS", None)
    backend = RayBackend(num_cpus=2)
    try:
        yield backend
    finally:
        backend.close()
        if saved is not None:
            os.environ["RAY_ADDRESS"] = saved


@pytest.fixture
def ray_address(ray_backend) -> str:
    """The address of the fixture's Ray instance, for a driver in another process to join."""
    import ray

    return ray.get_runtime_context().gcs_address
