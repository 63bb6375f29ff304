"""What every batch backend shares: the shape of a task function and its guard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Task = Any  # a JSON value
Result = dict[str, Any]
TaskFn = Callable[[Task, Any], Result]
RETRIES = 2  # runs again of a task whose worker died, before it gets an error result
TRANSIENT = "transient"  # a result with this key is reported but not stored (see core.batch)


def guarded(fn: TaskFn, task: Task, context: Any = None) -> Result:
    """Run one task in a worker; an exception becomes that task's own error result."""
    try:
        return fn(task, context)
    except Exception as exc:  # one bad input costs only its own line
        return {"error": f"internal error: {type(exc).__name__}: {exc}"}
