"""Fair scheduling of CAS calls between requests: slow work moves to the slow lane."""

from __future__ import annotations

import time

from veristep.core.pool import FAST_CALL_S, request_lane, run_cas
from veristep.core.settings import Settings


def test_a_cut_fast_call_reruns_in_the_slow_lane_and_demotes_its_request() -> None:
    settings = Settings().replace(pool_workers=1)
    with request_lane() as lane:
        assert run_cas(pow, 2, 10, settings=settings, timeout_s=5).value == 1024
        assert not lane.slow  # cheap calls keep the request in the fast lane
        slow = run_cas(time.sleep, FAST_CALL_S * 3, settings=settings, timeout_s=10)
        assert slow.ok  # cut in the fast lane, then run to the end in the slow one
        assert lane.slow
        assert run_cas(pow, 3, 3, settings=settings, timeout_s=5).value == 27


def test_a_real_timeout_is_still_a_timeout_in_a_lane() -> None:
    settings = Settings().replace(pool_workers=1)
    with request_lane():
        assert run_cas(time.sleep, 5, settings=settings, timeout_s=FAST_CALL_S / 2).status == (
            "timeout"
        )
