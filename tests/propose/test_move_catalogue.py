"""The planner's named moves are one closed catalogue (``propose/symbolic/catalogue.py``): every
name the proposer's modules write is in it, every name the planner offers while solving the
catalogue's examples and the benchmark problems is in it, and on each entry's example the real
planner (SymPy, nothing faked) offers that entry's move, declaring one of its change types."""

from __future__ import annotations

import ast
import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.tiers import ChangeType
from veristep.propose.symbolic import planner, proposer
from veristep.propose.symbolic.catalogue import CATALOGUE, MOVES, NamedMove

ROOT = Path(__file__).resolve().parents[2]
PROPOSE = ROOT / "src" / "veristep" / "propose"
BENCH_PROBLEMS = [ROOT / "bench" / "derive_pairs.jsonl", ROOT / "bench" / "derive_syllabus.jsonl"]
SETTINGS = Settings()
HOW_TO_ADD = (
    "add each to src/veristep/propose/symbolic/catalogue.py as "
    'NamedMove("<name>", "<rewrite or solve>", "<start>", "<target>"), with a problem on which '
    "the planner offers the move"
)

# What the planner offered (and then wrote) while planning one problem: name → change types.
Seen = dict[str, set[str]]


def _called(node: ast.Call) -> str | None:
    return getattr(node.func, "id", None) or getattr(node.func, "attr", None)


def _names_in(node: ast.AST) -> list[str]:
    """Move names one node writes: the first argument (or ``name=``) of ``Move(...)`` and
    ``PlannedStep(...)``, or the string default of a parameter called ``name``."""
    if isinstance(node, ast.Call) and _called(node) in ("Move", "PlannedStep"):
        keyword = next((k.value for k in node.keywords if k.arg == "name"), None)
        first = node.args[0] if node.args else keyword
        written = isinstance(first, ast.Constant) and isinstance(first.value, str)
        return [first.value] if written else []
    if isinstance(node, ast.FunctionDef):
        args = node.args
        defaulted = args.args[len(args.args) - len(args.defaults) :]
        positional = zip(defaulted, args.defaults, strict=True)
        pairs = [*positional, *zip(args.kwonlyargs, args.kw_defaults, strict=True)]
        return [
            d.value
            for a, d in pairs
            if a.arg == "name" and isinstance(d, ast.Constant) and isinstance(d.value, str)
        ]
    return []


def written_names() -> dict[str, str]:
    """Every move name written as a string in the proposer's modules, with where it is."""
    found: dict[str, str] = {}
    for path in sorted(PROPOSE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for name in _names_in(node):
                found.setdefault(name, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


@pytest.fixture(scope="module")
def watch() -> Iterator[Seen]:
    """Records every move the planner offers (its candidates at every state it expands)."""
    seen: Seen = defaultdict(set)
    offer = planner.candidates

    def recording(state, problem):
        moves = offer(state, problem)
        for move in moves:
            seen[move.name].add(move.change_type)
        return moves

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(planner, "candidates", recording)
        yield seen


def plan_and_watch(seen: Seen, start: str, target: str) -> Seen:
    """The planner's search as ``derive`` runs it (in this process, so that it can be watched):
    the moves it offered and the steps it wrote."""
    seen.clear()
    goal = proposer.latex_to_sympy(target, SETTINGS) if target else None
    found = proposer._plan_as_written(start, goal, SETTINGS, target_latex=target, budget_s=5.0)
    out = {name: set(types) for name, types in seen.items()}
    for step in found.steps:
        out.setdefault(step.name, set()).add(step.change_type)
    return out


def test_every_move_name_the_planner_writes_is_catalogued() -> None:
    written = written_names()
    assert len(written) > 60  # the scan sees the planner's modules
    missing = {name: where for name, where in written.items() if name not in MOVES}
    assert missing == {}, f"move names not in the catalogue: {missing}; {HOW_TO_ADD}"


def test_the_catalogue_has_one_entry_per_name_and_known_change_types() -> None:
    assert len(MOVES) == len(CATALOGUE)
    assert all(m.change_types and m.change_types <= set(ChangeType) for m in CATALOGUE)


@pytest.mark.parametrize("move", CATALOGUE, ids=lambda m: m.name)
def test_the_planner_offers_each_move_on_its_example(watch: Seen, move: NamedMove) -> None:
    proposer.latex_to_sympy(move.start, SETTINGS)  # the example is a problem the reader reads
    seen = plan_and_watch(watch, move.start, move.target)
    if not move.offered:
        assert move.name not in seen, "the move is reached now: mark its entry offered=True"
        return
    assert move.name in seen, (
        f"not offered on its example (offered: {sorted(seen)}); give its entry in "
        "src/veristep/propose/symbolic/catalogue.py a problem on which the planner offers it"
    )
    assert seen[move.name] <= {str(t) for t in move.change_types}
    unknown = sorted(set(seen) - set(MOVES))
    assert unknown == [], f"offered on this example but not catalogued: {unknown}; {HOW_TO_ADD}"


def test_every_move_offered_on_the_benchmark_problems_is_catalogued(watch: Seen) -> None:
    unknown: dict[str, str] = {}
    for path in BENCH_PROBLEMS:
        for line in path.read_text(encoding="utf-8").splitlines():
            problem = json.loads(line)
            try:
                seen = plan_and_watch(watch, problem["start"], problem.get("target", ""))
            except InputError:  # a problem the reader refuses (own040) offers no move to check
                continue
            for name in set(seen) - set(MOVES):
                unknown.setdefault(name, f"{problem['start']} → {problem.get('target', '')}")
    assert unknown == {}, f"offered but not catalogued (name: a problem): {unknown}; {HOW_TO_ADD}"
