"""A check that raises costs only itself; only a CAS pool that cannot start stops the cascade.

A located error inside one check (an ``InputError`` from a conversion, a ``BudgetExceeded`` from a
size guard) is that check's defect: the step stays undecided with the check named as failed, and
the next checks still run. A pool whose workers cannot start is an environment failure: it must
reach the caller, never read as an undecided (or decided) step.
"""

from __future__ import annotations

import pytest
import sympy

from veristep.core.errors import BudgetExceeded, InputError
from veristep.core.pool import WorkerStartError
from veristep.core.settings import Settings
from veristep.grounding import cascade
from veristep.grounding.decision import Context

x = sympy.Symbol("x", real=True)
PREV, NXT = sympy.Eq(2 * x, 4), sympy.Eq(x, 2)


def _raising(error: Exception):
    def broken(prev, nxt, ctx):
        raise error

    broken.__name__ = "broken_check"
    return broken


@pytest.mark.parametrize(
    "error", [InputError("unreadable part", kind="math"), BudgetExceeded("too large")]
)
def test_a_located_error_in_one_check_costs_only_that_check(monkeypatch, error):
    monkeypatch.setattr(cascade, "CHECKS", (_raising(error), *cascade.CHECKS))
    name, decision = cascade.run_checks(PREV, NXT, Context(settings=Settings()).for_step(None))
    assert name is not None and name != "broken_check"  # a later check still decided
    assert decision is not None


def test_a_failed_check_alone_leaves_the_step_undecided_and_named(monkeypatch):
    monkeypatch.setattr(cascade, "CHECKS", (_raising(InputError("bad", kind="math")),))
    ctx = Context(settings=Settings()).for_step(None)
    assert cascade.run_checks(PREV, NXT, ctx) == (None, None)
    assert ctx.timeouts == ["broken_check failed: InputError"]


def test_workers_that_cannot_start_reach_the_caller(monkeypatch):
    monkeypatch.setattr(cascade, "CHECKS", (_raising(WorkerStartError("no worker")),))
    with pytest.raises(WorkerStartError):
        cascade.run_checks(PREV, NXT, Context(settings=Settings()).for_step(None))
