"""Where ALPS's parallel work runs: on Ray when asked (``--ray``, or ``RAY_ADDRESS`` set, which
joins that cluster), otherwise on this machine. Both are the batch engine's backends
(``core.batch``); this is the one place ALPS makes the choice and reads ``RAY_ADDRESS``, and Ray
itself is imported only when it is chosen."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veristep.core.batch_ray import RayBackend


def ray_backend(use_ray: bool, workers: int) -> RayBackend | None:
    """A Ray backend when ``use_ray`` or ``RAY_ADDRESS`` asks for one, else None: run locally."""
    address = os.environ.get("RAY_ADDRESS")
    if not (use_ray or address):
        return None
    from veristep.core.batch_ray import RayBackend

    return RayBackend(address, workers)
