"""The live workspace: a state, a command line beside it, and a history tree of graded steps.

Every applied command becomes one step (two for calculus: what is computed, then its value;
solving is written out one line per planned move, as a teacher would) that the grounding cascade
grades; nothing here grades on its own. The history is a tree: ``undo``
moves to the parent, ``redo`` back to the child last visited, ``goto`` to any step, and applying
a command anywhere but at a leaf starts a new branch there.

>>> ws = Workspace("2x + 3 = 7")
>>> (node,) = ws.apply("subtract 3 from both sides")
>>> node.verdict.tier.name_lower, node.operation
('grounded', 'subtract 3 from both sides')
>>> ws.undo().latex, ws.redo().id
('2x + 3 = 7', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.core.verdicts import Derivation, StepVerdict
from veristep.grounding.decision import Context
from veristep.grounding.states import State, parse_state
from veristep.workspace.grammar import Operation, parse_command

if TYPE_CHECKING:
    from veristep.workspace.sync import TermGraph

# The proposer's advisory change type per operation; the cascade decides the tier.
_CHANGE_TYPES: dict[str, tuple[str, ...]] = {
    "solve": ("solve",),
    "substitute": ("substitute",),
    "differentiate": ("given", "rewrite"),
    "integrate": ("given", "rewrite"),
}


@dataclass
class Node:
    """One state of the history tree and the graded step that reached it (None at the root)."""

    id: int
    parent: int | None
    latex: str
    operation: str | None = None  # the command as typed
    kind: str | None = None
    change_type: str | None = None
    verdict: StepVerdict | None = None
    warnings: list[str] = field(default_factory=list)
    last_child: int | None = None  # where redo goes

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "parent": self.parent,
            "latex": self.latex,
            "operation": self.operation,
            "kind": self.kind,
            "change_type": self.change_type,
            "warnings": list(self.warnings),
            "verdict": self.verdict.to_json() if self.verdict else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Node:
        verdict = data.get("verdict")
        return cls(
            id=int(data["id"]),
            parent=data.get("parent"),
            latex=str(data["latex"]),
            operation=data.get("operation"),
            kind=data.get("kind"),
            change_type=data.get("change_type"),
            verdict=StepVerdict.from_json(verdict) if verdict else None,
            warnings=list(data.get("warnings") or []),
        )


def _plain(latex: str) -> str:
    """Written form up to spacing and explicit multiplication dots (2x is 2 \\cdot x)."""
    return latex.replace("\\cdot", "").replace(" ", "")


class Workspace:
    """A start state and every operation applied to it, graded, undoable, branchable."""

    def __init__(
        self,
        start: str,
        settings: Settings | None = None,
        positive: frozenset[str] = frozenset(),
        *,
        grade: bool = True,
    ) -> None:
        self.settings = settings or Settings()
        self.ctx = Context(settings=self.settings, positive=frozenset(positive))
        self.grade = grade  # False: leave steps ungraded (the CLI grades the chain once at the end)
        first = self._parse(start)
        if first.error is not None:
            raise InputError(f"the start state could not be read: {first.error}")
        # typed plain maths is kept as the LaTeX it was read as, so the page shows that reading
        self.nodes: dict[int, Node] = {0: Node(0, None, first.shown_latex)}
        self._states: dict[int, State] = {0: first}
        self.cursor = 0

    # ---- the tree --------------------------------------------------------------------------

    @property
    def current(self) -> Node:
        return self.nodes[self.cursor]

    def path(self, node_id: int | None = None) -> list[Node]:
        """The nodes from the start to ``node_id`` (default: the cursor)."""
        out, at = [], self.cursor if node_id is None else node_id
        while at is not None:
            out.append(self.nodes[at])
            at = self.nodes[at].parent
        return out[::-1]

    def children(self, node_id: int) -> list[Node]:
        return [n for n in self.nodes.values() if n.parent == node_id]

    def undo(self) -> Node:
        node = self.current
        if node.parent is None:
            raise InputError("nothing to undo: this is the start")
        self.nodes[node.parent].last_child = node.id
        self.cursor = node.parent
        return self.current

    def redo(self) -> Node:
        child = self.current.last_child
        if child is None:
            raise InputError("nothing to redo")
        self.cursor = child
        return self.current

    def goto(self, node_id: int) -> Node:
        """Move to any step; the next command applied there starts a branch."""
        if node_id not in self.nodes:
            raise InputError(f"no step {node_id} in this workspace")
        self.cursor = node_id
        return self.current

    # ---- applying commands -----------------------------------------------------------------

    def term(self) -> TermGraph:
        """The current state as a term ↔ graph object; its ids are what ``target`` refers to."""
        from veristep.workspace.sync import TermGraph

        return TermGraph(self.current.latex, self.settings)

    def apply(
        self, command: str | Operation, target: int | None = None, lm: Any = None
    ) -> list[Node]:
        """Parse and apply one command at the cursor; the new node(s), the cursor at the last.

        ``target`` is a node id of :meth:`term` (a clicked glyph): the operation then rewrites
        that sub-term only ("expand this") and the whole new state is graded as one step.
        With a DSPy ``lm``, a request the grammar cannot read is rewritten into a command first.
        """
        from veristep.workspace.applying import run_operation

        op = self._operation(command, lm)
        before = self._state(self.cursor)
        if op.kind == "solve" and target is None:
            planned = self._planned_solve(op, before)
            if planned:
                return planned
        if target is not None:
            latexes, warnings = self._apply_to_subterm(op, target)
        else:
            latexes, warnings = run_operation(op, before, self.settings, self.ctx.positive)
        kinds = _CHANGE_TYPES.get(op.kind, ("rewrite",))
        if latexes and self._unchanged(before, latexes[-1]):
            raise InputError(f"'{op.text}' changed nothing here")
        made = []
        for i, latex in enumerate(latexes):
            change = kinds[min(i, len(kinds) - 1)]
            label = op.text if i == len(latexes) - 1 else f"{op.text}: write it out"
            if op.kind == "solve" and target is None:  # the planner found no lines to write
                label = f"{op.text} (in one step: no worked lines were found)"
            made.append(self._append(latex, label, op.kind, change, warnings))
        return made

    def _planned_solve(self, op: Operation, before: State) -> list[Node]:
        """Solving written out as a teacher would, one graded node per line; empty when the
        planner does not reach the solutions (the caller then solves in one jump, labelled)."""
        from veristep.workspace.applying import plan_solve

        lines = plan_solve(before, op, self.settings)
        start = self.cursor
        made: list[Node] = []
        for latex, operation, change in lines:
            if made and self._unchanged(self._state(self.cursor), latex):
                continue  # a line the printer writes as the one before it
            made.append(self._append(latex, operation, op.kind, change, []))
        if not made:
            self.cursor = start
        return made

    def _operation(self, command: str | Operation, lm: Any) -> Operation:
        if not isinstance(command, str):
            return command
        if lm is None:
            return parse_command(command)
        from veristep.workspace.phrasing import to_operation

        return to_operation(command, self.current.latex, lm)

    def _apply_to_subterm(self, op: Operation, target: int) -> tuple[list[str], list[str]]:
        from veristep.workspace.applying import run_operation

        term = self.term()
        piece = self._parse(term.select(target).latex)
        if piece.expr is None or piece.graph is None or piece.graph.is_statement:
            raise InputError(f"'{op.text}' on a selection needs a sub-expression, not a statement")
        latexes, warnings = run_operation(op, piece, self.settings, self.ctx.positive)
        if len(latexes) != 1:
            raise InputError(f"'{op.text}' cannot be applied to a selection")
        term.replace(target, latexes[0])
        return [term.latex], warnings

    def _unchanged(self, before: State, latex: str) -> bool:
        from veristep.mathgraph import structurally_equal, to_latex

        # Compare the written forms: SymPy already evaluates 2(x + 3) to 2x + 6 when parsing.
        after = self._parse(latex)
        if after.graph is None or before.graph is None:
            return False
        if structurally_equal(after.graph, before.graph):
            return True
        return _plain(to_latex(after.graph)) == _plain(to_latex(before.graph))

    def suggest(self) -> dict[str, str] | None:
        """The offline planner's next move from here ("what would you do next?"), not applied."""
        from veristep.workspace.applying import plan_next

        return plan_next(self._state(self.cursor), self.settings)

    def apply_suggestion(self) -> list[Node]:
        move = self.suggest()
        if move is None:
            raise InputError("the planner has no next move here")
        return [self._append(move["latex"], move["operation"], "planner", move["change_type"], [])]

    def _append(
        self, latex: str, operation: str, kind: str, change: str, warnings: list[str]
    ) -> Node:
        parent = self.cursor
        state = self._parse(latex)
        shown = state.shown_latex
        node = Node(max(self.nodes) + 1, parent, shown, operation, kind, change, None, warnings)
        if self.grade:
            node.verdict = self._judge(self._state(parent), state, change)
            node.verdict.operation = operation
            node.verdict.expr_latex = latex
            node.verdict.justification = "; ".join(warnings) or None
        self.nodes[node.id] = node
        self._states[node.id] = state
        self.nodes[parent].last_child = node.id
        self.cursor = node.id
        return node

    def judge_node(self, node_id: int) -> StepVerdict:
        """The step into ``node_id`` judged afresh from its parent (a saved tree re-graded)."""
        node = self.nodes[node_id]
        if node.parent is None:
            raise InputError("the start is not a step")
        verdict = self._judge(self._state(node.parent), self._state(node_id),
                              node.change_type or "rewrite")  # fmt: skip
        verdict.operation = node.operation
        verdict.expr_latex = node.latex
        return verdict

    def _judge(self, prev: State, nxt: State, change: str) -> StepVerdict:
        from veristep.grounding.chain import judge_transition

        return judge_transition(prev, nxt, change, self.ctx)

    # ---- states ----------------------------------------------------------------------------

    def _parse(self, latex: str) -> State:
        return parse_state(latex, self.settings, self.ctx.positive)

    def _state(self, node_id: int) -> State:
        state = self._states.get(node_id)
        if state is None:
            state = self._states[node_id] = self._parse(self.nodes[node_id].latex)
        return state

    # ---- the chain as a derivation ---------------------------------------------------------

    def derivation(self, node_id: int | None = None) -> Derivation:
        """The path to ``node_id`` judged as one chain by the grounding cascade (all its gates)."""
        from veristep.grounding.chain import check

        path = self.path(node_id)
        states = [n.latex for n in path]
        types = [n.change_type for n in path[1:]]
        derivation = check(states, types, None, self.settings, self.ctx.positive)
        for step, node in zip(derivation.steps, path[1:], strict=True):
            step.operation = node.operation
            step.justification = "; ".join(node.warnings) or None
        derivation.proposer = {"kind": "workspace", "model": None, "attempts": 1, "usage": None}
        return derivation

    def weakest(self) -> Tier | None:
        tiers = [n.verdict.tier for n in self.path()[1:] if n.verdict is not None]
        return min(tiers) if tiers else None

    # ---- persistence -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "start": self.nodes[0].latex,
            "cursor": self.cursor,
            "positive": sorted(self.ctx.positive),
            "nodes": [n.to_json() for n in self.nodes.values()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], settings: Settings | None = None) -> Workspace:
        """A workspace from its JSON; anything malformed is an :class:`InputError`."""
        try:
            return cls._from_json(data, settings)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"not a workspace: {type(exc).__name__}: {exc}") from None

    @classmethod
    def _from_json(cls, data: dict[str, Any], settings: Settings | None) -> Workspace:
        ws = cls(str(data["start"]), settings, frozenset(data.get("positive") or ()))
        for raw in data.get("nodes") or []:
            node = Node.from_json(raw)
            if node.id != 0:
                if node.id in ws.nodes:  # a second node 3 could name the first as its parent
                    raise InputError(f"step {node.id} appears twice in this workspace")
                if node.parent not in ws.nodes:
                    raise InputError(f"step {node.id} refers to a missing parent {node.parent}")
                ws.nodes[node.id] = node
                ws.nodes[node.parent].last_child = node.id
        ws.goto(int(data.get("cursor", 0)))
        return ws
