"""ALPS part 2: certificates — everything a verdict rests on, saved under its content hash.

A certificate is a JSON object (law, channel, submission, verdict, the chain's per-link matches
or the construction's prover transcripts and model table, tool versions). Its hash is SHA-256
over the canonical JSON (sorted keys, no whitespace, UTF-8), so the file name proves the
content has not changed since the verdict, and two identical judgements share one file.

>>> cert = {"law": "x = y ◇ z", "verdict": "accepted"}
>>> h = content_hash(cert)
>>> h == content_hash({"verdict": "accepted", "law": "x = y ◇ z"}), len(h)
(True, 64)
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

HASH_FIELD = "content_hash"


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def content_hash(cert: dict[str, Any]) -> str:
    """SHA-256 of the certificate without its own hash field."""
    body = {k: v for k, v in cert.items() if k != HASH_FIELD}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def seal(cert: dict[str, Any]) -> dict[str, Any]:
    return {**cert, HASH_FIELD: content_hash(cert)}


def save(cert: dict[str, Any], directory: Path) -> Path:
    """Write ``<hash>.json`` atomically; returns its path (an existing identical file is kept)."""
    sealed = cert if cert.get(HASH_FIELD) == content_hash(cert) else seal(cert)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{sealed[HASH_FIELD]}.json"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(sealed, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)
    return path


def load(path: Path) -> dict[str, Any]:
    """Read a certificate and verify its hash; a tampered file raises ``ValueError``."""
    cert = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(cert, dict) or cert.get(HASH_FIELD) != content_hash(cert):
        raise ValueError(f"{path.name}: content hash does not match the certificate")
    return cert
