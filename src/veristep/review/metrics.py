"""Benchmark figures: the metrics table, and the offline grounding figure on the PRMBench slice.

>>> from veristep.review.bench import Result
>>> rows = [Result("a", "agent", True, "accepted", None, None, 10, 1, 0.1),
...         Result("b", "agent", False, "rejected", 2, True, 30, 3, 0.1),
...         Result("c", "agent", False, "accepted", None, None, 20, 2, 0.1)]
>>> m = metrics(rows)
>>> (m.false_accept, m.false_reject, m.accuracy, m.localisation, m.tokens_per_item)
(0.5, 0.0, 0.6666666666666666, 1.0, 20.0)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from veristep.review.bench import Result
from veristep.review.machine import MachineOutcome, check_steps


@dataclass(frozen=True)
class Metrics:
    n: int
    correct_items: int
    incorrect_items: int
    false_accept: float | None  # accepted among the incorrect proofs
    false_reject: float | None  # rejected among the correct proofs
    accuracy: float | None  # accepted-correct + rejected-incorrect, over all (undecided is wrong)
    undecided: float | None
    localisation: float | None  # flagged the labelled error step, among rejected labelled ones
    tokens_per_item: float | None
    errors: int


def metrics(results: list[Result]) -> Metrics:
    good = [r for r in results if r.correct]
    bad = [r for r in results if not r.correct]
    hits = [r.localised for r in bad if r.localised is not None]
    right = sum(1 for r in good if r.verdict == "accepted") + sum(
        1 for r in bad if r.verdict == "rejected"
    )
    return Metrics(
        n=len(results),
        correct_items=len(good),
        incorrect_items=len(bad),
        false_accept=_share(sum(1 for r in bad if r.verdict == "accepted"), len(bad)),
        false_reject=_share(sum(1 for r in good if r.verdict == "rejected"), len(good)),
        accuracy=_share(right, len(results)),
        undecided=_share(sum(1 for r in results if r.verdict == "undecided"), len(results)),
        localisation=_share(sum(hits), len(hits)),
        tokens_per_item=_share(sum(r.tokens for r in results), len(results)),
        errors=sum(1 for r in results if r.verdict == "error"),
    )


def metrics_table(per_system: dict[str, Metrics]) -> str:
    """The systems side by side, one column each."""
    rows = [
        ("items (correct/incorrect)", lambda m: f"{m.n} ({m.correct_items}/{m.incorrect_items})"),
        ("false-accept rate", lambda m: _pct(m.false_accept)),
        ("false-reject rate", lambda m: _pct(m.false_reject)),
        ("accuracy", lambda m: _pct(m.accuracy)),
        ("undecided", lambda m: _pct(m.undecided)),
        ("error-step localisation", lambda m: _pct(m.localisation)),
        (
            "tokens / item",
            lambda m: "-" if m.tokens_per_item is None else f"{m.tokens_per_item:.0f}",
        ),
        ("failed items", lambda m: str(m.errors)),
    ]
    names = list(per_system)
    width = max(12, *(len(n) for n in names))
    out = [f"{'metric':<26}" + "".join(f"{n:>{width + 2}}" for n in names)]
    for label, show in rows:
        out.append(f"{label:<26}" + "".join(f"{show(per_system[n]):>{width + 2}}" for n in names))
    return "\n".join(out)


# Checks that decide a closed computation: formulas without free letters (after the values a
# sentence fixes are put in), and a division with remainder said in words.
CLOSED_COMPUTATION_CHECKS = frozenset({"exact_arithmetic", "exact_real", "division_remainder"})


@dataclass(frozen=True)
class GroundingFigure:
    """What machine checks alone do on the PRMBench slice (no model involved)."""

    error_steps: int  # labelled erroneous steps (modified processes)
    computational_error_steps: int  # ... that contain a closed computation
    caught: int  # ... that the machine marks FLAWED
    correct_steps: int  # steps of the original (correct) processes
    correct_flagged: int  # ... that the machine marks FLAWED: must be 0
    unlabelled_flagged: int  # modified-process steps outside error_steps marked FLAWED
    caught_keys: tuple[str, ...]
    correct_flagged_keys: tuple[str, ...]

    @property
    def caught_share(self) -> float:
        return self.caught / self.error_steps if self.error_steps else 0.0

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "caught_share": round(self.caught_share, 4)}


def grounding_figure(rows: list[dict[str, Any]]) -> GroundingFigure:
    """Machine-check every step of ``rows`` (PRMBench JSON rows) and count catches and misfires."""
    err = comp = caught = good = bad_good = unlabelled = 0
    caught_keys, misfire_keys = [], []
    for row in rows:
        # Each process is read in its own context: the question, then the steps before.
        original = check_steps(row["original_process"], row.get("original_question", ""))
        for i, result in enumerate(original, 1):
            good += 1
            if result.outcome == MachineOutcome.REFUTED:
                bad_good += 1
                misfire_keys.append(f"{row['idx']}:original:{i}")
        labelled = set(row["error_steps"])
        modified = check_steps(row["modified_process"], row.get("modified_question", ""))
        for i, result in enumerate(modified, 1):
            if i not in labelled:
                unlabelled += result.outcome == MachineOutcome.REFUTED
                continue
            err += 1
            comp += any(c.check in CLOSED_COMPUTATION_CHECKS for c in result.checks)
            if result.outcome == MachineOutcome.REFUTED:
                caught += 1
                caught_keys.append(f"{row['idx']}:modified:{i}")
    return GroundingFigure(
        err, comp, caught, good, bad_good, unlabelled, tuple(caught_keys), tuple(misfire_keys)
    )


def _share(part: float, whole: int) -> float | None:
    return part / whole if whole else None


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"
