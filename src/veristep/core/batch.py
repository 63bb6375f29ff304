"""One batch engine: a list of tasks in, a result store out, on a local process pool or on Ray.

Each task is a JSON value handed to one module-level function (``fn(task, context) -> dict``;
``context`` is one picklable value shared by every task, such as the settings). Its result is
stored in SQLite under the hash of the function's name, a ``salt`` (what in the context changes
results) and the task, so a rerun skips what is
stored (resume) and a changed input is graded again. Results are committed as they arrive, so
Ctrl-C keeps everything finished. A worker that dies (a segfault, an external kill, a node lost)
has its task run again, at most ``retries`` times; a task that keeps killing workers, or raises,
gets an ``{"error": ...}`` result of its own and costs no other task.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from veristep.core.interrupts import ignore_interrupts, killing_pool
from veristep.core.mainless import no_main_reimport

Task = Any  # a JSON value
Result = dict[str, Any]
TaskFn = Callable[[Task, Any], Result]
RETRIES = 2


def task_key(fn: TaskFn, task: Task, salt: str = "") -> str:
    """The store key of ``task`` under ``fn``: the same input graded by the same function."""
    name = f"{fn.__module__}.{fn.__qualname__}"
    text = json.dumps(task, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(f"{name}\n{salt}\n{text}".encode("utf-8", "surrogatepass")).hexdigest()


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


class Backend(Protocol):
    """Where tasks run: ``run`` yields ``(index, result)`` pairs in completion order."""

    name: str

    def run(
        self, fn: TaskFn, items: Sequence[tuple[int, Task]], context: Any = None
    ) -> Iterator[tuple[int, Result]]: ...

    def close(self) -> None: ...


def guarded(fn: TaskFn, task: Task, context: Any = None) -> Result:
    """Run one task in a worker; an exception becomes that task's own error result."""
    try:
        return fn(task, context)
    except Exception as exc:  # one bad input costs only its own line
        return {"error": f"internal error: {type(exc).__name__}: {exc}"}


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
    caller's script is not run again in the workers)."""

    name = "local"

    def __init__(self, workers: int = 2, retries: int = RETRIES) -> None:
        self.workers = max(1, workers)
        self.retries = retries

    def run(
        self, fn: TaskFn, items: Sequence[tuple[int, Task]], context: Any = None
    ) -> Iterator[tuple[int, Result]]:
        todo = dict(items)
        attempts = dict.fromkeys(todo, 0)
        while todo:  # one pass per pool: a dead worker breaks the pool, the rest run again
            lost = yield from self._one_pool(fn, todo, context)
            for index in lost:
                attempts[index] += 1
                if attempts[index] > self.retries:
                    todo.pop(index)
                    yield index, {"error": f"worker died {attempts[index]} times on this input"}

    def _one_pool(
        self, fn: TaskFn, todo: dict[int, Task], context: Any
    ) -> Generator[tuple[int, Result], None, list[int]]:
        import multiprocessing

        lost: list[int] = []
        ctx = multiprocessing.get_context("forkserver")
        executor = ProcessPoolExecutor(self.workers, ctx, initializer=ignore_interrupts)
        with no_main_reimport(), killing_pool(executor) as pool:
            pending: dict[Future, int] = {
                pool.submit(guarded, fn, task, context): index for index, task in todo.items()
            }
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    index = pending.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        lost.append(index)
                        continue
                    todo.pop(index)
                    yield index, result
        return lost

    def close(self) -> None:
        pass


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
    store: ResultStore,
    backend: Backend,
    *,
    context: Any = None,
    salt: str = "",
    progress: bool = False,
    label: str = "grading",
    on_result: Callable[[int, Result], None] | None = None,
) -> BatchSummary:
    """Grade every task not yet in ``store``; returns every task's result by index.

    ``on_result(index, result)`` is called for each new result as it arrives (completion order).
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
    with ExitStack() as stack:
        advance = stack.enter_context(_progress_bar(progress, label, len(todo)))
        for index, result in backend.run(fn, todo, context):
            store.put(keys[index], result)
            summary.results[index] = result
            summary.ran += 1
            summary.errors += "error" in result
            advance()
            if on_result is not None:
                on_result(index, result)
    return summary


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
