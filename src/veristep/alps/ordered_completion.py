"""The construction side, ordered: unfailing Knuth–Bendix completion (as Twee does) of a law into
a ground-convergent presentation of a model.

Plain completion (``alps.completion``) must orient every equation and stops at the first one it
cannot, such as a commutation. Ordered completion keeps such an equation and rewrites with it
only where an instance decreases in KBO; a critical pair is dropped when it is *ground joinable*
(joinable for every ground instance, shown by cases on how its variables compare). When no pair
is left, the equations are saturated: the ground terms modulo them form a model in which the law
holds, and distinct constants stay distinct — an infinite model when the law has no finite one.

As in Twee, an equation whose sides do not share their variables keeps its instance with the
extra variables set to ``?``, the least ground term: what is left is always one of the shapes
the checker can use (oriented, weakly oriented, or with the same variables on both sides).

Whatever it returns is re-checked from scratch by the independent checker in
``judge.ground_model``; only a presentation that passes there is a model.

>>> r = complete_ordered(parse_law("x ◇ y = y ◇ x"))
>>> r.status, r.model, len(r.equations)
('saturated', True, 1)
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from veristep.alps.judge.ground_model import (
    MIN,
    Equation,
    Joinability,
    OrderedCheck,
    Rewriter,
    Term,
    check_ordered,
    directions,
    from_law,
    greater,
    overlaps,
    show,
    size,
    size_within,
    substitute,
    variables,
)
from veristep.alps.judge.limits import BudgetExhausted, Work
from veristep.alps.terms import Law
from veristep.alps.terms import parse_law as parse_law  # for the doctest

MAX_EQUATIONS = 400
MAX_PENDING = 200_000
MAX_PAIR_NODES = 2_000  # larger critical pairs are dropped (Twee bounds term size the same way)
COMPLETION_WORK = 2_000_000_000
DEFAULT_SECONDS = 120.0


@dataclass(frozen=True)
class OrderedResult:
    status: str  # "saturated" | "incomplete" (big pairs dropped) | "budget" | "trivial"
    equations: list[Equation]
    detail: str = ""
    seconds: float = 0.0
    check: OrderedCheck | None = field(default=None)

    @property
    def model(self) -> bool:
        """A nontrivial model, certified by the independent checker."""
        return self.status == "saturated" and self.check is not None and self.check.certified

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "detail": self.detail,
            "seconds": round(self.seconds, 2),
            "equations": [str(e) for e in self.equations],
            "check": self.check.to_json() if self.check else None,
        }


def _renumber(eq: Equation) -> Equation:
    names: dict[int, int] = {}

    def walk(t: Term) -> Term:
        if isinstance(t, tuple):
            return (walk(t[0]), walk(t[1]))
        return names.setdefault(t, len(names)) if isinstance(t, int) else t

    lhs = walk(eq.lhs)
    return Equation(lhs, walk(eq.rhs))


def usable_form(s: Term, t: Term) -> Equation:
    """The equation to keep for the pair s = t: oriented when KBO orients it, else the instance
    whose sides share their variables (extra variables set to ``?``), unless ``t`` already is
    ``s`` with its extra variables at ``?`` (weakly oriented)."""
    if greater(s, t):
        return _renumber(Equation(s, t))
    if greater(t, s):
        return _renumber(Equation(t, s))
    vs, vt = variables(s), variables(t)
    if vs == vt:
        return _renumber(Equation(s, t))
    for big, small, extra in ((s, t, vs - vt), (t, s, vt - vs)):
        if extra and substitute(big, dict.fromkeys(extra, MIN)) == small:
            return _renumber(Equation(big, small))
    s2 = substitute(s, dict.fromkeys(vs - vt, MIN))
    t2 = substitute(t, dict.fromkeys(vt - vs, MIN))
    if greater(t2, s2):
        s2, t2 = t2, s2
    return _renumber(Equation(s2, t2))


WALL_FACTOR = 4  # a loaded machine may stretch the CPU budget this much in wall-clock time


class _TimedWork(Work):
    """Work units with a CPU-time budget (and a wall-clock cap), looked at every 50,000 units:
    one critical pair's case analysis can be long, and the budget must hold inside it too.
    CPU time, not wall time, so that the same law gets the same search on a busy machine."""

    def __init__(self, limit: int, cpu_seconds: float) -> None:
        super().__init__(limit)
        self.cpu_deadline = time.process_time() + cpu_seconds
        self.wall_deadline = time.perf_counter() + WALL_FACTOR * cpu_seconds
        self._next_look = 0

    def spend(self, units: int) -> None:
        super().spend(units)
        if self.used >= self._next_look:
            self._next_look = self.used + 50_000
            if self.out_of_time():
                raise BudgetExhausted("out of time")

    def out_of_time(self) -> bool:
        return time.process_time() > self.cpu_deadline or time.perf_counter() > self.wall_deadline


class _State:
    def __init__(self, work: Work) -> None:
        self.work = work
        self.equations: list[Equation] = []
        self.pending: list[tuple[int, int, Term, Term]] = []
        self.counter = itertools.count()
        self._judge: Joinability | None = None
        self.dropped = 0

    @property
    def judge(self) -> Joinability:
        if self._judge is None:
            self._judge = Joinability(self.equations, directions(self.equations), self.work)
        return self._judge

    def push(self, s: Term, t: Term) -> None:
        self.work.spend(8)
        ns, nt = size_within(s, MAX_PAIR_NODES), size_within(t, MAX_PAIR_NODES)
        if ns is None or nt is None:
            self.dropped += 1  # too big to keep; the checker decides whether it was needed
            return
        self.work.spend(ns + nt)
        heapq.heappush(self.pending, (ns + nt, next(self.counter), s, t))

    def add(self, eq: Equation) -> None:
        """Add ``eq``; every equation it simplifies goes back to the queue, then its critical
        pairs with everything kept are queued."""
        probe = Rewriter(directions([eq]), self.work)
        kept: list[Equation] = []
        for old in self.equations:
            if probe.normal_form(old.lhs) != old.lhs or probe.normal_form(old.rhs) != old.rhs:
                self.push(old.lhs, old.rhs)
            else:
                kept.append(old)
        self.equations = [*kept, eq]
        self._judge = None
        everything = directions(self.equations)
        mine = [d for d in everything if d.source == len(self.equations) - 1]
        for d in mine:
            for other in everything:
                self.work.spend(size(d.lhs) + size(other.lhs))  # the unification attempts
                for s, t in overlaps(d, other):
                    self.push(s, t)
                if other is not d:
                    for s, t in overlaps(other, d):
                        self.push(s, t)


def _collapses(s: Term, t: Term) -> bool:
    """x = t with x not in t: every element equals one of t's instances, so x = y."""
    return isinstance(s, int) and s not in variables(t)


def complete_ordered(
    law: Law,
    seconds: float = DEFAULT_SECONDS,
    max_equations: int = MAX_EQUATIONS,
    work_limit: int = COMPLETION_WORK,
    progress: Callable[[int, int], None] | None = None,
) -> OrderedResult:
    """Ordered completion of ``{law}`` under a CPU-time (``seconds``), equation and work budget."""
    start = time.perf_counter()
    work = _TimedWork(work_limit, seconds)
    state = _State(work)
    target = from_law(law)
    state.push(target.lhs, target.rhs)

    def result(status: str, detail: str = "", check: OrderedCheck | None = None) -> OrderedResult:
        return OrderedResult(status, state.equations, detail, time.perf_counter() - start, check)

    try:
        while state.pending:
            if work.out_of_time():
                return result("budget", f"{seconds:g} s spent, {len(state.pending)} pairs left")
            if len(state.pending) > MAX_PENDING:
                return result("budget", f"more than {MAX_PENDING} pending pairs")
            _, _, s, t = heapq.heappop(state.pending)
            judge = state.judge
            s, t = judge.rewriter.normal_form(s), judge.rewriter.normal_form(t)
            if s == t or judge.ground_joinable(s, t):
                continue
            if _collapses(s, t) or _collapses(t, s):
                eq = f"{show(s)} = {show(t)}"
                return result("trivial", f"{eq} follows from the law: every element is equal")
            state.add(usable_form(s, t))
            if progress is not None:
                progress(len(state.equations), len(state.pending))
            if len(state.equations) > max_equations:
                return result("budget", f"more than {max_equations} equations")
    except BudgetExhausted as exc:
        if str(exc) == "out of time":
            return result("budget", f"{seconds:g} s spent, {len(state.pending)} pairs left")
        return result("budget", f"work budget ({work_limit:,} units) exhausted")
    except RecursionError:
        return result("budget", "terms grew too deep")
    check = check_ordered(target, state.equations)
    if state.dropped and not check.certified:  # a dropped pair may be what is missing
        detail = f"{state.dropped} critical pairs over {MAX_PAIR_NODES} nodes dropped"
        return result("incomplete", detail, check)
    return result("saturated", "", check)


def describe(result: OrderedResult) -> str:
    head = f"{result.status}: {len(result.equations)} equations in {result.seconds:.1f} s"
    if result.detail:
        head += f" ({result.detail})"
    if result.check is not None:
        head += f"; checker: {result.check.reason}"
    return head


__all__ = ["OrderedResult", "complete_ordered", "describe", "from_law", "show", "usable_form"]
