"""Small CAS calls of a one-shot command run in-process under an alarm; anything slow still ends
in a killable worker, and the verdicts are the same either way."""

from __future__ import annotations

import contextlib
import time

import pytest
from sympy import Symbol, expand

from veristep.core.settings import Settings
from veristep.grounding import cas
from veristep.grounding.decision import Context

X = Symbol("x", real=True)


def _slow_identity(value: int) -> int:
    time.sleep(0.6)
    return value


def test_a_small_call_runs_in_process() -> None:
    ctx = Context(settings=Settings(inline_cas_s=0.5))
    out = cas.run(expand, (X + 1) ** 2, ctx=ctx)
    assert out.ok and out.value == X**2 + 2 * X + 1


def test_a_slow_small_call_goes_on_in_a_worker() -> None:
    # Past the in-process alarm the call is not lost and not a verdict: the worker finishes it.
    ctx = Context(settings=Settings(inline_cas_s=0.2, cas_timeout_s=3.0))
    out = cas.run(_slow_identity, 7, ctx=ctx)
    assert out.ok and out.value == 7


def test_an_exploding_small_call_times_out_in_the_worker() -> None:
    ctx = Context(settings=Settings(inline_cas_s=0.2, cas_timeout_s=0.5, step_timeout_s=2.0))
    out = cas.run(expand, (X + 1) ** 5000, ctx=ctx)
    assert out.status == "timeout"


def _swallows_the_first_alarm() -> str:
    # The interpreter swallows an exception raised in a garbage-collector callback or a __del__;
    # this stands for an alarm that lands there. Without a repeated alarm the call runs on.
    with contextlib.suppress(BaseException):
        time.sleep(1.0)
    end = time.monotonic() + 3.0
    while time.monotonic() < end:
        time.sleep(0.01)
    return "ran on in-process"


def test_a_swallowed_alarm_still_ends_the_in_process_call() -> None:
    ctx = Context(settings=Settings(inline_cas_s=0.2, cas_timeout_s=0.5, step_timeout_s=2.0))
    started = time.monotonic()
    out = cas.run(_swallows_the_first_alarm, ctx=ctx)
    assert out.status == "timeout"
    assert time.monotonic() - started < 2.5


def _interrupted_while_unwinding() -> None:
    try:
        raise KeyboardInterrupt  # Ctrl-C during the call
    finally:
        time.sleep(0.5)  # the alarm fires here, while the interrupt unwinds


def test_a_ctrl_c_that_an_alarm_interrupts_still_reaches_the_caller() -> None:
    # The alarm's exception replaces the KeyboardInterrupt in flight; the call must not then go
    # quietly to a worker as if it had only been slow.
    ctx = Context(settings=Settings(inline_cas_s=0.2, cas_timeout_s=2.0, step_timeout_s=4.0))
    with pytest.raises(KeyboardInterrupt):
        cas.run(_interrupted_while_unwinding, ctx=ctx)


def test_large_numbers_never_run_in_process() -> None:
    assert not cas._small(X + 10**9)
    assert cas._small((X + 3) ** 2)


def test_an_alarm_inside_an_unevaluated_block_leaves_sympy_evaluating() -> None:
    # The in-process call is cut short while SymPy's `evaluate` switch is off: the main process
    # must not go on building every expression unevaluated.
    from sympy.core.parameters import global_parameters

    switch_off_and_wait = (
        "__import__('sympy').core.parameters.global_parameters.__setattr__('evaluate', False)"
        " or __import__('time').sleep(0.6)"
    )
    ctx = Context(settings=Settings(inline_cas_s=0.2, cas_timeout_s=5.0, step_timeout_s=8.0))
    try:
        cas.run(eval, switch_off_and_wait, ctx=ctx)
        assert global_parameters.evaluate is True
        assert X + X == 2 * X
    finally:
        global_parameters.evaluate = True  # never leave a broken switch to the next test
