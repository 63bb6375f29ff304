"""Turn the LaTeX of one state into what the checks compare: its graph and its SymPy statement.

A state may be typed as LaTeX or as plain maths (``sqrt(x) = 2, x >= 0``); the text itself picks
the reader (``mathgraph.reader``). A plain state is recorded by the LaTeX it was read as, so that
every report and the player render what the checker understood.

A state that cannot be parsed or converted keeps its located error; the steps into and out of it
are then ``unchecked`` and their reason quotes the offending fragment.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.verdicts import StateRecord


@dataclass
class State:
    latex: str
    graph: Any = None  # veristep.mathgraph.Graph
    expr: Any = None  # the SymPy expression or statement
    display: str = ""  # the clean re-rendering shown in reports
    latex_ids: str | None = None
    error: str | None = None
    # Domain conditions of the written form that SymPy's evaluation dropped (x/x → 1 hides x ≠ 0).
    hidden: frozenset[Any] = frozenset()
    reader: str = "latex"  # "plain" when the state was typed as plain maths

    @property
    def shown_latex(self) -> str:
        """The LaTeX to render: as written, or for plain input the LaTeX it was read as."""
        if self.reader == "plain" and self.graph is not None and self.display:
            return self.display
        return self.latex

    @property
    def convertible(self) -> bool:
        return self.error is None

    def record(self) -> StateRecord:
        return StateRecord(self.shown_latex, self.latex_ids, self.error)


_KEPT_CHARS = 400  # readings kept for lines up to this long; the LaTeX limit itself is 20,000


def parse_state(latex: str, settings: Settings, positive: frozenset[str] = frozenset()) -> State:
    """Parse and convert; any failure becomes the state's error, never an exception.

    Reading a state is a pure function of its text, the settings and the letters taken positive
    (no deadline, no randomness), and the same lines come back again and again: a step's next
    state is the following step's previous one, a class's answers share their lines, a server
    sees the same exercise all day. So each reading of a line up to 400 characters is kept (the
    most recent 1,024 per process; a longer one is read afresh, so that a server fed thousands of
    maximal inputs holds no gigabytes of graphs); every caller gets its own copy of the record,
    sharing the graph and the SymPy statement, which nothing changes once read.

    >>> settings = Settings()
    >>> first, again = parse_state("x^2 = 4", settings), parse_state("x^2 = 4", settings)
    >>> first is not again and first.expr is again.expr
    True
    """
    read = _read_state if len(latex) <= _KEPT_CHARS else _read_state.__wrapped__
    return replace(read(latex, settings, frozenset(positive)))


@lru_cache(maxsize=1024)
def _read_state(latex: str, settings: Settings, positive: frozenset[str]) -> State:
    from veristep.mathgraph.reader import reader_for

    state = _parse_state(latex, settings, positive)
    state.reader = reader_for(latex)
    if state.reader == "plain" and state.graph is not None and _latex_too(latex, state, settings):
        state.reader = "latex"  # x^3 + 27 is LaTeX as well, read the same: kept as typed
    return state


def _latex_too(text: str, state: State, settings: Settings) -> bool:
    """Whether the LaTeX reader reads ``text`` into the same graph as the plain reader did."""
    from veristep.mathgraph import parse_latex, structurally_equal

    try:
        return structurally_equal(parse_latex(text, settings), state.graph)
    except Exception:  # not LaTeX (sqrt(x), sin x): the plain reading stands
        return False


def _parse_state(latex: str, settings: Settings, positive: frozenset[str]) -> State:
    from veristep.mathgraph import to_latex, to_sympy
    from veristep.mathgraph.reader import parse_math

    try:
        graph = parse_math(latex, settings)
    except InputError as err:
        return State(latex, display=latex, error=err.one_line())
    except Exception as exc:  # a parser defect must cost this state, not the whole verdict
        return State(latex, display=latex, error=f"internal parser error: {type(exc).__name__}")
    display = _render(to_latex, graph, latex)
    ids = _render(lambda g: to_latex(g, with_ids=True), graph, None)
    try:
        expr = to_sympy(graph, real=settings.domain == "real", positive=positive, settings=settings)
    except InputError as err:
        return State(latex, graph, None, display, ids, err.one_line())
    except Exception as exc:
        # SymPy refused the construct: the state is well-formed LaTeX but not one CAS object.
        reason = f"not convertible to SymPy: {type(exc).__name__}: {exc}"
        return State(latex, graph, None, display, ids, reason)
    written = _WrittenForms(settings, positive)
    if settings.domain == "real":
        undefined = _undefined_value(graph, expr, written)
        if undefined is not None:
            return State(
                latex, graph, None, display, ids, f"not defined over the reals: {undefined}"
            )
    hidden = _hidden_domain(graph, expr, written)
    return State(latex, graph, expr, display, ids, hidden=hidden)


class _WrittenForms:
    """Each expression node converted unevaluated once per state: the undefined-value and the
    hidden-domain passes read the same nodes (a failure is remembered and raised again)."""

    def __init__(self, settings: Settings, positive: frozenset[str]) -> None:
        self._settings, self._positive = settings, positive
        self._done: dict[int, tuple[Any, Exception | None]] = {}

    def __call__(self, node: Any) -> Any:
        if id(node) not in self._done:
            try:
                self._done[id(node)] = (_unevaluated(node, self._settings, self._positive), None)
            except Exception as exc:
                self._done[id(node)] = (None, exc)
        form, failure = self._done[id(node)]
        if failure is not None:
            raise failure
        return form


def _undefined_value(graph: Any, expr: Any, written: _WrittenForms) -> Any:
    """Why a constant part of the state has no real value (``\\ln 0``, ``\\sqrt{-1}``), or None.

    A state that states something about an undefined value is no statement a checker can
    ground: ``y = \\ln 0 → y = 17`` must not be judged as if ``ln 0`` were a number."""
    from sympy import S

    from veristep.grounding.domain import undefined_constant

    for node, _ in _expression_nodes(graph.root, True):
        try:
            found = undefined_constant(written(node))
        except Exception:  # no written form: the evaluated check below still applies
            found = None
        if found is not None:
            return found
    if expr.has(S.ComplexInfinity, S.NaN):
        return "a value is undefined (a division by 0 or a logarithm of 0)"
    return None


def _hidden_domain(graph: Any, expr: Any, written_form: _WrittenForms) -> Any:
    """What the unevaluated conversion restricts that the evaluated one does not."""
    from veristep.grounding.dependents import as_dependents
    from veristep.grounding.domain import conditions, hidden_conditions

    written: set[Any] = set()
    local: set[Any] = set()  # restrictions of one branch of an ∨ (or under ¬, ⇒, ⇔)
    for node, conjunctive in _expression_nodes(graph.root, True):
        found = _written_conditions(node, written_form, conditions)
        written |= found
        local |= set() if conjunctive else found
    try:
        # A part converted alone reads y as a letter where the statement reads y(x).
        hidden = hidden_conditions(as_dependents(written, expr), expr)
    except Exception:  # the unevaluated form is an extra safeguard, never a reason to fail
        return frozenset()
    # A restriction of one branch is no conjunct of the whole state: x/x = 1 ∨ x = 0 holds
    # everywhere. Such a state keeps the marker None, and its steps are not trusted beyond
    # plausible (transition.written_domain).
    return hidden | {None} if hidden & local else hidden


def _written_conditions(node: Any, written: _WrittenForms, conditions: Any) -> set[Any]:
    """The domain conditions of one written expression. A node that cannot be converted alone
    (``2 ± 2`` is no single SymPy object) gives those of its children, so that one ± never
    discards the restrictions written beside it."""
    try:
        return set(conditions(written(node)))
    except Exception:
        found: set[Any] = set()
        for child in getattr(node, "children", ()):
            found |= _written_conditions(child, written, conditions)
        return found


def _expression_nodes(node: Any, conjunctive: bool) -> Any:
    """The maximal expression subtrees of a statement: the sides of its relations.

    Only expressions are converted unevaluated; a relation built from unevaluated sides would
    make SymPy's ``Eq`` run its (slow, unbounded) assumption queries on them.
    """
    from veristep.mathgraph.nodes import Kind

    statement_kinds = {Kind.RELATION, Kind.AND, Kind.OR, Kind.NOT, Kind.IMPLIES, Kind.IFF}
    statement_kinds |= {Kind.SYSTEM, Kind.BOOL}
    if node.kind in statement_kinds:
        inside = conjunctive and node.kind in (Kind.RELATION, Kind.AND, Kind.SYSTEM, Kind.BOOL)
        for child in node.children:
            yield from _expression_nodes(child, inside)
    else:
        yield node, conjunctive


def _unevaluated(node: Any, settings: Settings, positive: frozenset[str]) -> Any:
    from sympy import evaluate

    from veristep.mathgraph import to_sympy

    with evaluate(False):
        return to_sympy(node, real=settings.domain == "real", positive=positive, settings=settings)


def _render(fn: Any, graph: Any, fallback: str | None) -> str | None:
    try:
        return fn(graph)
    except Exception:  # rendering is cosmetic: a renderer bug must not hide a verdict
        return fallback
