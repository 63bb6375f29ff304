"""Saved proof reviews: one SQLite table beside the web store, a review trace per row.

A review's page (``/review/{id}``) and its offline export are rendered from the trace saved
here, so a shared link shows exactly what this server decided when it reviewed the proof.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS reviews (
    ident TEXT PRIMARY KEY,
    created REAL NOT NULL,
    title TEXT NOT NULL,
    verdict TEXT,
    trace TEXT NOT NULL
)
"""
TITLE_CHARS = 120


@dataclass(frozen=True)
class SavedReview:
    ident: str
    created: float
    title: str
    verdict: str | None
    trace: dict[str, Any]


class ReviewStore:
    """Review traces in one SQLite file; safe to share between request threads."""

    def __init__(self, path: Path, busy_timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
        try:
            conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout_s * 1000)}")
            yield conn
        finally:
            conn.close()

    def save(self, trace: dict[str, Any], title: str) -> str:
        ident = secrets.token_urlsafe(8)
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO reviews (ident, created, title, verdict, trace)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    ident,
                    time.time(),
                    " ".join(title.split())[:TITLE_CHARS] or "a proof",
                    trace.get("verdict"),
                    json.dumps(trace, ensure_ascii=False),
                ),
            )
        return ident

    def get(self, ident: str) -> SavedReview | None:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT ident, created, title, verdict, trace FROM reviews WHERE ident = ?",
                (ident,),
            ).fetchone()
        if row is None:
            return None
        return SavedReview(row[0], row[1], row[2], row[3], json.loads(row[4]))


def beside(store_path: Path) -> Path:
    """The review file next to the web store's file (same directory, its own name).

    >>> str(beside(Path("/d/web.sqlite3")))
    '/d/web-reviews.sqlite3'
    """
    return store_path.with_name(f"{store_path.stem}-reviews.sqlite3")
