"""Where the public corpora live: ``$VERISTEP_DATA_ROOT``, else ``shared/data`` by the checkout."""

from __future__ import annotations

import os
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parents[3]


def shared_data_dir(environ: dict[str, str] | None = None) -> Path | None:
    """The folder holding the corpora (stack_equiv/, etp/, alps_dev/, ...), or None if absent."""
    env = os.environ if environ is None else environ
    candidates = []
    if env.get("VERISTEP_DATA_ROOT"):
        candidates.append(Path(env["VERISTEP_DATA_ROOT"]))
    candidates += [_REPO_ROOT.parent / "shared" / "data", _REPO_ROOT / "shared" / "data"]
    for path in candidates:
        if path.is_dir():
            return path
    return None


def require_shared_data(*parts: str) -> Path:
    """A file or folder inside the corpora, with a clear error when it is missing."""
    from veristep.core.errors import InputError

    root = shared_data_dir()
    if root is None:
        raise InputError(
            "public corpora not found: set VERISTEP_DATA_ROOT to the shared data folder"
        )
    path = root.joinpath(*parts)
    if not path.exists():
        raise InputError(f"corpus file not found: {path}")
    return path
