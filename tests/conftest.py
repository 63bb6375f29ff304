"""Fixtures shared by every test package."""

from __future__ import annotations

from pathlib import Path

import pytest

from veristep.core.datasets import shared_data_dir

TESTS_DIR = Path(__file__).parent


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The public corpora folder; the suite expects it (CI lays it beside the checkout)."""
    root = shared_data_dir()
    if root is None:
        pytest.fail("public corpora not found: set VERISTEP_DATA_ROOT")
    return root


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
