"""Offline PRMBench figure: machine checks alone catch computational errors, no correct step."""

from __future__ import annotations

import json
from pathlib import Path

from veristep.review.metrics import grounding_figure


def test_grounding_alone_on_the_prmbench_slice_flags_no_correct_step(shared_data: Path) -> None:
    path = shared_data / "prmbench_slice" / "prmbench_subset_slice.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    figure = grounding_figure(rows)
    assert figure.correct_steps == 1505 and figure.error_steps == 225
    # Soundness: not one step of the correct processes, nor an unlabelled modified step.
    assert figure.correct_flagged == 0, figure.correct_flagged_keys
    assert figure.unlabelled_flagged == 0
    # Recall on what the machine can see: the known computational errors are caught.
    assert {
        "prm_test_p1_4:modified:13",
        "prm_test_p1_10:modified:6",
    } <= set(figure.caught_keys)
    assert figure.caught >= 4 and figure.caught <= figure.computational_error_steps


def test_machine_checks_flag_no_step_of_the_correct_opc_proofs(shared_data: Path) -> None:
    from veristep.review.machine import machine_check
    from veristep.review.segment import segment_proof

    path = shared_data / "opc_judge_test" / "opc_judge_test.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    flagged, grounded, steps = [], 0, 0
    for row in rows:
        if row["label"] != "correct":
            continue
        for seg in segment_proof(row["proof"], strict=False):
            steps += 1
            outcome = machine_check(seg.text).outcome
            grounded += outcome == "grounded"
            if outcome == "refuted":
                flagged.append(f"{row['id']}:{seg.id}")
    assert steps > 7000 and grounded > 20
    assert flagged == []
