"""Where ALPS's parallel work runs: on Ray when asked (``--ray``, or a cluster named by
``RAY_ADDRESS``, which it joins), otherwise on this machine. Both are the batch engine's backends
(``core.batch``); this is the one place ALPS makes the choice, and Ray itself is imported only
when it is chosen (``core.batch_ray`` imports it inside the backend)."""

from __future__ import annotations

from veristep.core.batch_ray import RayBackend, cluster_address


def ray_backend(use_ray: bool, workers: int) -> RayBackend | None:
    """A Ray backend when ``use_ray`` or ``RAY_ADDRESS`` asks for one, else None: run locally."""
    address = cluster_address()
    if not (use_ray or address):
        return None
    return RayBackend(address, workers)
