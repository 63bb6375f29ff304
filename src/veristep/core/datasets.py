"""Where the public corpora live: ``$VERISTEP_DATA_ROOT``, else where ``veristep data fetch`` puts
them.

There is deliberately no third place: nothing is looked up relative to the checkout, so a clone
behaves the same wherever it sits.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ROOT_VAR = "VERISTEP_DATA_ROOT"


def fetched_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The folder ``veristep data fetch`` unpacks into: ``corpora/`` in the user data directory."""
    env = os.environ if environ is None else environ
    if env.get("VERISTEP_DATA_DIR"):
        return Path(env["VERISTEP_DATA_DIR"]) / "corpora"
    from veristep.core.settings import _default_data_dir

    return _default_data_dir() / "corpora"


def shared_data_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """The folder holding the corpora (stack_equiv/, etp/, alps_dev/, ...), or None if absent."""
    env = os.environ if environ is None else environ
    if env.get(ROOT_VAR):
        root = Path(env[ROOT_VAR])
        return root if root.is_dir() else None  # a set variable is never silently overridden
    fetched = fetched_data_dir(env)
    return fetched if fetched.is_dir() else None


def require_shared_data(*parts: str) -> Path:
    """A file or folder inside the corpora, with a clear error when it is missing."""
    from veristep.core.errors import InputError

    root = shared_data_dir()
    if root is None:
        where = os.environ.get(ROOT_VAR)
        if where:
            raise InputError(f"{ROOT_VAR}={where} is not a folder")
        raise InputError(
            f"public corpora not found: run `veristep data fetch` or set {ROOT_VAR} to their folder"
        )
    path = root.joinpath(*parts)
    if not path.exists():
        hint = f" (run `veristep data fetch {parts[0]}`)" if parts else ""
        raise InputError(f"corpus file not found: {path}{hint}")
    return path
