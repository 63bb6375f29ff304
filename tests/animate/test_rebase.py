"""The rebase matcher: the hand-labelled quality fixture and the behaviours it promises."""

from __future__ import annotations

from pathlib import Path

import pytest

from veristep.animate.quality import crossings, evaluate, load_cases
from veristep.animate.rebase import match, thread_ids
from veristep.animate.tree import from_sexpr

FIXTURE = Path(__file__).parent / "fixtures" / "rebase_pairs.jsonl"


def _tagged(root):
    return {n.tag: n for n in root.walk() if n.tag}


def test_fixture_is_large_and_covers_the_required_kinds():
    cases = load_cases(FIXTURE)
    names = " ".join(c["name"] for c in cases)
    assert len(cases) >= 40
    for kind in ("or-", "repeat-", "swap-", "move-", "divide-both", "pm-", "hint-"):
        assert kind in names


def test_quality_fixture_at_least_95_percent_and_no_crossings():
    report = evaluate(load_cases(FIXTURE))
    print(report.line())
    assert report.total >= 300
    assert report.accuracy >= 0.95, "\n".join(report.failures)
    assert report.crossings == 0


def test_commutative_reordering_keeps_every_id():
    a = from_sexpr("(= (+ (* a#a (^ x#x 2)) (* b#b x#y) c#c) 0)")
    b = from_sexpr("(= (+ c#c (* b#b x#y) (* a#a (^ x#x 2))) 0)")
    ids = thread_ids([a, b])
    ta, tb = _tagged(a), _tagged(b)
    for tag in "abcxy":
        assert ids[0][ta[tag].ident] == ids[1][tb[tag].ident], tag
    assert set(ids[0].values()) == set(ids[1].values())


def test_repeated_symbols_stay_in_place():
    # x·x + x = 0 → x² + x = 0: the lone x must stay the lone x, not borrow a factor's id.
    a = from_sexpr("(= (+ (* x#x1 x#x2) x#x3) 0)")
    b = from_sexpr("(= (+ (^ x#y1 2) x#y3) 0)")
    pairs = match(a, b)
    ta, tb = _tagged(a), _tagged(b)
    assert pairs[tb["y3"]] is ta["x3"]
    assert pairs[tb["y1"]] is ta["x1"]


def test_branches_never_cross_even_when_contents_tempt_them():
    # Each branch is simplified in place; the second branch of the new state holds the "1" that
    # only the second branch of the old one had under a minus, yet nothing may jump over.
    a = from_sexpr("(or (= (+ x#x1 1#a) 0) (= (+ x#x2 (neg 1#b)) 0))")
    b = from_sexpr("(or (= x#y1 (neg 1#c)) (= x#y2 1#d))")
    pairs = match(a, b)
    assert crossings(a, b, pairs) == 0
    ta, tb = _tagged(a), _tagged(b)
    assert pairs[tb["y1"]] is ta["x1"] and pairs[tb["y2"]] is ta["x2"]


def test_crossing_metric_detects_a_crossing():
    a = from_sexpr("(or (= x#p 1) (= y#q 2))")
    b = from_sexpr("(or (= x#r 1) (= y#s 2))")
    ta, tb = _tagged(a), _tagged(b)
    crossed = {tb["r"]: ta["p"], tb["s"]: ta["q"], tb["r"].parent: ta["q"].parent}
    assert crossings(a, b, crossed) >= 1


def test_new_nodes_get_fresh_ids_and_reappearing_ones_are_revived():
    s0 = from_sexpr("(= (* 2 x#x) 6#six)")
    s1 = from_sexpr("(= x#x 3#three)")
    s2 = from_sexpr("(= (* 2 x#x) 6#six2)")  # back to the start: 6 reappears
    ids = thread_ids([s0, s1, s2])
    t0, t1, t2 = _tagged(s0), _tagged(s1), _tagged(s2)
    assert ids[1][t1["three"].ident] not in ids[0].values()  # fresh
    assert ids[2][t2["six2"].ident] == ids[0][t0["six"].ident]  # revived
    assert len(set(ids[2].values())) == len(ids[2])  # one id per node


def test_planner_hint_overrides_the_matcher():
    # 3x = 3y → 3x = y: by position the left 3 stays; a planner that moved the right 3 over
    # says so, and its mapping wins.
    a = from_sexpr("(= (* 3#k x) (* 3#j y))")
    b = from_sexpr("(= (* 3#m x) y)")
    ta, tb = _tagged(a), _tagged(b)
    assert match(a, b)[tb["m"]] is ta["k"]
    assert match(a, b, {ta["j"].ident: tb["m"].ident})[tb["m"]] is ta["j"]


@pytest.mark.parametrize("bad", ["(= x", "(= x 1))", ")"], ids=["unclosed", "trailing", "stray"])
def test_sexpr_errors_are_value_errors(bad):
    with pytest.raises((ValueError, IndexError)):
        from_sexpr(bad)
