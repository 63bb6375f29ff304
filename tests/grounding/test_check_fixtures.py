"""Per-check fixture files: LaTeX transition → expected relation and tier (the sqlglot pattern).

Each ``fixtures/<check>.txt`` holds transitions that the check of that name must decide; the file
``adversarial.txt`` holds the traps of the issue, which any check may decide.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.grounding import CHECKS, Context, judge_transition

FIXTURES = Path(__file__).parent / "fixtures"
CHECK_FILES = [c.__name__ for c in CHECKS]
SETTINGS = Settings(step_timeout_s=6.0, cas_timeout_s=3.0)


@dataclass(frozen=True)
class Case:
    file: str
    line: int
    prev: str
    nxt: str
    change_type: str | None
    relation: str
    tier: str
    positive: frozenset[str]


def load_cases(name: str) -> list[Case]:
    """``previous ;; next ;; change_type|- ;; relation ;; tier [;; positive=a,b]`` per line."""
    cases = []
    path = FIXTURES / f"{name}.txt"
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in raw.split(";;")]
        if len(fields) not in (5, 6):
            raise ValueError(f"{path.name}:{number}: expected 5 or 6 fields, got {len(fields)}")
        positive: frozenset[str] = frozenset()
        if len(fields) == 6:
            key, _, names = fields[5].partition("=")
            assert key == "positive", f"{path.name}:{number}: unknown option {key!r}"
            positive = frozenset(n.strip() for n in names.split(","))
        ct = None if fields[2] == "-" else fields[2]
        cases.append(Case(name, number, fields[0], fields[1], ct, fields[3], fields[4], positive))
    return cases


ALL_CASES = [c for name in [*CHECK_FILES, "adversarial"] for c in load_cases(name)]


def test_every_check_module_is_in_the_cascade_once() -> None:
    import veristep.grounding.checks as package

    modules = sorted(
        p.stem for p in Path(package.__file__).parent.glob("*.py") if p.stem != "__init__"
    )
    assert sorted(CHECK_FILES) == modules  # one module per check, each listed exactly once


def test_every_check_has_a_fixture_file() -> None:
    for name in CHECK_FILES:
        assert load_cases(name), f"fixtures/{name}.txt is missing or empty"


@pytest.mark.parametrize("case", ALL_CASES, ids=[f"{c.file}:{c.line}" for c in ALL_CASES])
def test_fixture(case: Case) -> None:
    ctx = Context(settings=SETTINGS, positive=case.positive)
    verdict = judge_transition(case.prev, case.nxt, case.change_type, ctx)
    got = (verdict.relation.value, verdict.tier.name_lower)
    assert got == (case.relation, case.tier), verdict.reason
    if case.file != "adversarial":
        assert verdict.check == case.file, f"decided by {verdict.check}: {verdict.reason}"
    if verdict.tier is Tier.REFUTED:
        assert verdict.witness not in (None, "", [], {}), "a refutation needs a witness"
