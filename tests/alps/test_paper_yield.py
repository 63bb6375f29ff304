"""Yield as the paper measures it, reproduced from ALPS's own final_status rows (orders 5-6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veristep.alps.paper_yield import read_merges, read_status_file, yield_table
from veristep.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "alps_dev"
STATUS = FIXTURES / "final_status_order5_6.jsonl"
CLASSES = FIXTURES / "classes_order5_6.json"


def test_order_6_reproduces_the_papers_20_5_per_thousand_screened():
    table = {y.order: y.to_json() for y in yield_table(read_status_file(STATUS))}
    assert table[6]["screened"] == 1418 and table[6]["austin_proven"] == 29
    assert table[6]["austin_per_1000"] == table[6]["paper_austin_per_1000"] == 20.5
    # The other measure (AUSTIN + NO_FINITE_MODEL) is far higher: it is not the paper's yield.
    assert table[6]["admissible_per_1000_screened"] > 10 * table[6]["austin_per_1000"]


def test_new_classes_count_each_class_at_its_lowest_order():
    table = {y.order: y for y in yield_table(read_status_file(STATUS), read_merges(CLASSES))}
    assert table[5].new_classes == 11  # the 11 order-5 Austin laws are pairwise inequivalent
    assert table[6].new_classes == 24  # 29 Austin laws, five merged into earlier classes
    assert table[6].to_json()["new_classes_per_1000"] == 16.9


def test_alps_yield_command_prints_the_table_and_json(capsys):
    assert main(["alps", "yield", str(STATUS), "--classes", str(CLASSES), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["order"] for r in rows] == [5, 6]
    assert main(["alps", "yield", str(STATUS)]) == 0
    assert "20.5" in capsys.readouterr().out


def test_alps_yield_rejects_a_file_without_statuses(tmp_path, capsys):
    bad = tmp_path / "laws.jsonl"
    bad.write_text(json.dumps({"law": "x = y ◇ z"}) + "\n")
    assert main(["alps", "yield", str(bad)]) == 2
    assert "not a status file" in capsys.readouterr().err
    assert main(["alps", "yield", str(tmp_path / "missing.jsonl")]) == 2
    capsys.readouterr()
    for text in ('{"classes": [1, 2]}', "nope", '{"classes": 5}'):
        bad_classes = tmp_path / "classes.json"
        bad_classes.write_text(text)
        assert main(["alps", "yield", str(STATUS), "--classes", str(bad_classes)]) == 2
        err = capsys.readouterr().err
        assert "classes.json: not a classes file" in err and len(err.strip().splitlines()) == 1


@pytest.mark.eprover
def test_dedup_classes_feed_the_yield_with_the_undecided_pairs_named(tmp_path, capsys):
    # An order-6 Austin law of our fresh run that E proves equivalent to an order-5 ALPS seed,
    # and a fresh one that it separates from both.
    same = ["x = (y ◇ (x ◇ x)) ◇ ((y ◇ (z ◇ w)) ◇ y)", "x = (y ◇ (x ◇ x)) ◇ ((y ◇ z) ◇ y)"]
    other = "x = (((y ◇ y) ◇ ((x ◇ x) ◇ z)) ◇ y) ◇ y"
    laws = tmp_path / "austin.jsonl"
    laws.write_text("".join(json.dumps({"law": t}) + "\n" for t in [*same, other]))
    assert main(["alps", "dedup", str(laws), "--timeout", "5", "--json"]) == 0
    dedup = json.loads(capsys.readouterr().out)
    assert sorted(map(len, dedup["classes"])) == [1, 2]
    assert dedup["undecided"] == len(dedup["undecided_pairs"]) == 0
    classes = tmp_path / "classes.json"
    classes.write_text(json.dumps(dedup))
    status = tmp_path / "status.jsonl"
    rows = [{"law": t, "status": "AUSTIN_PROVEN"} for t in [*same, other]]
    status.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["alps", "yield", str(status), "--classes", str(classes), "--json"]) == 0
    table = {
        r["order"]: (r["austin_proven"], r["new_classes"])
        for r in json.loads(capsys.readouterr().out)
    }
    assert table == {5: (1, 1), 6: (2, 1)}  # the merged class is new at order 5, not again at 6
