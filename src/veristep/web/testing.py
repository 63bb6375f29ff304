"""Test support: the web app in a background uvicorn thread, and Debian's Chromium for Playwright.

Playwright's own browser download is not used: Debian's ``chromium`` is driven through
``executable_path`` with the flags that keep it off the network at start-up.

>>> "--no-sandbox" in CHROMIUM_ARGS
True
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def chromium_path() -> str | None:
    """Debian's Chromium, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def launch_chromium(playwright: Any) -> Any:
    """A headless Chromium browser (Playwright's ``Browser``) from the system package."""
    path = chromium_path()
    if path is None:
        raise RuntimeError("chromium is not installed (Debian package: chromium)")
    return playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS), headless=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def live_server(app: Any, port: int | None = None, timeout_s: float = 20.0) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 in a daemon thread; yield its base URL; stop it on exit."""
    import uvicorn

    port = port or free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="veristep-live-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout_s
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the test server did not start on port {port}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=timeout_s)


def offline_context(browser: Any, **options: Any) -> tuple[Any, list[str]]:
    """A browser context with the network cut off: ``file:`` and ``data:`` load, every other
    request is refused. Returns the context and the list of every URL it was asked for, so a
    test can assert that a page fetched nothing."""
    context = browser.new_context(**options)
    context.set_offline(True)
    asked: list[str] = []

    def gate(route: Any) -> None:
        asked.append(route.request.url)
        if route.request.url.startswith(("file:", "data:")):
            route.continue_()
        else:
            route.abort()

    context.route("**/*", gate)
    return context, asked


def fetched_from_network(asked: list[str]) -> list[str]:
    """The URLs among ``asked`` that were neither a local file nor inline data."""
    return [url for url in asked if not url.startswith(("file:", "data:"))]
