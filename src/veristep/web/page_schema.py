"""One strict schema per page block kind, checked when a page is saved.

A page is stored only when every block fits its kind's schema: strings and lists have bounds,
numbers are finite, a plot's range is ordered, a workspace's nodes form one tree rooted at the
start with a bounded depth. What fails answers 422 with the path of the bad field and is never
stored, so no saved page can make a view loop, crash or answer 500.

Tiers never come from here: a derivation's or a workspace's tiers, verdicts and confidences are
claims of the client, so the schemas accept them (a derivation exported by ``derive --json`` has
them) and :func:`clean_block` drops them; the server grades the block itself
(``web.page_grading``).

>>> clean_block(validate_block({"kind": "plot", "data": {"expr": "x^2", "from": -1, "to": 2}}))
{'kind': 'plot', 'data': {'expr': 'x^2', 'from': -1.0, 'to': 2.0, 'var': 'x'}}
>>> validate_block({"kind": "plot", "data": {"expr": "x", "from": 3, "to": 1}})
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for tagged-union[...]
...
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)

BLOCK_KINDS = ("markdown", "plot", "derivation", "workspace", "exercise")
MAX_BLOCKS = 200
MAX_TEXT = 20_000
MAX_LATEX = 20_000
MAX_WORDS = 500  # an operation, a justification, a warning
MAX_STATES = 200
MAX_NODES = 300
MAX_DEPTH = 100  # steps from a workspace's start to its deepest node
MAX_CHOICES = 12
MAX_PLOT_SPAN = 1e6  # |from|, |to|: beyond this a plot of 161 samples shows nothing useful

Latex = Annotated[str, Field(min_length=1, max_length=MAX_LATEX)]
Words = Annotated[str, Field(max_length=MAX_WORDS)]
Finite = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_PLOT_SPAN, le=MAX_PLOT_SPAN)]
Ident = Annotated[int, Field(ge=0, le=1_000_000)]
ChangeTypeName = Literal["rewrite", "solve", "substitute", "approximate", "given"]


class _Strict(BaseModel):
    """No unknown fields, no coercion ("3" is not a number, 1 is not a string)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class _Open(BaseModel):
    """Known fields typed and bounded; other fields (a client's verdicts) are allowed, unused."""

    model_config = ConfigDict(extra="allow", strict=True)


# ---- markdown and plot ------------------------------------------------------------------------


class MarkdownData(_Strict):
    text: Annotated[str, Field(max_length=MAX_TEXT)]


class PlotData(_Strict):
    expr: Annotated[str, Field(min_length=1, max_length=2_000)]
    low: Finite = Field(default=-5.0, alias="from")
    high: Finite = Field(default=5.0, alias="to")
    var: Annotated[str, Field(pattern=r"^[A-Za-z]$")] = "x"

    @model_validator(mode="after")
    def _ordered(self) -> PlotData:
        if not self.low < self.high:
            raise ValueError(f"'from' ({self.low:g}) must be less than 'to' ({self.high:g})")
        return self


# ---- derivation -------------------------------------------------------------------------------


class StateIn(_Open):
    latex: Latex


class StepIn(_Open):
    operation: Words | None = None
    justification: Words | None = None
    change_type: ChangeTypeName | None = None


class ProposerIn(_Open):
    kind: Annotated[str, Field(max_length=40)] | None = None
    model: Annotated[str, Field(max_length=200)] | None = None


class DerivationIn(_Open):
    states: Annotated[list[StateIn | Latex], Field(min_length=1, max_length=MAX_STATES)]
    steps: Annotated[list[StepIn], Field(max_length=MAX_STATES)] = []
    start: Latex | None = None
    target: Annotated[str, Field(max_length=MAX_LATEX)] | None = None
    proposer: ProposerIn | None = None

    @model_validator(mode="after")
    def _steps_fit(self) -> DerivationIn:
        if self.steps and len(self.steps) != len(self.states) - 1:
            raise ValueError(
                f"{len(self.states)} states need {len(self.states) - 1} steps, "
                f"not {len(self.steps)}"
            )
        return self


class DerivationData(_Strict):
    derivation: DerivationIn


# ---- workspace --------------------------------------------------------------------------------


class NodeIn(_Open):
    id: Ident
    parent: Ident | None = None
    latex: Latex
    operation: Words | None = None
    kind: Annotated[str, Field(max_length=40)] | None = None
    change_type: ChangeTypeName | None = None
    warnings: Annotated[list[Words], Field(max_length=20)] = []


class WorkspaceIn(_Open):
    start: Latex
    cursor: Ident = 0
    positive: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=26)] = []
    nodes: Annotated[list[NodeIn], Field(min_length=1, max_length=MAX_NODES)]

    @model_validator(mode="after")
    def _one_tree(self) -> WorkspaceIn:
        check_tree([(n.id, n.parent) for n in self.nodes], self.cursor)
        return self


class WorkspaceData(_Strict):
    workspace: WorkspaceIn


def check_tree(edges: list[tuple[int, int | None]], cursor: int) -> None:
    """Raise ValueError unless ``(id, parent)`` pairs form one tree rooted at node 0.

    >>> check_tree([(0, None), (1, 0), (2, 1)], 2)
    >>> check_tree([(0, 0)], 0)
    Traceback (most recent call last):
    ...
    ValueError: node 0 is the start and cannot have a parent (it names 0)
    >>> check_tree([(0, None), (1, 2), (2, 1)], 0)
    Traceback (most recent call last):
    ...
    ValueError: node 1 is on a cycle of parents (1 → 2 → 1)
    """
    parents: dict[int, int | None] = {}
    for ident, parent in edges:
        if ident in parents:
            raise ValueError(f"node id {ident} appears twice")
        parents[ident] = parent
    if 0 not in parents:
        raise ValueError("the nodes need the start, node 0")
    if parents[0] is not None:
        raise ValueError(f"node 0 is the start and cannot have a parent (it names {parents[0]})")
    for ident, parent in parents.items():
        if ident != 0 and parent is None:
            raise ValueError(f"node {ident} has no parent; only the start (node 0) may")
        if parent is not None and parent not in parents:
            raise ValueError(f"node {ident} names a parent {parent} that is not among the nodes")
    depth: dict[int, int] = {0: 0}
    for ident in parents:
        trail: list[int] = []
        at: int | None = ident
        while at is not None and at not in depth:
            if at in trail:
                cycle = [*trail[trail.index(at) :], at]
                raise ValueError(
                    f"node {cycle[0]} is on a cycle of parents ({' → '.join(map(str, cycle))})"
                )
            trail.append(at)
            at = parents[at]
        base = depth[at] if at is not None else 0
        for k, node in enumerate(reversed(trail), 1):
            depth[node] = base + k
            if depth[node] > MAX_DEPTH:
                raise ValueError(
                    f"node {node} is {depth[node]} steps deep; the limit is {MAX_DEPTH}"
                )
    if cursor not in parents:
        raise ValueError(f"the cursor names node {cursor}, which is not among the nodes")


# ---- exercise ---------------------------------------------------------------------------------


class ChoiceIn(_Open):
    latex: Latex
    correct: bool
    family: Annotated[str, Field(max_length=80)] | None = None


class ExerciseIn(_Open):
    state: Latex
    expected: Latex
    operation: Words | None = None
    choices: Annotated[list[ChoiceIn], Field(max_length=MAX_CHOICES)] = []
    step: Annotated[int, Field(ge=1, le=MAX_STATES)] | None = None


class ExerciseData(_Strict):
    exercise: ExerciseIn


# ---- blocks -----------------------------------------------------------------------------------


class MarkdownBlock(_Strict):
    kind: Literal["markdown"]
    data: MarkdownData


class PlotBlock(_Strict):
    kind: Literal["plot"]
    data: PlotData


class DerivationBlock(_Strict):
    kind: Literal["derivation"]
    data: DerivationData


class WorkspaceBlock(_Strict):
    kind: Literal["workspace"]
    data: WorkspaceData


class ExerciseBlock(_Strict):
    kind: Literal["exercise"]
    data: ExerciseData


BlockIn = Annotated[
    MarkdownBlock | PlotBlock | DerivationBlock | WorkspaceBlock | ExerciseBlock,
    Field(discriminator="kind"),
]
_BLOCK = TypeAdapter(BlockIn)


def validate_block(raw: Any) -> BlockIn:
    """The block parsed by its kind's schema; a pydantic ``ValidationError`` names what is wrong."""
    return _BLOCK.validate_python(raw)


def block_problem(raw: Any) -> str | None:
    """Why a stored block does not fit its schema (one line), or None when it does."""
    try:
        validate_block(raw)
    except ValidationError as exc:
        return describe(exc)
    return None


def describe(exc: ValidationError, prefix: str = "") -> str:
    """A pydantic error as ``path: message; …`` (the discriminator's tag left out of paths)."""
    problems = []
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ())]
        if len(loc) >= 2 and loc[1] in BLOCK_KINDS and loc[0] != "data":
            loc = loc[:1] + loc[2:]  # blocks.3.plot.data.from -> blocks.3.data.from
        elif loc and loc[0] in BLOCK_KINDS:
            loc = loc[1:]
        path = ".".join([p for p in (prefix, *loc) if p])
        problems.append(f"{path or 'block'}: {err.get('msg', 'invalid')}")
    return "; ".join(problems[:5]) + ("; …" if len(problems) > 5 else "")


def clean_block(block: BlockIn) -> dict[str, Any]:
    """The block as stored: only the fields this server uses; every client verdict dropped."""
    data: dict[str, Any]
    if isinstance(block, MarkdownBlock):
        data = {"text": block.data.text}
    elif isinstance(block, PlotBlock):
        d = block.data
        data = {"expr": d.expr, "from": d.low, "to": d.high, "var": d.var}
    elif isinstance(block, DerivationBlock):
        data = {"derivation": _clean_derivation(block.data.derivation)}
    elif isinstance(block, WorkspaceBlock):
        data = {"workspace": _clean_workspace(block.data.workspace)}
    else:
        data = {"exercise": _clean_exercise(block.data.exercise)}
    return {"kind": block.kind, "data": data}


def _clean_derivation(d: DerivationIn) -> dict[str, Any]:
    states = [{"latex": s.latex if isinstance(s, StateIn) else s} for s in d.states]
    steps = []
    for s in d.steps:
        fields = {"operation": s.operation, "justification": s.justification}
        fields["change_type"] = s.change_type
        steps.append({k: v for k, v in fields.items() if v})
    out: dict[str, Any] = {"states": states, "steps": steps, "target": d.target}
    out["start"] = d.start if d.start is not None else states[0]["latex"]
    if d.proposer is not None and d.proposer.kind:
        out["proposer"] = {"kind": d.proposer.kind, "model": d.proposer.model}
    return out


def _clean_workspace(w: WorkspaceIn) -> dict[str, Any]:
    nodes = []
    for n in sorted(w.nodes, key=lambda n: _depth(n.id, w.nodes)):
        node: dict[str, Any] = {"id": n.id, "parent": n.parent, "latex": n.latex}
        node.update(operation=n.operation, kind=n.kind, change_type=n.change_type)
        node["warnings"] = list(n.warnings)
        nodes.append(node)
    # The start is node 0's state: the two can never disagree once stored.
    nodes = [{**n, "latex": w.start} if n["id"] == 0 else n for n in nodes]
    return {"start": w.start, "cursor": w.cursor, "positive": list(w.positive), "nodes": nodes}


def _depth(ident: int, nodes: list[NodeIn]) -> int:
    """Steps from the start (the tree was checked, so the walk ends); parents sort first."""
    parent = {n.id: n.parent for n in nodes}
    depth, at = 0, parent[ident]
    while at is not None:
        depth, at = depth + 1, parent[at]
    return depth


def _clean_exercise(e: ExerciseIn) -> dict[str, Any]:
    choices = [{"latex": c.latex, "correct": c.correct, "family": c.family} for c in e.choices]
    return {"state": e.state, "expected": e.expected, "operation": e.operation,
            "choices": choices, "step": e.step}  # fmt: skip
