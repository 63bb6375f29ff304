"""The benchmark harness: same items, three systems, metrics, localisation, resume (DummyLM)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dspy.utils import DummyLM

from veristep.core.settings import Settings
from veristep.review import bench as B
from veristep.review.calls import RoleCaller
from veristep.review.metrics import metrics, metrics_table
from veristep.review.scripted import confirm, elaborate, global_judge, sentence_judge

ITEMS = [
    B.Item("good", "Show 1 + 1 = 2.", True, steps=("We have $1 + 1 = 2$.", "Done, by step 1.")),
    B.Item(
        "bad",
        "Show n^2 is even.",
        False,
        steps=("Let $n$ be odd.", "Then $n^2$ is even."),
        error_step=2,
    ),
]


def test_three_systems_share_items_and_produce_the_metrics_table_dummylm(tmp_path: Path) -> None:
    agent_lm = DummyLM(
        [
            elaborate(local=("s1",)),  # good: s1 is grounded by the machine, s2 needs the model
            elaborate(),  # bad: s1
            elaborate("flawed", kind="false_statement", witness="odd squared is odd"),
            confirm("logical_breakdown"),
        ]
    )
    global_lm = DummyLM([global_judge("correct"), global_judge("correct")])
    sentence_lm = DummyLM([sentence_judge("correct")] * 3 + [sentence_judge("incorrect")])
    runners = {
        "agent": B.agent_runner(agent_lm, Settings(), tmp_path / "traces", resume=False),
        "global": B.global_runner(lambda log: RoleCaller(global_lm, log)),
        "sentence": B.sentence_runner(lambda log: RoleCaller(sentence_lm, log)),
    }
    results = B.run_bench(ITEMS, runners, tmp_path, "toy", resume=False)
    by_key = {s: {r.key: r for r in rows} for s, rows in results.items()}
    assert by_key["agent"]["good"].verdict == "accepted"
    assert by_key["agent"]["bad"].verdict == "rejected" and by_key["agent"]["bad"].localised
    assert by_key["global"]["bad"].verdict == "accepted"  # the baseline is fooled
    assert by_key["sentence"]["bad"].flagged == 2
    table = {name: metrics(rows) for name, rows in results.items()}
    assert table["agent"].false_accept == 0.0 and table["global"].false_accept == 1.0
    assert table["agent"].accuracy == 1.0 and table["sentence"].localisation == 1.0
    text = metrics_table(table)
    assert "false-accept rate" in text and "100.0%" in text
    assert (tmp_path / "traces" / "good.json").is_file()
    # Resume: every item is already recorded, so no system calls its model again.
    again = B.run_bench(ITEMS, {k: _must_not_run for k in runners}, tmp_path, "toy", resume=True)
    assert {k: [r.verdict for r in v] for k, v in again.items()} == {
        k: [r.verdict for r in v] for k, v in results.items()
    }


def test_a_failing_item_is_recorded_and_the_sweep_goes_on(tmp_path: Path) -> None:
    def broken(item: B.Item, segments: list) -> tuple:
        raise RuntimeError("model server went away")

    results = B.run_bench(ITEMS, {"global": broken}, tmp_path, "toy", resume=False)
    assert [r.verdict for r in results["global"]] == ["error", "error"]
    rows = (tmp_path / "toy-global.jsonl").read_text().splitlines()
    assert "model server went away" in json.loads(rows[0])["note"]
    assert metrics(results["global"]).errors == 2


class _LastFirstBackend:
    """A backend whose tasks finish in reverse order, as a pool's or Ray's may."""

    name = "last-first"

    def run(self, fn, items, context=None):
        from veristep.core.batch import guarded

        for index, task in reversed(list(items)):
            yield index, guarded(fn, task, context)

    def close(self) -> None:
        pass


def test_the_finished_row_file_reads_in_item_order_whatever_order_workers_finish(
    tmp_path: Path,
) -> None:
    def judged(item: B.Item, segments: list) -> tuple:
        return ("accepted" if item.correct else "rejected", None, [], "")

    backend = _LastFirstBackend()
    B.run_bench(ITEMS, {"global": judged}, tmp_path, "toy", resume=False, backend=backend)
    keys = [json.loads(line)["key"] for line in (tmp_path / "toy-global.jsonl").open()]
    assert keys == ["good", "bad"]
    # A resumed, longer sweep keeps the earlier rows and puts the new item in its place.
    longer = [ITEMS[0], B.Item("mid", "Show 2 = 2.", True, steps=("Clear.",)), ITEMS[1]]
    B.run_bench(longer, {"global": judged}, tmp_path, "toy", resume=True, backend=backend)
    keys = [json.loads(line)["key"] for line in (tmp_path / "toy-global.jsonl").open()]
    assert keys == ["good", "mid", "bad"]


def test_prmbench_items_pair_each_original_with_its_modified_process(shared_data: Path) -> None:
    items = B.load_items("prmbench", limit=4)
    assert [i.correct for i in items] == [True, False, True, False]
    assert items[1].error_step == 2 and items[1].key.endswith(":modified")
    opc = B.load_items("opc")
    assert len(opc) == 434 and sum(i.correct for i in opc) == 161


def _must_not_run(item: B.Item, segments: list) -> tuple:
    raise AssertionError("resume must not run a recorded item again")


def test_a_dead_endpoint_stops_the_sweep_unrecorded_and_resume_asks_again(tmp_path: Path) -> None:
    from veristep.review.calls import ModelUnavailable

    def down(item: B.Item, segments: list) -> tuple:
        if item.key == "bad":
            raise ModelUnavailable("connection refused")
        return "accepted", None, [], ""

    with pytest.raises(ModelUnavailable):
        B.run_bench(ITEMS, {"global": down}, tmp_path, "toy", resume=False)
    rows = (tmp_path / "toy-global.jsonl").read_text().splitlines()
    assert [json.loads(r)["key"] for r in rows] == ["good"]  # "bad" is neither in the JSONL ...
    asked: list[str] = []

    def up(item: B.Item, segments: list) -> tuple:
        asked.append(item.key)
        return "rejected", 2, [], ""

    results = B.run_bench(ITEMS, {"global": up}, tmp_path, "toy", resume=True)
    assert asked == ["bad"]  # ... nor in the store: the resumed sweep asks for it, and only it
    assert [r.verdict for r in results["global"]] == ["accepted", "rejected"]
