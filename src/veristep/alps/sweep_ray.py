"""ALPS on Ray: the backend of the portfolio sweep, of ``screen`` and of ``generate`` — the same
tasks as on the local process pool.

Ray is an optional extra (``pip install veristep[ray]``); joining a cluster (an ``address`` or
``RAY_ADDRESS``) or starting a small local instance is the batch engine's (``core.batch_ray``).
Results stream back in completion order and the parent commits each to the store, so resuming
works exactly as with the local pool.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from veristep.core.batch_ray import RayBackend as BatchRayBackend


class RayBackend(BatchRayBackend):
    def map_unordered(self, fn: Callable, items: list[tuple]) -> Iterator:
        ray = self._ray
        # One prover run per CPU, as on the local pool; a task whose worker dies (a node lost,
        # a process killed) is run again by Ray, and the parent commits each result once.
        remote = ray.remote(num_cpus=1, max_retries=3)(fn)
        pending = [remote.remote(*item) for item in items]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
