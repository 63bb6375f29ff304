"""The SQLite store: saved derivations survive a restart and concurrent saves lose nothing."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading

from veristep.web.store import DerivationStore


def _derivation(i: int) -> dict:
    return {"start": f"x = {i}", "target": f"x = {i}", "confidence": {"tier": "grounded"}}


def test_round_trip_and_survives_reopening(tmp_path):
    path = tmp_path / "d.sqlite3"
    ident = DerivationStore(path).save(_derivation(1), {"frames": []}, title="one")
    again = DerivationStore(path).get(ident)  # a new store object = a restarted server
    assert again is not None
    assert again.derivation == _derivation(1) and again.payload == {"frames": []}
    assert again.title == "one" and again.tier == "grounded"
    assert DerivationStore(path).get("missing") is None


def test_concurrent_thread_saves_lose_nothing(tmp_path):
    store = DerivationStore(tmp_path / "d.sqlite3")
    ids: list[str] = []
    lock = threading.Lock()

    def worker(base: int) -> None:
        for i in range(25):
            ident = store.save(_derivation(base + i))
            with lock:
                ids.append(ident)

    threads = [threading.Thread(target=worker, args=(k * 100,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(ids)) == 200
    assert store.count() == 200
    starts = {r.derivation["start"] for r in store.list(limit=500)}
    assert starts == {f"x = {k * 100 + i}" for k in range(8) for i in range(25)}


_SAVER = """
import sys
from veristep.web.store import DerivationStore
store = DerivationStore(sys.argv[1])
for i in range(20):
    store.save({"start": f"x = {int(sys.argv[2]) + i}", "target": None, "confidence": {}})
"""


def test_concurrent_process_saves_lose_nothing(tmp_path):
    path = str(tmp_path / "d.sqlite3")
    DerivationStore(path)
    procs = [subprocess.Popen([sys.executable, "-c", _SAVER, path, str(k * 100)]) for k in range(4)]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0, 0]
    assert DerivationStore(path).count() == 80
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode.lower() == "wal"


def test_list_is_newest_first_and_paged(tmp_path):
    store = DerivationStore(tmp_path / "d.sqlite3")
    made = [store.save(_derivation(i)) for i in range(5)]
    assert [r.ident for r in store.list()] == made[::-1]
    assert [r.ident for r in store.list(limit=2, offset=1)] == made[::-1][1:3]
