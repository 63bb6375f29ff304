"""ALPS on Ray: the backend of the portfolio sweep, of ``screen`` and of ``generate`` — the same
tasks as on the local process pool.

Ray is an optional extra (``pip install veristep[ray]``) and is imported only here. With an
``address`` (or ``RAY_ADDRESS``, which ``ray.init`` reads itself) the sweep joins an existing
cluster; without one it starts a small local instance. Results stream back in completion order
and the parent commits each to the store, so resuming works exactly as with the local pool.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from veristep.core.errors import InputError


class RayBackend:
    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise InputError(
                "--ray needs the optional extra: pip install 'veristep[ray]'"
            ) from None
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)

    def map_unordered(self, fn: Callable, items: list[tuple]) -> Iterator:
        ray = self._ray
        # One prover run per CPU, as on the local pool; a task whose worker dies (a node lost,
        # a process killed) is run again by Ray, and the parent commits each result once.
        remote = ray.remote(num_cpus=1, max_retries=3)(fn)
        pending = [remote.remote(*item) for item in items]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
