"""The CAS budget follows what a call can still decide: a call that timed out is not started
again under the same budget along a chain, a refutation-only search gets a share of the limit,
and once a call of a step timed out the step's later calls are tried briefly. A timeout is never
evidence: each of these only ends an undecided step sooner."""

from __future__ import annotations

import time

from veristep.core.settings import Settings
from veristep.grounding import cas
from veristep.grounding.decision import Context


def _sleep_then(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _context(cas_timeout_s: float = 0.4) -> Context:
    return Context(settings=Settings(cas_timeout_s=cas_timeout_s, step_timeout_s=5.0))


def test_a_call_that_timed_out_is_not_started_again_under_the_same_budget() -> None:
    chain = _context()
    first = cas.run(_sleep_then, 3.0, ctx=chain.for_step(None))
    assert first.status == "timeout"
    again = chain.for_step(None)  # the next step of the same chain shares the memo
    start = time.perf_counter()
    second = cas.run(_sleep_then, 3.0, ctx=again)
    assert second.status == "timeout" and "before" in (second.error or "")
    assert time.perf_counter() - start < 0.1
    assert again.timeouts  # still reported as a timeout, never as a result


def test_a_shorter_timeout_is_tried_again_under_a_longer_budget() -> None:
    short = _context(cas_timeout_s=0.4)
    assert cas.run(_sleep_then, 0.8, ctx=short.for_step(None)).status == "timeout"
    longer = Context(settings=Settings(cas_timeout_s=3.0, step_timeout_s=5.0), memo=short.memo)
    out = cas.run(_sleep_then, 0.8, ctx=longer.for_step(None))
    assert out.ok and out.value == 0.8


def test_a_share_of_the_limit_gives_up_sooner() -> None:
    ctx = _context(cas_timeout_s=2.0).for_step(None)
    start = time.perf_counter()
    out = cas.run(_sleep_then, 1.5, ctx=ctx, share=0.25)
    assert out.status == "timeout"
    assert time.perf_counter() - start < 1.4
    assert cas.run(_sleep_then, 0.2, ctx=_context(2.0).for_step(None), share=0.25).ok


def test_after_one_timeout_the_steps_later_calls_are_brief() -> None:
    ctx = _context(cas_timeout_s=2.0).for_step(None)
    assert cas.run(_sleep_then, 3.0, ctx=ctx).status == "timeout"
    start = time.perf_counter()
    assert cas.run(_sleep_then, 1.5, ctx=ctx).status == "timeout"  # 1.5 s fits 2 s, not 0.5 s
    assert time.perf_counter() - start < 1.4


def test_after_a_search_ran_out_the_steps_other_searches_are_skipped() -> None:
    ctx = _context(cas_timeout_s=1.0).for_step(None)
    assert cas.run(_sleep_then, 2.0, ctx=ctx, share=0.25).status == "timeout"
    start = time.perf_counter()
    skipped = cas.run(_sleep_then, 0.01, ctx=ctx, share=0.25)
    assert skipped.status == "timeout" and "skipped" in (skipped.error or "")
    assert time.perf_counter() - start < 0.1
    assert ctx.timeouts[-1].endswith("skipped")
    # Checks that can decide keep their full budget, and the next step searches again.
    assert cas.run(_sleep_then, 0.3, ctx=ctx).ok
    assert cas.run(_sleep_then, 0.01, ctx=ctx.for_step(None), share=0.25).ok
