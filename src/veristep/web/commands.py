"""``veristep serve``: run the web app with uvicorn, optionally importing derivation JSON first."""

from __future__ import annotations

import argparse
import json
import socket
import sqlite3
from pathlib import Path
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings

GRACE_S = 1.0  # on SIGTERM, requests in flight get this long before the server stops

HELP = "serve the web app (derive, step checker, gallery, chat) on 127.0.0.1:8000"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db", type=Path, default=None, help="SQLite file (default: in the user's data directory)"
    )
    parser.add_argument(
        "--import",
        dest="imports",
        metavar="JSON",
        type=Path,
        action="append",
        default=[],
        help="save a derivation JSON (from `veristep derive --json`) before serving; repeatable",
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from veristep.web.app import create_app, default_db_path

    if not 0 < args.port < 65536:
        raise InputError(f"--port must be between 1 and 65535, got {args.port}")
    db = args.db or default_db_path(settings)
    if db.exists() and db.is_dir():
        raise InputError(f"--db {db} is a directory, not a SQLite file")
    derivations = [(path, _load(path)) for path in args.imports]
    try:
        app = create_app(settings, db)
    except (OSError, sqlite3.DatabaseError) as exc:
        raise InputError(f"--db {db}: cannot use it as the SQLite store ({exc})") from None
    _check_listen(args.host, args.port)
    base = f"http://{args.host}:{args.port}"
    for path, derivation in derivations:
        ident = import_derivation(app.state.store, derivation, app.state.engine)
        print(f"veristep serve: {path} → {base}/d/{ident}", flush=True)
    print(f"veristep serve: {base}/  (database {db})", flush=True)
    from veristep.web.http_timeouts import HeaderTimeoutProtocol

    try:
        uvicorn.run(
            app, host=args.host, port=args.port, log_level="warning",
            http=HeaderTimeoutProtocol, timeout_graceful_shutdown=GRACE_S,
        )  # fmt: skip
    finally:
        _leave_now()
    return 0


def _leave_now() -> None:
    """End the process as soon as uvicorn has stopped (SIGTERM, Ctrl-C).

    A request still running holds a thread that nothing can stop, and the interpreter would wait
    for it at exit (minutes, for a slow check). Saved data is already committed (SQLite), so the
    CAS workers are killed and the process leaves without waiting.
    """
    import os
    import sys

    from veristep.core.pool import close_shared_pools

    close_shared_pools()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(0)


def _check_listen(host: str, port: int) -> None:
    """Fail now, with the flag named, if uvicorn could not listen there (its own failure is a
    log line and exit code 1 or 3, after the store has been opened)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise InputError(f"--host {host}: cannot resolve it ({exc})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise InputError(
                f"--host {host} --port {port}: cannot listen there ({reason})"
            ) from None


def _load(path: Path) -> dict[str, Any]:
    from veristep.core.verdicts import Derivation

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        Derivation.from_json(data)
    except OSError as exc:
        raise InputError(f"--import {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"--import {path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        detail = f"{type(exc).__name__}: {exc}"
        raise InputError(f"--import {path}: not a derivation JSON ({detail})") from None
    return data


def import_derivation(store: Any, derivation: dict[str, Any], engine: Any) -> str:
    """Grade ``derivation``'s chain here and save it, or refresh the row holding the same chain
    (so importing the same file at every start keeps one copy); return its id. The tiers in the
    file are never kept: they are a claim, not this server's grading."""
    from veristep.animate import build_payload
    from veristep.web.grading import regrade

    graded = regrade(engine, derivation)
    return store.save_unique(graded, build_payload(graded))
