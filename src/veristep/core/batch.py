"""One batch engine: a list of tasks in, a result store out, on a local process pool or on Ray.

Each task is a JSON value handed to one module-level function (``fn(task, context) -> dict``;
``context`` is one picklable value shared by every task, such as the settings). Its result is
stored in SQLite under the hash of the function's name, a ``salt`` (what in the context changes
results) and the task, so a rerun skips what is
stored (resume) and a changed input is graded again. Results are committed as they arrive, so
Ctrl-C keeps everything finished. A worker that dies (a segfault, an external kill, a node lost)
has its task run again, at most ``retries`` times; a task that keeps killing workers, or raises,
gets an ``{"error": ...}`` result of its own and costs no other task. A result marked
``{"transient": reason}`` (the task could not run for a reason outside its input, such as a model
endpoint that is down) is reported but not stored, so a rerun runs that task again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from veristep.core.batch_task import RETRIES, TRANSIENT, Result, Task, TaskFn, guarded
from veristep.core.interrupts import ignore_interrupts, killing_pool
from veristep.core.mainless import no_main_reimport


def task_key(fn: TaskFn, task: Task, salt: str = "") -> str:
    """The store key of ``task`` under ``fn``: the same input graded by the same function."""
    name = f"{fn.__module__}.{fn.__qualname__}"
    text = json.dumps(task, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(f"{name}\n{salt}\n{text}".encode("utf-8", "surrogatepass")).hexdigest()


class Store(Protocol):
    """Where results are kept by task key: :class:`ResultStore`, or a command's own store (ALPS
    keeps its laws and certificates in its own tables) behind the same two calls."""

    def get(self, key: str) -> Result | None: ...

    def put(self, key: str, result: Result) -> None: ...


class ResultStore:
    """Results by task key in one SQLite file (``":memory:"`` keeps them for this run only)."""

    def __init__(self, path: str | Path = ":memory:") -> None:
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, result TEXT NOT NULL)"
            )
            self._db.commit()

    def get(self, key: str) -> Result | None:
        with self._lock:
            row = self._db.execute("SELECT result FROM results WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, result: Result) -> None:
        text = json.dumps(result, ensure_ascii=False)
        with self._lock:  # committed at once: an interrupt right after keeps this result
            self._db.execute("INSERT OR REPLACE INTO results VALUES (?, ?)", (key, text))
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


def remove_store(path: str | Path) -> None:
    """Delete a store file and SQLite's companions: the next run starts from nothing."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


class Backend(Protocol):
    """Where tasks run: ``run`` yields ``(index, result)`` pairs in completion order."""

    name: str

    def run(
        self, fn: TaskFn, items: Sequence[tuple[int, Task]], context: Any = None
    ) -> Iterator[tuple[int, Result]]: ...

    def close(self) -> None: ...


class SerialBackend:
    """This process, one task after another (one worker: no second copy of the caller)."""

    name = "serial"

    def run(
        self, fn: TaskFn, items: Sequence[tuple[int, Task]], context: Any = None
    ) -> Iterator[tuple[int, Result]]:
        for index, task in items:
            yield index, guarded(fn, task, context)

    def close(self) -> None:
        pass


class LocalBackend:
    """A process pool on this machine (forkserver: no copy of a threaded parent, and the
    caller's script is not run again in the workers).

    At most two tasks per worker are handed out at a time, so a dead worker (which breaks the
    whole pool) loses only those; each lost task then runs alone in a fresh one-worker pool,
    where a death is its own, up to ``retries`` more times, while the rest go on in a new pool.
    """

    name = "local"

    def __init__(self, workers: int = 2, retries: int = RETRIES) -> None:
        self.workers = max(1, workers)
        self.retries = retries

    def run(
        self, fn: TaskFn, items: Sequence[tuple[int, Task]], context: Any = None
    ) -> Iterator[tuple[int, Result]]:
        todo = deque(items)
        while todo:
            lost = yield from self._pool_pass(fn, todo, context, self.workers)
            for index, task in lost:
                yield index, self._alone(fn, task, context)

    def _alone(self, fn: TaskFn, task: Task, context: Any) -> Result:
        for _ in range(self.retries + 1):
            single = deque([(0, task)])
            passes = list(_drain(self._pool_pass(fn, single, context, 1)))
            if passes and passes[0][1] is not None:
                return passes[0][1]
        return {"error": f"worker died on this input ({self.retries + 1} runs)"}

    def _pool_pass(
        self, fn: TaskFn, todo: deque[tuple[int, Task]], context: Any, workers: int
    ) -> Generator[tuple[int, Result], None, list[tuple[int, Task]]]:
        """Run tasks from ``todo`` until it is empty or a worker dies; the tasks in flight when
        the pool broke are returned."""
        import multiprocessing

        ctx = multiprocessing.get_context("forkserver")
        executor = ProcessPoolExecutor(workers, ctx, initializer=ignore_interrupts)
        pending: dict[Future, tuple[int, Task]] = {}
        lost: list[tuple[int, Task]] = []
        with no_main_reimport(), killing_pool(executor) as pool:
            while (todo or pending) and not lost:
                if not _hand_out(pool, fn, todo, context, pending, 2 * workers) and not pending:
                    break  # the pool broke with nothing in flight: the next pass starts a new one
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    item = pending.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        lost.append(item)
                        continue
                    yield item[0], result
        return lost + list(pending.values())

    def close(self) -> None:
        pass


def _hand_out(
    pool: ProcessPoolExecutor, fn: TaskFn, todo: deque[tuple[int, Task]], context: Any,
    pending: dict[Future, tuple[int, Task]], limit: int,
) -> bool:  # fmt: skip
    """Submit tasks from ``todo`` until ``limit`` are in flight; False when the pool is found
    broken (a worker died since the last wait), with the task it refused put back first."""
    while todo and len(pending) < limit:
        index, task = todo.popleft()
        try:
            future = pool.submit(guarded, fn, task, context)
        except BrokenProcessPool:
            todo.appendleft((index, task))
            return False
        pending[future] = (index, task)
    return True


@dataclass
class BatchSummary:
    total: int
    resumed: int = 0
    ran: int = 0
    errors: int = 0
    results: dict[int, Result] = field(default_factory=dict, repr=False)


def run_batch(
    fn: TaskFn,
    tasks: Iterable[Task],
    store: Store,
    backend: Backend,
    *,
    context: Any = None,
    salt: str = "",
    progress: bool = False,
    label: str = "grading",
    on_result: Callable[[int, Result], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> BatchSummary:
    """Grade every task not yet in ``store``; returns every task's result by index.

    ``on_result(index, result)`` is called for each stored result, then for each new one as it
    arrives (completion order); an exception it raises ends the run like Ctrl-C does.
    ``stop()``, asked after each new result, ends the run early when true (a time budget): the
    tasks still running are dropped, unstored, and a rerun runs them.
    Ctrl-C propagates after the finished results are committed; a rerun resumes from them.
    """
    items = list(tasks)
    keys = [task_key(fn, task, salt) for task in items]
    summary = BatchSummary(total=len(items))
    todo: list[tuple[int, Task]] = []
    for index, (task, key) in enumerate(zip(items, keys, strict=True)):
        stored = store.get(key)
        if stored is None:
            todo.append((index, task))
        else:
            summary.results[index] = stored
            summary.resumed += 1
            if on_result is not None:
                on_result(index, stored)
    with ExitStack() as stack:
        advance = stack.enter_context(_progress_bar(progress, label, len(todo)))
        results = stack.enter_context(_closing(backend.run(fn, todo, context)))
        for index, result in results:
            if TRANSIENT not in result:  # not this input's doing: not kept, run again next time
                store.put(keys[index], result)
            summary.results[index] = result
            summary.ran += 1
            summary.errors += "error" in result
            advance()
            if on_result is not None:
                on_result(index, result)
            if stop is not None and stop():
                break
    return summary


@contextmanager
def _closing(results: Iterator[tuple[int, Result]]) -> Iterator[Iterator[tuple[int, Result]]]:
    """Close a backend's generator however the loop over it ends, so its workers or remote
    tasks are stopped at once rather than when the generator is collected."""
    try:
        yield results
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


@contextmanager
def _progress_bar(enabled: bool, label: str, total: int) -> Iterator[Callable[[], None]]:
    """Gives an ``advance()``: a rich bar with the rate and the ETA on stderr when enabled."""
    if not enabled:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=False) as shown:
        task = shown.add_task(label, total=total, rate="")

        def advance() -> None:
            shown.update(task, advance=1)
            speed = shown.tasks[0].speed
            shown.update(task, rate=f"{speed:.1f}/s" if speed else "")

        yield advance


def backend_for(ray: bool, workers: int, address: str | None = None) -> Backend:
    """This process (one worker), the local pool, or Ray (``address`` or ``RAY_ADDRESS``)."""
    if not ray:
        return SerialBackend() if workers <= 1 else LocalBackend(workers)
    from veristep.core.batch_ray import RayBackend

    return RayBackend(address=address, num_cpus=workers)


def _drain(
    gen: Generator[tuple[int, Result], None, list[tuple[int, Task]]],
) -> Iterator[tuple[int, Result | None]]:
    """The results of one pool pass, then ``(index, None)`` for each task it lost."""
    lost = yield from gen
    for index, _ in lost:
        yield index, None
