"""The shape of the package: no import cycles, the ground floor knows no upper room, and the
subpackage import order written in docs/design.md holds.

The import graph is read from the source with ``ast`` (nothing is imported): module-level imports,
including those under ``if TYPE_CHECKING:``, are one graph; imports inside functions are another,
checked separately, because a cycle hidden in a function is still a cycle in the design.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src"
DESIGN = ROOT / "docs" / "design.md"

# The parser is one class assembled from part mixins that call one another through ``self``; the
# parts import the whole parser to build sub-parsers. That one knot is allowed, nothing else.
PARSER_PARTS = frozenset(
    {
        "veristep.mathgraph.calculus",
        "veristep.mathgraph.groups",
        "veristep.mathgraph.parser",
        "veristep.mathgraph.primary",
        "veristep.mathgraph.scripts",
    }
)


@dataclass
class ImportGraph:
    """Modules of ``veristep`` and what each imports, at module level and inside functions."""

    modules: dict[str, Path]
    module_level: dict[str, set[str]] = field(default_factory=dict)
    in_functions: dict[str, set[str]] = field(default_factory=dict)

    def combined(self) -> dict[str, set[str]]:
        return {m: self.module_level[m] | self.in_functions[m] for m in self.modules}

    def all_edges(self) -> Iterator[tuple[str, str]]:
        for source, targets in self.combined().items():
            for target in sorted(targets):
                yield source, target


def module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_package else parts), is_package


def imported_names(node: ast.Import | ast.ImportFrom, package: str, modules: dict) -> list[str]:
    """The modules one import statement names (``from pkg import mod`` names ``pkg.mod``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        origin = ".".join([*base, *([node.module] if node.module else [])])
    else:
        origin = node.module or ""
    return [
        f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in modules else origin
        for alias in node.names
    ]


def owning_module(name: str, modules: dict) -> str | None:
    """The longest prefix of a dotted name that is a veristep module (``a.b.func`` → ``a.b``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def read_graph() -> ImportGraph:
    modules: dict[str, Path] = {}
    packages: set[str] = set()
    for path in sorted((SOURCE / "veristep").rglob("*.py")):
        name, is_package = module_name(path)
        modules[name] = path
        if is_package:
            packages.add(name)
    graph = ImportGraph(modules, {m: set() for m in modules}, {m: set() for m in modules})
    for name, path in modules.items():
        package = name if name in packages else name.rpartition(".")[0]
        walk(ast.parse(path.read_text()), name, package, graph, in_function=False)
    return graph


def walk(node: ast.AST, name: str, package: str, graph: ImportGraph, in_function: bool) -> None:
    for child in ast.iter_child_nodes(node):
        nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
        if isinstance(child, ast.Import | ast.ImportFrom):
            edges = graph.in_functions if nested else graph.module_level
            for imported in imported_names(child, package, graph.modules):
                target = owning_module(imported, graph.modules)
                if target and target != name and target.startswith("veristep"):
                    edges[name].add(target)
        walk(child, name, package, graph, nested)


def strongly_connected(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """Tarjan's algorithm, iterative: the components of more than one module (the cycles)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            successor = next(successors, None)
            if successor is not None:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                elif successor in on_stack:
                    low[node] = min(low[node], index[successor])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def subpackage(module: str) -> str:
    """``veristep.grounding.checks.x`` → ``grounding``; ``veristep.cli`` → ``cli``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


@dataclass(frozen=True)
class ImportRules:
    """The rules ``docs/design.md`` writes under "Layout and the direction of imports"."""

    order: list[str]  # core ← mathgraph ← …: each may import only those to its left
    servants: dict[str, list[str]]  # `llm` serves `propose`, …: llm imports none of them
    untouchable: list[str]  # "Nothing imports `web` or `cli`"

    def broken_by(self, source: str, target: str) -> str | None:
        """Why an import from one subpackage to another breaks the rules, or None."""
        if source == target:
            return None
        ordered = source in self.order and target in self.order
        if ordered and self.order.index(target) > self.order.index(source):
            return f"{source} sits below {target} in the import order"
        if target in self.servants.get(source, []):
            return f"{source} serves {target}"
        if target in self.untouchable and source not in self.untouchable:
            return f"nothing imports {target}"
        return None


def read_rules() -> ImportRules:
    text = DESIGN.read_text()
    section = text.split("## Layout and the direction of imports", 1)[1].split("\n## ", 1)[0]
    prose = " ".join(section.split())
    flow = re.search(r"Imports flow one way: ((?:`\w+`(?: ← )?)+)", prose)
    servants = re.findall(r"`(\w+)` serves ((?:`\w+`(?:, | and )?)+)", prose)
    untouchable = re.search(r"Nothing imports ((?:`\w+`(?: or )?)+)", prose)
    assert flow and servants and untouchable, "docs/design.md no longer states the import rules"
    return ImportRules(
        order=re.findall(r"`(\w+)`", flow.group(1)),
        servants={name: re.findall(r"`(\w+)`", served) for name, served in servants},
        untouchable=re.findall(r"`(\w+)`", untouchable.group(1)),
    )


@pytest.fixture(scope="module")
def graph() -> ImportGraph:
    return read_graph()


def test_the_graph_sees_module_level_and_type_checking_imports(graph: ImportGraph) -> None:
    # Facts of the tree that make the walk trustworthy: a plain import, a relative-free
    # ``from pkg import module`` and an import inside a function are all seen.
    assert "veristep.core.tiers" in graph.module_level["veristep.review.machine"]
    assert "veristep.review.ledger" in graph.module_level["veristep.review.agent"]
    assert "veristep.core.pool" in graph.in_functions["veristep.review.machine"]


def test_tarjan_finds_a_cycle_and_ignores_a_chain() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert strongly_connected(edges) == [frozenset({"a", "b", "c"})]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_at_module_level_except_the_parser_parts(graph: ImportGraph) -> None:
    cycles = strongly_connected(graph.module_level)
    assert all(cycle <= PARSER_PARTS for cycle in cycles), [sorted(c) for c in cycles]


def test_imports_inside_functions_close_no_cycle_but_the_parser_parts(
    graph: ImportGraph,
) -> None:
    cycles = strongly_connected(graph.combined())
    assert [sorted(cycle) for cycle in cycles if not cycle <= PARSER_PARTS] == []


def test_the_ground_floor_names_no_upper_subpackage(graph: ImportGraph) -> None:
    ground = {"core", "mathgraph"}
    upward = {
        (source, target)
        for source, target in graph.all_edges()
        if subpackage(source) in ground and subpackage(target) not in ground
    }
    assert upward == set()


def test_the_import_order_written_in_the_design_holds(graph: ImportGraph) -> None:
    rules = read_rules()
    assert rules.order[:3] == ["core", "mathgraph", "grounding"]
    broken = {
        (source, target, why)
        for source, target in graph.all_edges()
        if (why := rules.broken_by(subpackage(source), subpackage(target)))
    }
    assert broken == set()


# Exceptions outside the hierarchy on purpose: BaseException subclasses are not listed (they must
# get past a library's ``except Exception``); this one is the pool's internal delivery signal,
# which never leaves core/pool.py, and moves under VeristepError with the pool's next change.
OUTSIDE_THE_HIERARCHY = {"veristep.core.pool._NotDelivered"}


def test_every_exception_veristep_defines_derives_from_veristep_error(graph: ImportGraph) -> None:
    import importlib
    import inspect

    from veristep.core.errors import VeristepError

    outside = set()
    for name in graph.modules:
        module = importlib.import_module(name)
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            defined_here = cls.__module__ == name
            if defined_here and issubclass(cls, Exception) and not issubclass(cls, VeristepError):
                outside.add(f"{name}.{cls_name}")
    assert outside == OUTSIDE_THE_HIERARCHY
