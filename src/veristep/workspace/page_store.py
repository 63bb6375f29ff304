"""SQLite store of pages with versions: every save is a new version, none is overwritten.

One row per page (its current title and latest version number) and one row per saved version
(the whole page as JSON). Each call opens its own connection (safe across a web server's
threads); WAL and a busy timeout let concurrent saves queue instead of failing, and the version
number is assigned inside the writing transaction, so two saves never get the same number.

>>> import tempfile, pathlib
>>> from veristep.workspace.pages import Block, Page
>>> store = PageStore(pathlib.Path(tempfile.mkdtemp()) / "pages.sqlite3")
>>> ident = store.save(Page("Roots", (Block("markdown", {"text": "hi"}),)))
>>> store.save(Page("Roots, again"), ident)
2
>>> store.get(ident).page.title, store.get(ident, version=1).page.title
('Roots, again', 'Roots')
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

from veristep.core.errors import InputError
from veristep.workspace.pages import Page

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    ident   TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    title   TEXT NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS page_versions (
    ident   TEXT NOT NULL REFERENCES pages (ident) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    saved   REAL NOT NULL,
    body    TEXT NOT NULL,
    PRIMARY KEY (ident, version)
);
"""


class MissingPage(InputError):
    """No page (or no such version of it) in the store: a 404, not a bad request."""


MAX_VERSION = 2**53  # SQLite integers are 64-bit: a larger number would be an OverflowError


@dataclass(frozen=True)
class StoredPage:
    ident: str
    version: int
    saved: float
    page: Page


@dataclass(frozen=True)
class PageSummary:
    ident: str
    title: str
    version: int
    updated: float


class PageStore:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=30000")
            db.execute("PRAGMA foreign_keys=ON")
            yield db
        finally:
            db.close()

    def save(self, page: Page, ident: str | None = None) -> str | int:
        """A new page (returns its id) or a new version of ``ident`` (returns the version)."""
        body = json.dumps(page.to_json(), ensure_ascii=False)
        now = time.time()
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")  # the version number is read and written atomically
            try:
                if ident is None:
                    new = secrets.token_urlsafe(8)
                    db.execute("INSERT INTO pages VALUES (?, ?, ?, ?, 1)",
                               (new, now, now, page.title))  # fmt: skip
                    db.execute("INSERT INTO page_versions VALUES (?, 1, ?, ?)", (new, now, body))
                    db.execute("COMMIT")
                    return new
                row = db.execute("SELECT version FROM pages WHERE ident = ?", (ident,)).fetchone()
                if row is None:
                    raise MissingPage(f"no page {ident!r}")
                version = int(row[0]) + 1
                db.execute("UPDATE pages SET version = ?, updated = ?, title = ? WHERE ident = ?",
                           (version, now, page.title, ident))  # fmt: skip
                db.execute("INSERT INTO page_versions VALUES (?, ?, ?, ?)",
                           (ident, version, now, body))  # fmt: skip
                db.execute("COMMIT")
                return version
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def get(self, ident: str, version: int | None = None) -> StoredPage:
        if version is not None and not 1 <= version <= MAX_VERSION:
            raise MissingPage(f"no page {ident!r} version {version}: versions count from 1")
        with self._connect() as db:
            if version is None:
                row = db.execute(
                    "SELECT v.version, v.saved, v.body FROM page_versions v JOIN pages p "
                    "ON p.ident = v.ident AND p.version = v.version WHERE p.ident = ?",
                    (ident,),
                ).fetchone()
            else:
                row = db.execute(
                    "SELECT version, saved, body FROM page_versions "
                    "WHERE ident = ? AND version = ?",
                    (ident, version),
                ).fetchone()
        if row is None:
            which = f" version {version}" if version is not None else ""
            raise MissingPage(f"no page {ident!r}{which}")
        return StoredPage(ident, int(row[0]), float(row[1]), Page.from_json(json.loads(row[2])))

    def versions(self, ident: str) -> list[tuple[int, float]]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT version, saved FROM page_versions WHERE ident = ? ORDER BY version",
                (ident,),
            ).fetchall()
        if not rows:
            raise MissingPage(f"no page {ident!r}")
        return [(int(v), float(t)) for v, t in rows]

    def list(self, query: str = "", limit: int = 500) -> list[PageSummary]:
        """The pages, most recently saved first; ``query`` keeps those whose title holds it."""
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._connect() as db:
            rows = db.execute(
                "SELECT ident, title, version, updated FROM pages WHERE title LIKE ? ESCAPE '\\' "
                "ORDER BY updated DESC LIMIT ?",
                (pattern, max(1, min(limit, 5_000))),
            ).fetchall()
        return [PageSummary(str(i), str(t), int(v), float(u)) for i, t, v, u in rows]

    def delete(self, ident: str) -> None:
        with self._connect() as db:
            db.execute("DELETE FROM page_versions WHERE ident = ?", (ident,))
            gone = db.execute("DELETE FROM pages WHERE ident = ?", (ident,)).rowcount
        if not gone:
            raise MissingPage(f"no page {ident!r}")
