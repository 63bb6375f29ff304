"""SQLite store of saved derivations: one row per derivation, its JSON and its animation payload.

Each operation opens its own connection so that concurrent requests (uvicorn's thread pool) never
share a cursor; WAL mode lets readers proceed while a writer commits, and ``busy_timeout`` makes a
second writer wait for the lock instead of failing, so concurrent saves lose nothing.

>>> import tempfile, pathlib
>>> store = DerivationStore(pathlib.Path(tempfile.mkdtemp()) / "d.sqlite3")
>>> ident = store.save({"start": "x=1", "target": "x=1", "confidence": {"tier": "grounded"}})
>>> store.get(ident).derivation["start"]
'x=1'
>>> [row.ident for row in store.list()] == [ident]
True
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
CREATE TABLE IF NOT EXISTS derivations (
    ident      TEXT PRIMARY KEY,
    created    REAL NOT NULL,
    title      TEXT NOT NULL,
    tier       TEXT,
    derivation TEXT NOT NULL,
    payload    TEXT
);
CREATE INDEX IF NOT EXISTS derivations_created ON derivations (created);
"""


@dataclass(frozen=True)
class SavedDerivation:
    ident: str
    created: float
    title: str
    tier: str | None
    derivation: dict[str, Any]
    payload: dict[str, Any] | None

    def summary(self) -> dict[str, Any]:
        return {"id": self.ident, "created": self.created, "title": self.title, "tier": self.tier}


class DerivationStore:
    """Saved derivations in one SQLite file; safe to share between threads and processes."""

    def __init__(self, path: Path, busy_timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as conn:
            # WAL is a property of the file, so setting it once at creation is enough.
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

    def save(
        self,
        derivation: dict[str, Any],
        payload: dict[str, Any] | None = None,
        title: str | None = None,
    ) -> str:
        """Store a derivation (and its payload); return its new id."""
        ident = secrets.token_urlsafe(8)
        tier = (derivation.get("confidence") or {}).get("tier")
        title = title or _title(derivation)
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO derivations (ident, created, title, tier, derivation, payload)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    ident,
                    time.time(),
                    title,
                    tier,
                    json.dumps(derivation, ensure_ascii=False),
                    None if payload is None else json.dumps(payload, ensure_ascii=False),
                ),
            )
        return ident

    def find(self, derivation: dict[str, Any]) -> str | None:
        """The id of a saved derivation with exactly this JSON, if any (imports stay idempotent)."""
        text = json.dumps(derivation, ensure_ascii=False)
        with self._connect() as conn:
            row = conn.execute(
                "SELECT ident FROM derivations WHERE derivation = ? ORDER BY created LIMIT 1",
                (text,),
            ).fetchone()
        return None if row is None else str(row[0])

    def get(self, ident: str) -> SavedDerivation | None:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT ident, created, title, tier, derivation, payload FROM derivations"
                " WHERE ident = ?",
                (ident,),
            ).fetchone()
        return None if row is None else _row(row)

    def list(self, limit: int = 100, offset: int = 0) -> list[SavedDerivation]:
        """Newest first."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT ident, created, title, tier, derivation, payload FROM derivations"
                " ORDER BY created DESC, rowid DESC LIMIT ? OFFSET ?",
                (limit, offset),
            ).fetchall()
        return [_row(r) for r in rows]

    def count(self) -> int:
        with self._connect() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM derivations").fetchone()[0])


def _row(row: tuple[Any, ...]) -> SavedDerivation:
    ident, created, title, tier, derivation, payload = row
    return SavedDerivation(
        ident=ident,
        created=created,
        title=title,
        tier=tier,
        derivation=json.loads(derivation),
        payload=None if payload is None else json.loads(payload),
    )


def _title(derivation: dict[str, Any]) -> str:
    start = derivation.get("start") or ""
    target = derivation.get("target")
    return f"{start}  ⟶  {target}" if target else start
