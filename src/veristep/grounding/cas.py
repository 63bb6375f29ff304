"""Every potentially slow SymPy call of a check goes through :func:`run` under a deadline.

The work runs in the shared warm pool of killable worker processes (``veristep.core.pool``), so a
runaway computation can never hang a verdict. A timeout, a memory kill or a crash comes back as a
non-``ok`` :class:`Outcome` and the checks treat it as "undecided" — it is never evidence about the
mathematics. Calls are memoised per derivation: a state is the next of one step and the previous
of the following one.

>>> out = run(sum, (1, 2), ctx=Context())
>>> (out.status, out.value)
('ok', 3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from veristep.grounding.decision import Context

# Below this much budget a CAS call cannot even start usefully.
_MIN_BUDGET_S = 0.15


@dataclass(frozen=True)
class Outcome:
    status: str  # ok | timeout | memory | error | crashed
    value: Any = None
    error: str | None = None
    ms: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def run(fn: Callable[..., Any], *args: Any, ctx: Context) -> Outcome:
    """``fn(*args)`` in a killable worker within the transition's remaining budget, memoised."""
    key = (fn.__module__, fn.__qualname__, args)
    try:
        cached = ctx.memo.get(key)
    except TypeError:  # unhashable arguments: no memo
        key, cached = None, None
    if cached is not None:
        return cached
    budget = min(ctx.settings.cas_timeout_s, ctx.remaining())
    if budget < _MIN_BUDGET_S:
        out = Outcome("timeout", error="step budget exhausted")
    else:
        out = _dispatch(fn, args, ctx, budget)
    if out.status in ("timeout", "memory", "crashed"):
        ctx.timeouts.append(f"{fn.__name__}: {out.status}")
    # Only results are memoised; a timeout under a short budget may succeed under a longer one.
    if key is not None and out.status in ("ok", "error"):
        ctx.memo[key] = out
    return out


def _dispatch(
    fn: Callable[..., Any], args: tuple[Any, ...], ctx: Context, budget: float
) -> Outcome:
    from veristep.core.pool import run_cas

    res = run_cas(fn, *args, settings=ctx.settings, timeout_s=budget)
    return Outcome(res.status, res.value, res.error, res.ms)
