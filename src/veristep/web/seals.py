"""Seals on the verdicts the workspace API hands out, so that a verdict it gets back is its own.

The workspace is stateless on the server: the browser sends the whole tree with every action.
A verdict in that tree is therefore a claim, like a tier in a derivation JSON. Each verdict the
server computes leaves with an HMAC over what it judged (the parent state, the new state, the
declared change type, the assumptions) and the verdict itself; a verdict that comes back without
a seal that opens is dropped, and the step is judged again before it is shown.

The key lives in the server's data folder (created on first use, readable by its owner only), so
seals survive a restart; where it cannot be written, a key for this process alone is used.

>>> seal = Seal(b"k" * 32)
>>> node = {"latex": "x = 3", "change_type": "rewrite", "verdict": {"tier": "grounded"}}
>>> mark = seal.sign("2x = 6", node, ["a"])
>>> seal.opens("2x = 6", node, ["a"], mark), seal.opens("2x = 8", node, ["a"], mark)
(True, False)
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any

KEY_BYTES = 32


class Seal:
    def __init__(self, key: bytes) -> None:
        self._key = key

    @classmethod
    def in_folder(cls, folder: Path) -> Seal:
        """The key kept in ``folder`` (made on first use), or a key for this process alone."""
        path = Path(folder) / "veristep-web.key"
        with contextlib.suppress(OSError):
            key = path.read_bytes()
            if len(key) == KEY_BYTES:
                return cls(key)
        key = secrets.token_bytes(KEY_BYTES)
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(key)
        with contextlib.suppress(OSError):  # another server process may have won the race
            stored = path.read_bytes()
            if len(stored) == KEY_BYTES:
                key = stored
        return cls(key)

    def sign(self, parent_latex: str, node: dict[str, Any], positive: list[str]) -> str:
        return hmac.new(
            self._key, _message(parent_latex, node, positive), hashlib.sha256
        ).hexdigest()

    def opens(
        self, parent_latex: str, node: dict[str, Any], positive: list[str], mark: Any
    ) -> bool:
        if not isinstance(mark, str):
            return False
        return hmac.compare_digest(self.sign(parent_latex, node, positive), mark)


def _message(parent_latex: str, node: dict[str, Any], positive: list[str]) -> bytes:
    judged = {
        "parent": parent_latex,
        "latex": node.get("latex"),
        "change_type": node.get("change_type"),
        "positive": sorted(positive),
        "verdict": node.get("verdict"),
    }
    return json.dumps(judged, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
