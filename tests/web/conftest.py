from __future__ import annotations

import pytest

from veristep.core.settings import Settings


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings().replace(data_dir=tmp_path / "data", web_request_timeout_s=120.0)


@pytest.fixture
def make_client(tmp_path):
    """A TestClient factory over a fresh app: ``make_client(settings, db_path=None, **kwargs)``."""
    from fastapi.testclient import TestClient

    from veristep.web.app import create_app

    clients = []

    def make(settings: Settings, db_path=None, **kwargs):
        app = create_app(settings, db_path or tmp_path / "web.sqlite3", **kwargs)
        client = TestClient(app, raise_server_exceptions=False)
        clients.append(client)
        return client

    yield make
    for c in clients:
        c.close()


@pytest.fixture
def client(make_client, settings):
    return make_client(settings)


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    """Screenshots go to $VERISTEP_ARTIFACTS when set, else pytest's temporary folder."""
    import os
    from pathlib import Path

    root = os.environ.get("VERISTEP_ARTIFACTS")
    path = Path(root) if root else tmp_path_factory.mktemp("artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A live app on 127.0.0.1 with a fresh data folder, one per test module (browser tests)."""
    from veristep.web.app import create_app
    from veristep.web.testing import live_server

    tmp = tmp_path_factory.mktemp("app")
    with live_server(create_app(Settings().replace(data_dir=tmp), tmp / "app.sqlite3")) as url:
        yield url
