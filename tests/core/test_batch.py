"""The batch engine with real worker processes and a real SQLite store: resume, changed input,
a bad input costing only its own result, a killed worker's task run again."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from veristep.core.batch import (
    LocalBackend,
    ResultStore,
    SerialBackend,
    run_batch,
    task_key,
)

# Task functions must be importable in the workers: a small module written into tmp_path, whose
# folder the workers get on their sys.path like the parent's.
_TASKS = textwrap.dedent(
    """
    import os, signal
    from pathlib import Path

    def square(task, context):
        Path(context, f"ran-{task}").open("a").write("x")  # one mark per real run
        if task == "bad":
            raise ValueError("not a number")
        return {"value": int(task) ** 2}

    def transient_on_odd(task, context):
        Path(context, f"ran-{task}").open("a").write("x")
        return {"transient": "endpoint down"} if task % 2 else {"value": task}

    def die_once(task, context):
        mark = Path(context, f"died-{task}")
        if task == 3 and not mark.exists():
            mark.write_text("")
            os.kill(os.getpid(), signal.SIGKILL)
        if task == 4:
            os.kill(os.getpid(), signal.SIGKILL)  # kills every worker that tries it
        return {"value": task * 10}
    """
)


@pytest.fixture
def tasks_module(tmp_path: Path):
    folder = tmp_path / "mods"
    folder.mkdir()
    (folder / "batch_tasks_fixture.py").write_text(_TASKS)
    sys.path.insert(0, str(folder))
    try:
        import batch_tasks_fixture

        yield batch_tasks_fixture
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("batch_tasks_fixture", None)


def _runs(marks: Path, task: str) -> int:
    path = marks / f"ran-{task}"
    return len(path.read_text()) if path.exists() else 0


@pytest.mark.parametrize("backend", [SerialBackend(), LocalBackend(2)], ids=["serial", "local"])
def test_rerun_resumes_and_a_changed_input_is_graded_again(tmp_path, tasks_module, backend):
    marks = tmp_path / "marks"
    marks.mkdir()
    store = ResultStore(tmp_path / "results.sqlite")
    first = run_batch(tasks_module.square, ["2", "bad", "3"], store, backend, context=str(marks))
    assert first.results == {
        0: {"value": 4},
        1: {"error": "internal error: ValueError: not a number"},
        2: {"value": 9},
    }
    assert (first.ran, first.resumed, first.errors) == (3, 0, 1)
    store.close()

    store = ResultStore(tmp_path / "results.sqlite")  # a new process would open the file anew
    second = run_batch(tasks_module.square, ["2", "5", "3"], store, backend, context=str(marks))
    assert second.results == {0: {"value": 4}, 1: {"value": 25}, 2: {"value": 9}}
    assert (second.ran, second.resumed) == (1, 2)
    assert [_runs(marks, t) for t in ("2", "3", "5", "bad")] == [1, 1, 1, 1]


def test_a_killed_worker_s_task_runs_again_and_a_poison_task_costs_only_itself(
    tmp_path, tasks_module
):
    store = ResultStore()
    summary = run_batch(
        tasks_module.die_once, [1, 2, 3, 4, 5], store, LocalBackend(2), context=str(tmp_path)
    )
    assert {i: r for i, r in summary.results.items() if i != 3} == {
        0: {"value": 10},
        1: {"value": 20},
        2: {"value": 30},  # its worker was killed once; the task ran again
        4: {"value": 50},
    }
    assert "worker died on this input" in summary.results[3]["error"]


def test_the_key_follows_function_salt_and_input(tasks_module):
    key = task_key(tasks_module.square, {"states": ["x=1"]})
    assert key == task_key(tasks_module.square, {"states": ["x=1"]})
    assert key != task_key(tasks_module.square, {"states": ["x=2"]})
    assert key != task_key(tasks_module.square, {"states": ["x=1"]}, salt="cas 3s")
    assert key != task_key(tasks_module.die_once, {"states": ["x=1"]})


@pytest.mark.parametrize("backend", [SerialBackend(), LocalBackend(2)], ids=["serial", "local"])
def test_stop_ends_a_run_early_and_a_transient_result_is_not_stored(
    tmp_path, tasks_module, backend
):
    marks = tmp_path / "marks"
    marks.mkdir()
    store = ResultStore()
    tasks = list(range(8))
    seen: list[int] = []
    summary = run_batch(
        tasks_module.transient_on_odd, tasks, store, backend, context=str(marks),
        on_result=lambda index, result: seen.append(index), stop=lambda: len(seen) >= 3,
    )  # fmt: skip
    assert summary.ran == 3 and len(summary.results) == 3  # the rest were dropped, not stored
    stored = [i for i in summary.results if "value" in summary.results[i]]
    assert len(store) == len(stored)  # a transient result is reported, never kept
    again = run_batch(tasks_module.transient_on_odd, tasks, store, backend, context=str(marks))
    assert again.resumed == len(stored) and again.ran == len(tasks) - len(stored)
    for task in tasks:  # a transient task ran again; a stored one never did
        assert _runs(marks, str(task)) >= (2 if task % 2 and task in summary.results else 1)
    assert all(_runs(marks, str(t)) == 1 for t in stored)
