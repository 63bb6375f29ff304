"""The student-input corpus: ≥ 97 % read as meant, everything else refused with a position,
and never a silent misreading (see tests/data/student_input/PROVENANCE.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    """The scorer lives in bench/plain_input.py, so the test and the figures cannot drift."""
    spec = importlib.util.spec_from_file_location(
        "plain_input_bench", ROOT / "bench" / "plain_input.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("part", ["dev.jsonl", "heldout.jsonl"])
def test_corpus_part_is_read_as_meant_or_refused_with_a_position(part: str) -> None:
    bench = _bench()
    rows = bench.load(part)
    result = bench.score(rows)
    meant = [o for o in result.outcomes if not o.row.get("refuse")]
    misread = [o for o in result.outcomes if o.verdict in ("misread", "unlocated")]
    assert not misread, [(o.row["input"], o.detail) for o in misread]
    refused_labelled = [o for o in result.outcomes if o.row.get("refuse")]
    assert all(o.verdict == "refused" for o in refused_labelled)
    read = sum(o.verdict == "meant" for o in meant)
    assert read / len(meant) >= 0.97, (read, len(meant))


def test_corpus_is_large_enough_with_a_held_out_fifth() -> None:
    bench = _bench()
    dev, held = bench.load("dev.jsonl"), bench.load("heldout.jsonl")
    assert len(dev) + len(held) >= 300
    assert len(held) >= 0.12 * (len(dev) + len(held))
    assert not {r["input"] for r in dev} & {r["input"] for r in held}


def test_the_scorer_catches_a_misreading() -> None:
    """A wrong intended meaning must come out as a misreading, not as read as meant."""
    bench = _bench()
    outcome = bench.judge({"id": "t", "input": "3/4 y", "latex": r"\frac{3}{4 y}"})
    assert outcome.verdict == "misread"
    outcome = bench.judge({"id": "t", "input": "x = 1 or x = 4", "latex": r"x = 1 \land x = 4"})
    assert outcome.verdict == "misread"
    outcome = bench.judge({"id": "t", "input": "x^2", "refuse": True})
    assert outcome.verdict == "misread"
