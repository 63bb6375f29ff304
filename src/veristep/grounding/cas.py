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
# Of the CAS limit, for every call of a step after one of its calls timed out: the steps that
# outrun one check rarely yield to the next, and a step that ends undecided should end soon.
_AFTER_TIMEOUT_SHARE = 0.25


@dataclass(frozen=True)
class Outcome:
    status: str  # ok | timeout | memory | error | crashed
    value: Any = None
    error: str | None = None
    ms: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def run(fn: Callable[..., Any], *args: Any, ctx: Context, share: float = 1.0) -> Outcome:
    """``fn(*args)`` in a killable worker within the transition's remaining budget, memoised.

    ``share`` scales the CAS limit for a call that can decide little (a search that can only
    refute): it gives up sooner, and the step's budget stays for the checks that can decide.
    Once a call of the step has timed out under its full budget, every later call gets at most a
    quarter of the limit; once such a short search has run out, the step's later searches are
    not started (the forms that defeat one search, a quadratic formula in four letters, defeat
    the next: on STACK every search that decided anything did so in a tenth of a second).
    A call that timed out is not started again along the chain under the same or a smaller
    budget: it would only time out again.
    """
    key = (fn.__module__, fn.__qualname__, args)
    try:
        cached = ctx.memo.get(key)
    except TypeError:  # unhashable arguments: no memo
        key, cached = None, None
    if cached is not None:
        return cached
    search = share < 1.0
    if search and ctx.searched_out:
        ctx.timeouts.append(f"{fn.__name__}: skipped")
        return Outcome("timeout", error="skipped: a search of this step ran out before")
    if ctx.deadline is not None and ctx.outran:  # a step (for_step) already outran a call
        share = min(share, _AFTER_TIMEOUT_SHARE)
    budget = min(ctx.settings.cas_timeout_s * share, ctx.remaining())
    timed_out_at = ctx.memo.get(("timed out", key)) if key is not None else None
    if budget < _MIN_BUDGET_S:
        out = Outcome("timeout", error="step budget exhausted")
    elif timed_out_at is not None and budget <= timed_out_at:
        out = Outcome("timeout", error="timed out before under this budget")
    else:
        out = _inline(fn, args, ctx) if _inline_allowed(args, ctx) else None
        if out is None:  # not small, or too slow in-process: the killable worker decides
            out = _dispatch(fn, args, ctx, budget)
    if out.status in ("timeout", "memory", "crashed"):
        ctx.timeouts.append(f"{fn.__name__}: {out.status}")
        # A short search that ran out of its own short budget (share < 1) was expected to be
        # hard; it says nothing about the step's other checks, which keep their budget.
        ctx.outran = ctx.outran or share >= 1.0
        ctx.searched_out = ctx.searched_out or search
    # Only results are memoised; a timeout under a short budget may succeed under a longer one,
    # so a timeout is remembered with the budget it had.
    if key is not None and out.status in ("ok", "error"):
        ctx.memo[key] = out
    elif key is not None and out.status == "timeout" and budget >= _MIN_BUDGET_S:
        ctx.memo[("timed out", key)] = max(budget, timed_out_at or 0.0)
    return out


def _dispatch(
    fn: Callable[..., Any], args: tuple[Any, ...], ctx: Context, budget: float
) -> Outcome:
    from veristep.core.pool import run_cas

    res = run_cas(fn, *args, settings=ctx.settings, timeout_s=budget)
    return Outcome(res.status, res.value, res.error, res.ms)


# ------------------------------------------------------------------ small calls, in-process
# A trivial `veristep check` spends most of its time starting the worker pool (a forkserver that
# imports SymPy). Calls on *small* arguments are therefore tried in the main process first, under
# a SIGALRM deadline, when that is safe: only in the main thread (signals), only on arguments with
# small numbers and few operations (no big-integer arithmetic, which an alarm cannot interrupt),
# never for a memory-hungry call. An in-process timeout is not a verdict: the call then goes to a
# killable worker with the step's full budget, exactly as before.

_INLINE_MAX_OPS = 60
_ALARM_REPEAT_S = 0.02
_INLINE_MAX_NUMBER = 10**4
_INLINE_FUNCTIONS = frozenset({"factorial", "gamma", "binomial", "RisingFactorial", "subfactorial"})


class _InlineTimeout(BaseException):  # BaseException: SymPy's `except Exception` cannot eat it
    pass


def _inline_allowed(args: tuple[Any, ...], ctx: Context) -> bool:
    import threading

    if ctx.settings.inline_cas_s <= 0 or threading.current_thread() is not threading.main_thread():
        return False
    try:
        return all(_small(a) for a in args)
    except Exception:
        return False


def _small(arg: Any) -> bool:
    from sympy import Basic, Integer, Rational, count_ops, preorder_traversal

    if isinstance(arg, (tuple, list)):
        return all(_small(a) for a in arg)
    if isinstance(arg, (str, int, float, bool, type(None))):
        return not isinstance(arg, int) or abs(arg) <= _INLINE_MAX_NUMBER
    if not isinstance(arg, Basic):
        return False
    if count_ops(arg) > _INLINE_MAX_OPS:
        return False
    for node in preorder_traversal(arg):
        if type(node).__name__ in _INLINE_FUNCTIONS:
            return False
        if isinstance(node, Integer) and abs(int(node)) > _INLINE_MAX_NUMBER:
            return False
        if isinstance(node, Rational) and max(abs(node.p), node.q) > _INLINE_MAX_NUMBER:
            return False
    return True


def _inline(fn: Callable[..., Any], args: tuple[Any, ...], ctx: Context) -> Outcome | None:
    import signal
    import time

    armed = [True]

    def alarm(signum: int, frame: Any) -> None:
        if armed[0]:
            raise _InlineTimeout

    from veristep.core._cas_worker import restore_sympy_parameters, sympy_parameters

    start = time.perf_counter()
    saved = sympy_parameters()
    previous = signal.signal(signal.SIGALRM, alarm)
    try:
        try:
            # The alarm repeats: an exception raised inside a garbage-collector callback or a
            # __del__ is swallowed by the interpreter, and a one-shot alarm would then let the
            # call run on in-process without any deadline.
            signal.setitimer(signal.ITIMER_REAL, ctx.settings.inline_cas_s, _ALARM_REPEAT_S)
            value = fn(*args)
        finally:
            armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _InlineTimeout as timeout:
        _reraise_interrupt(timeout)
        return None
    except RecursionError:
        return None  # the worker has its own, larger stack: let it try
    except Exception as exc:  # the same contract as a worker: an error is an outcome
        ms = (time.perf_counter() - start) * 1000
        return Outcome("error", error=f"{type(exc).__name__}: {exc}", ms=ms)
    finally:
        signal.signal(signal.SIGALRM, previous)
        # The alarm may land while SymPy's ``evaluate`` block restores its switch: put it back.
        restore_sympy_parameters(saved)
    return Outcome("ok", value, ms=(time.perf_counter() - start) * 1000)


def _reraise_interrupt(timeout: _InlineTimeout) -> None:
    """Raise the Ctrl-C or SIGTERM that the alarm's exception replaced, if any.

    An alarm that fires while a KeyboardInterrupt unwinds (through a ``finally`` of SymPy's)
    replaces it; the interrupt is then only the timeout's implicit context, and swallowing the
    timeout would swallow the user's Ctrl-C with it.
    """
    seen: set[int] = set()
    cause: BaseException | None = timeout.__context__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if not isinstance(cause, (Exception, _InlineTimeout)):
            raise cause
        cause = cause.__context__
