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
