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

Rows carry ``graded``: whether this server computed the tiers itself. Rows written before that
column existed (or by anything but the grading routes) are 0, and the pages show their steps as
unchecked rather than repeat a tier nobody here computed. ``content_key`` identifies the same
chain (start, target, states, declared change types) so that re-importing or re-deriving it
updates one row instead of adding copies.
"""

from __future__ import annotations

import hashlib
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
    payload    TEXT,
    graded     INTEGER NOT NULL DEFAULT 0,
    content_key TEXT
);
CREATE INDEX IF NOT EXISTS derivations_created ON derivations (created);
"""
# Columns added after the first release: (name, declaration) for ALTER TABLE on older files.
_ADDED_COLUMNS = (("graded", "INTEGER NOT NULL DEFAULT 0"), ("content_key", "TEXT"))
_COLUMNS = "ident, created, title, tier, derivation, payload, graded"
MAX_TITLE = 200


@dataclass(frozen=True)
class SavedDerivation:
    ident: str
    created: float
    title: str
    tier: str | None
    derivation: dict[str, Any]
    payload: dict[str, Any] | None
    graded: bool = True

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.ident,
            "created": self.created,
            "title": self.title,
            "tier": self.tier if self.graded else "unchecked",
            "graded": self.graded,
        }


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
            have = {row[1] for row in conn.execute("PRAGMA table_info(derivations)")}
            for name, declaration in _ADDED_COLUMNS:
                if name not in have:
                    conn.execute(f"ALTER TABLE derivations ADD COLUMN {name} {declaration}")
            conn.execute("CREATE INDEX IF NOT EXISTS derivations_key ON derivations (content_key)")

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
        graded: bool = True,
    ) -> str:
        """Store a derivation (and its payload); return its new id.

        ``graded`` says that this server computed the tiers in ``derivation`` itself.
        """
        ident = secrets.token_urlsafe(8)
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO derivations"
                " (ident, created, title, tier, derivation, payload, graded, content_key)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    ident,
                    time.time(),
                    clean_title(title) or default_title(derivation),
                    _tier_of(derivation),
                    json.dumps(derivation, ensure_ascii=False),
                    None if payload is None else json.dumps(payload, ensure_ascii=False),
                    int(graded),
                    content_key(derivation),
                ),
            )
        return ident

    def save_unique(
        self,
        derivation: dict[str, Any],
        payload: dict[str, Any] | None = None,
        title: str | None = None,
        graded: bool = True,
    ) -> str:
        """Save, or refresh the row that holds the same chain (its id and title are kept)."""
        key = content_key(derivation)
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")  # the look-up and the write are one transaction
            row = conn.execute(
                "SELECT ident FROM derivations WHERE content_key = ? ORDER BY created LIMIT 1",
                (key,),
            ).fetchone()
            if row is not None:
                conn.execute(
                    "UPDATE derivations SET tier = ?, derivation = ?, payload = ?, graded = ?"
                    " WHERE ident = ?",
                    (
                        _tier_of(derivation),
                        json.dumps(derivation, ensure_ascii=False),
                        None if payload is None else json.dumps(payload, ensure_ascii=False),
                        int(graded),
                        row[0],
                    ),
                )
                conn.execute("COMMIT")
                return str(row[0])
            conn.execute("COMMIT")
        return self.save(derivation, payload, title, graded)

    def rename(self, ident: str, title: str) -> bool:
        """Give a saved derivation a new title; False when there is no such row."""
        title = clean_title(title)
        if not title:
            raise ValueError("a title must not be empty")
        with self._connect() as conn:
            cur = conn.execute("UPDATE derivations SET title = ? WHERE ident = ?", (title, ident))
        return cur.rowcount > 0

    def delete(self, ident: str) -> bool:
        with self._connect() as conn:
            cur = conn.execute("DELETE FROM derivations WHERE ident = ?", (ident,))
        return cur.rowcount > 0

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
                f"SELECT {_COLUMNS} FROM derivations WHERE ident = ?",
                (ident,),
            ).fetchone()
        return None if row is None else _row(row)

    def list(self, limit: int = 100, offset: int = 0, query: str = "") -> list[SavedDerivation]:
        """Newest first; ``query`` keeps the rows whose title contains it (any case)."""
        where, args = _search(query)
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM derivations{where}"
                " ORDER BY created DESC, rowid DESC LIMIT ? OFFSET ?",
                (*args, limit, offset),
            ).fetchall()
        return [_row(r) for r in rows]

    def count(self, query: str = "") -> int:
        where, args = _search(query)
        with self._connect() as conn:
            return int(conn.execute(f"SELECT COUNT(*) FROM derivations{where}", args).fetchone()[0])


def _search(query: str) -> tuple[str, tuple[str, ...]]:
    """A WHERE clause for titles containing ``query`` literally (LIKE wildcards escaped)."""
    query = (query or "").strip()
    if not query:
        return "", ()
    escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return " WHERE title LIKE ? ESCAPE '\\'", (f"%{escaped}%",)


def content_key(derivation: dict[str, Any]) -> str:
    """A hash of what makes two derivations the same chain, ignoring timings and verdicts."""
    states = derivation.get("states") or []
    steps = derivation.get("steps") or []
    parts = [
        str(derivation.get("start")),
        str(derivation.get("target")),
        [str(s.get("latex")) if isinstance(s, dict) else str(s) for s in states],
        [str(s.get("change_type")) if isinstance(s, dict) else "" for s in steps],
    ]
    text = json.dumps(parts, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def clean_title(title: str | None) -> str:
    """One line, at most ``MAX_TITLE`` characters (a long title must not flood the gallery)."""
    text = " ".join(str(title or "").split())
    return text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1] + "…"


def _tier_of(derivation: dict[str, Any]) -> str | None:
    confidence = derivation.get("confidence")
    tier = confidence.get("tier") if isinstance(confidence, dict) else None
    return tier if isinstance(tier, str) else None


def _row(row: tuple[Any, ...]) -> SavedDerivation:
    ident, created, title, tier, derivation, payload, graded = row
    return SavedDerivation(
        ident=ident,
        created=created,
        title=title,
        tier=tier,
        derivation=json.loads(derivation),
        payload=None if payload is None else json.loads(payload),
        graded=bool(graded),
    )


def default_title(derivation: dict[str, Any]) -> str:
    """Start ⟶ target: the title of a derivation nobody has renamed."""
    start = str(derivation.get("start") or "")
    target = derivation.get("target")
    return clean_title(f"{start}  ⟶  {target}" if target else start) or "untitled"
