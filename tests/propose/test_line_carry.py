"""Each planned line keeps the order of terms of the line before (the first line the order the
start was typed in); a polynomial in one letter or one function stays in descending powers."""

from __future__ import annotations

from veristep.core.tiers import Tier
from veristep.propose import derive


def _lines(start: str, target: str) -> list[str]:
    d = derive(start, target)
    assert d.endpoint.reached and all(s.tier >= Tier.VERIFIED for s in d.steps)
    return [s.latex for s in d.states]


def test_a_term_moved_across_is_written_after_the_ones_already_there():
    lines = _lines("y = mx + c", r"x = \frac{y - c}{m}")
    assert lines[1:3] == ["m x + c = y", "m x = y - c"]


def test_the_first_line_keeps_the_order_the_start_was_typed_in():
    lines = _lines(r"\sec x - \cos x", r"\sin x \tan x")
    # sec x is replaced where it stood, before the cos x that stays
    assert lines[1] == r"\frac{1}{\cos{\left(x \right)}} - \cos{\left(x \right)}"


def test_a_polynomial_in_one_function_stays_in_descending_powers():
    lines = _lines(
        r"\cos(2x) = \sin x \land 0 \le x \land x < 2\pi",
        r"x = \frac{\pi}{6} \lor x = \frac{5\pi}{6} \lor x = \frac{3\pi}{2}",
    )
    assert lines[2].startswith(r"2 \sin^{2}{\left(x \right)} + \sin{\left(x \right)} - 1 = 0")
