"""SQLite storage of screening results: one row per law, one row per (law, stage) with its
certificate text; exported to JSONL in the shape of ALPS's ``final_status.jsonl``.

>>> import tempfile, pathlib
>>> db = ScreenStore(pathlib.Path(tempfile.mkdtemp()) / "s.sqlite")
>>> db.save(LawReport("x = y ◇ z", "TRIVIAL", [StageResult("trivial", "yes", "Theorem")], 5.0))
>>> db.finished() == {"x = y ◇ z"}
True
>>> next(db.export())["status"]
'TRIVIAL'
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from veristep.alps.stages import Outcome, StageResult
from veristep.core.errors import InputError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS laws (
    law TEXT PRIMARY KEY, status TEXT NOT NULL, ms REAL NOT NULL, extra TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS stages (
    law TEXT NOT NULL, stage TEXT NOT NULL, outcome TEXT NOT NULL, detail TEXT NOT NULL,
    prover TEXT NOT NULL, ms REAL NOT NULL, certificate TEXT NOT NULL,
    PRIMARY KEY (law, stage)
);
"""


@dataclass
class LawReport:
    law: str
    status: str
    stages: list[StageResult]
    ms: float
    extra: dict[str, object] = field(default_factory=dict)

    def stage(self, name: str) -> StageResult | None:
        return next((s for s in self.stages if s.stage == name), None)

    def to_json(self) -> dict[str, object]:
        """ALPS's row shape plus the per-stage outcomes (certificates stay in the database)."""
        adm = self.stage("admissible")
        nt = self.stage("nontrivial")
        fm = self.stage("finite_model")
        return {
            "law": self.law,
            "status": self.status,
            "no_finite_model": bool(adm and adm.outcome == "yes"),
            "nontrivial_model": bool(nt and nt.outcome == "yes"),
            "witness": adm.detail if adm and adm.outcome == "yes" else None,
            "model": fm.certificate if fm and fm.outcome == "yes" else None,
            "secs": round(self.ms / 1000, 3),
            "stages": {s.stage: {"outcome": s.outcome, "detail": s.detail} for s in self.stages},
            **self.extra,
        }


class ScreenStore:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path)
            self.conn.executescript(_SCHEMA)
        except (OSError, sqlite3.DatabaseError) as exc:
            # A --db that names a directory, an unwritable place or a file that is not SQLite
            # is the user's input, not an internal failure.
            raise InputError(f"cannot use {self.path} as a results database: {exc}") from None

    def close(self) -> None:
        self.conn.close()

    def save(self, report: LawReport) -> None:
        # One transaction per law: a crash leaves either the whole law or none of it.
        with self.conn:
            self.conn.execute("DELETE FROM stages WHERE law = ?", (report.law,))
            self.conn.executemany(
                "INSERT INTO stages VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (report.law, s.stage, s.outcome, s.detail, s.prover, s.ms, s.certificate)
                    for s in report.stages
                ],
            )
            self.conn.execute(
                "INSERT OR REPLACE INTO laws VALUES (?, ?, ?, ?)",
                (report.law, report.status, report.ms, json.dumps(report.extra)),
            )

    def finished(self) -> set[str]:
        return {row[0] for row in self.conn.execute("SELECT law FROM laws")}

    def load(self, law: str) -> LawReport | None:
        query = "SELECT status, ms, extra FROM laws WHERE law = ?"
        row = self.conn.execute(query, (law,)).fetchone()
        if row is None:
            return None
        stages = [
            StageResult(stage, Outcome(outcome), detail, cert, prover, ms)
            for stage, outcome, detail, prover, ms, cert in self.conn.execute(
                "SELECT stage, outcome, detail, prover, ms, certificate FROM stages WHERE law = ?"
                " ORDER BY rowid",
                (law,),
            )
        ]
        return LawReport(law, row[0], stages, row[1], json.loads(row[2]))

    def certificate(self, law: str, stage: str) -> str | None:
        row = self.conn.execute(
            "SELECT certificate FROM stages WHERE law = ? AND stage = ?", (law, stage)
        ).fetchone()
        return row[0] if row else None

    def export(self) -> Iterator[dict[str, object]]:
        for (law,) in self.conn.execute("SELECT law FROM laws ORDER BY rowid").fetchall():
            report = self.load(law)
            if report is not None:
                yield report.to_json()

    def export_jsonl(self, out: Path) -> int:
        count = 0
        with open(out, "w", encoding="utf-8") as fh:
            for row in self.export():
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                count += 1
        return count
