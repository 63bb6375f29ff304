"""The batch engine on Ray (an optional extra, imported only here).

With an ``address`` (or ``RAY_ADDRESS``, which ``ray.init`` reads itself) the run joins an
existing cluster; without one it starts a local instance. Results stream back in completion order
and the driver commits each to the store, so a rerun resumes exactly as with the local pool.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any

from veristep.core.batch_task import RETRIES, Result, Task, TaskFn, guarded
from veristep.core.errors import InputError


def cluster_address() -> str | None:
    """The Ray cluster to join: ``RAY_ADDRESS``, the variable Ray itself reads, or None. The one
    place veristep reads it (ALPS also takes it as a request to run on Ray)."""
    return os.environ.get("RAY_ADDRESS") or None


class RayBackend:
    name = "ray"

    def __init__(
        self, address: str | None = None, num_cpus: int | None = None, retries: int = RETRIES
    ) -> None:
        try:
            import ray
        except ImportError:
            raise InputError(
                "--ray needs the optional extra: pip install 'veristep[ray]'"
            ) from None
        self._ray = ray
        self._retries = retries
        address = address or cluster_address()  # a cluster takes no num_cpus
        self._started = not ray.is_initialized()
        if self._started:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)

    def run(
        self, fn: TaskFn, items: Sequence[tuple[int, Task]], context: Any = None
    ) -> Iterator[tuple[int, Result]]:
        ray = self._ray
        # A task whose worker dies (a node lost, a process killed) is run again by Ray; one that
        # keeps killing workers gets its own error result.
        remote = ray.remote(num_cpus=1, max_retries=self._retries)(guarded)
        shared = ray.put(context)  # sent to the object store once, not with every task
        pending = {remote.remote(fn, task, shared): index for index, task in items}
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                index = pending.pop(done[0])
                try:
                    result = ray.get(done[0])
                except ray.exceptions.RayError as exc:
                    result = {"error": f"worker lost: {type(exc).__name__}"}
                yield index, result
        finally:  # an interrupt or a stop: what is still queued or running on the cluster ends
            for ref in pending:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
