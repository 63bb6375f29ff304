"""ALPS part 2: the chain channel — each link of ``a = t1 = … = b`` is one application of the law.

An application rewrites one position ``p``: the subterm there is an instance σ(lhs) replaced by
σ(rhs) (forward) or the reverse. Both sides are matched together, so variables that occur on
one side only ("other variables := any terms") are bound by whatever the submitted term holds.
Since the two terms agree outside ``p``, ``p`` must be an ancestor of (or equal to) the deepest
position enclosing every difference; only those few positions are tried.

A coarse link is accepted only when at most ``BRIDGE_STEPS`` single *shrinking* applications
bridge it (applications that make the term strictly smaller, e.g. an instance of ``T`` collapsing
to its x-binding): shrinking keeps the search finite and every bridged step is
itself an application, so the expanded chain is still a proof. The search runs one way per
link (all shrinking from ``s`` or all from ``t``).

Checking is bounded: every link spends from a work budget (``limits``; units are term nodes
visited, so the verdict does not depend on the machine's load), and the chain stops at the
first link that fails — the feedback names it, and nothing after it is examined.

>>> law = parse_law("x = y ◇ z")
>>> [str(s.how) for s in check_chain(law, [parse_term(t) for t in ("a", "a ◇ a", "b")]).links]
['forward at root', 'reverse at root']
>>> check_chain(law, [parse_term("a"), parse_term("b")]).accepted
False
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from veristep.alps.judge.limits import LINK_WORK, SUBMISSION_WORK, BudgetExhausted, Work
from veristep.alps.terms import (
    Law,
    Op,
    Position,
    Term,
    leaf_names,
    match,
    positions,
    replace_at,
    show,
    substitute,
    subterm_at,
)
from veristep.alps.terms import parse_law as parse_law  # for the doctest
from veristep.alps.terms import parse_term as parse_term  # for the doctest

BRIDGE_STEPS = 3
MAX_BRIDGE_FRONTIER = 20_000  # terms kept per side of the bridge search


@dataclass(frozen=True)
class Application:
    """One law application: ``before|position = σ(src)`` becomes ``σ(dst)``."""

    position: Position
    direction: str  # "forward" (lhs → rhs) | "reverse" (rhs → lhs)
    sigma: dict[str, str]

    def __str__(self) -> str:
        where = "root" if not self.position else "position " + ".".join(map(str, self.position))
        return f"{self.direction} at {where}"

    def to_json(self) -> dict[str, object]:
        return {"position": list(self.position), "direction": self.direction, "sigma": self.sigma}


@dataclass(frozen=True)
class Link:
    index: int
    before: Term
    after: Term
    how: Application | None  # the single application, when the link is one
    bridge: list[tuple[Term, Application]] = field(default_factory=list)  # else the bridge
    message: str = ""

    @property
    def ok(self) -> bool:
        # A repeated term is reflexivity: true, and it adds no step to the proof.
        return self.how is not None or bool(self.bridge) or self.before == self.after

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "from": show(self.before),
            "to": show(self.after),
            "application": self.how.to_json() if self.how else None,
            "bridge": [{"to": show(t), "application": a.to_json()} for t, a in self.bridge],
            "ok": self.ok,
            "message": self.message,
        }


@dataclass(frozen=True)
class ChainResult:
    links: list[Link]
    message: str

    @property
    def accepted(self) -> bool:
        return bool(self.links) and all(link.ok for link in self.links)

    def expanded(self) -> list[tuple[Term, Term, Application]]:
        """Every single application in order, bridges unfolded: what the Lean export proves."""
        out: list[tuple[Term, Term, Application]] = []
        for link in self.links:
            if link.before == link.after:
                continue
            if link.how is not None:
                out.append((link.before, link.after, link.how))
                continue
            current = link.before
            for nxt, app in link.bridge:
                out.append((current, nxt, app))
                current = nxt
        return out


def difference_position(s: Term, t: Term) -> Position | None:
    """The deepest position whose subtree holds every difference between ``s`` and ``t``."""
    if s == t:
        return None
    pos: list[int] = []
    while isinstance(s, Op) and isinstance(t, Op):
        left_differs, right_differs = s.left != t.left, s.right != t.right
        if left_differs and right_differs:
            break
        pos.append(0 if left_differs else 1)
        s, t = (s.left, t.left) if left_differs else (s.right, t.right)
    return tuple(pos)


def _instance(
    law: Law, before: Term, after: Term, work: Work | None = None
) -> tuple[str, dict[str, Term]] | None:
    if work is not None:  # matching compares bound subterms node by node
        work.spend(_size(before) + _size(after))
    for direction, src, dst in (("forward", law.lhs, law.rhs), ("reverse", law.rhs, law.lhs)):
        sigma = match(src, before)
        if sigma is not None:
            sigma = match(dst, after, sigma)
        if sigma is not None:
            return direction, sigma
    return None


def find_application(law: Law, s: Term, t: Term, work: Work | None = None) -> Application | None:
    """The single application turning ``s`` into ``t``, deepest position first; None if none."""
    d = difference_position(s, t)
    if d is None:
        return None
    for depth in range(len(d), -1, -1):
        pos = d[:depth]
        found = _instance(law, subterm_at(s, pos), subterm_at(t, pos), work)
        if found is not None:
            direction, sigma = found
            return Application(pos, direction, {k: show(v) for k, v in sorted(sigma.items())})
    return None


def _size(t: Term) -> int:
    n, stack = 0, [t]
    while stack:
        node = stack.pop()
        n += 1
        if isinstance(node, Op):
            stack.append(node.left)
            stack.append(node.right)
    return n


def _sizes(t: Term, pos: Position = (), out: dict[Position, int] | None = None) -> dict:
    """The size of the subterm at every position of ``t``, in one pass."""
    out = {} if out is None else out
    if isinstance(t, Op):
        out[pos] = 1 + _sizes(t.left, (*pos, 0), out)[(*pos, 0)]
        out[pos] += _sizes(t.right, (*pos, 1), out)[(*pos, 1)]
    else:
        out[pos] = 1
    return out


def shrinking_steps(
    law: Law, t: Term, work: Work | None = None
) -> Iterator[tuple[Term, Application]]:
    """Every single application at any position that makes ``t`` strictly smaller.

    The target side must be fully determined by the match (its variables all bound), which is
    what makes the neighbourhood finite. Each position tried, and each candidate term built,
    is paid for from ``work``.
    """
    sizes = _sizes(t)
    total = sizes[()]
    pattern_cost = _size(law.lhs) + _size(law.rhs)
    if work is not None:
        work.spend(total)
    for src, dst, direction in ((law.lhs, law.rhs, "forward"), (law.rhs, law.lhs, "reverse")):
        src_vars = set(leaf_names(src))
        if not set(leaf_names(dst)) <= src_vars:
            continue
        for pos, sub in positions(t):
            if work is not None:
                work.spend(pattern_cost)
            sigma = match(src, sub)
            if sigma is None:
                continue
            new_sub = substitute(dst, sigma)
            new_size = _size(new_sub)
            if new_size < sizes[pos]:
                if work is not None:  # building and hashing the new term
                    work.spend(total - sizes[pos] + new_size + len(pos))
                app = Application(pos, direction, {k: show(v) for k, v in sorted(sigma.items())})
                yield replace_at(t, pos, new_sub), app


def _reachable(
    law: Law, start: Term, steps: int, work: Work | None = None, goal: Term | None = None
) -> dict[Term, list[tuple[Term, Application]]]:
    """Terms reachable from ``start`` by ≤ ``steps`` shrinking applications, with their paths.

    With a ``goal`` the search stops once it is reached and drops every term smaller than it:
    sizes only go down along a shrinking path, so such a term can never lead to the goal."""
    paths: dict[Term, list[tuple[Term, Application]]] = {start: []}
    floor = _size(goal) if goal is not None else 0
    frontier = [start]
    for _ in range(steps):
        nxt: list[Term] = []
        for term in frontier:
            for new, app in shrinking_steps(law, term, work):
                if new in paths or len(paths) >= MAX_BRIDGE_FRONTIER:
                    continue
                if goal is not None and new != goal and _size(new) <= floor:
                    continue
                paths[new] = [*paths[term], (new, app)]
                if new == goal:
                    return paths
                nxt.append(new)
        frontier = nxt
    return paths


def _reverse_path(
    law: Law, end: Term, path: list[tuple[Term, Application]]
) -> list[tuple[Term, Application]]:
    """A shrinking path from ``end`` walked backwards: each step in its opposite direction."""
    terms = [end, *(t for t, _ in path)]
    out: list[tuple[Term, Application]] = []
    for i in range(len(path), 0, -1):
        before, after = terms[i], terms[i - 1]
        app = find_application(law, before, after)
        if app is None:  # cannot happen: the inverse of an application is an application
            raise AssertionError("bridge step lost its application when reversed")
        out.append((after, app))
    return out


def bridge(law: Law, s: Term, t: Term, steps: int = BRIDGE_STEPS, work: Work | None = None):
    """≤ ``steps`` shrinking applications from ``s`` down to ``t``, or from ``t`` down to ``s``
    (then read backwards). One direction per link, as ALPS's harness does: a link that grows in
    one place and shrinks in another is two changes the solver must write out.

    Only the larger term can shrink to the smaller one, so only that direction is searched."""
    if _size(s) > _size(t):
        return _reachable(law, s, steps, work, t).get(t)
    if _size(t) > _size(s):
        up = _reachable(law, t, steps, work, s).get(s)
        return _reverse_path(law, t, up) if up else None
    return None


def check_link(law: Law, index: int, s: Term, t: Term, work: Work | None = None) -> Link:
    """One link, spending at most ``LINK_WORK`` units (and no more than ``work`` has left)."""
    if s == t:
        return Link(index, s, t, None, message=f"step {index} repeats the previous term")
    budget = work.child(LINK_WORK) if work is not None else Work(LINK_WORK)
    try:
        app = find_application(law, s, t, budget)
        if app is not None:
            return Link(index, s, t, app)
        path = bridge(law, s, t, work=budget)
    except BudgetExhausted:
        return Link(index, s, t, None, message=_over_budget(index, s, t, work, budget))
    finally:
        if work is not None:
            work.used += min(budget.used, budget.limit)
    if path:
        return Link(index, s, t, None, path, f"bridged by {len(path)} applications")
    msg = (
        f"step {index} ({show(s)} = {show(t)}) is not a law application and could not be "
        f"bridged within {BRIDGE_STEPS} steps"
    )
    return Link(index, s, t, None, message=msg)


def _over_budget(index: int, s: Term, t: Term, work: Work | None, budget: Work) -> str:
    whole = work is not None and budget.limit < LINK_WORK
    what = (
        f"the submission's checking budget ({work.limit:,} work units)"
        if whole and work is not None
        else f"a link's checking budget ({budget.limit:,} work units)"
    )
    return (
        f"step {index} ({_short(s)} = {_short(t)}) is not a single law application, and "
        f"bridging it ran out of {what}: write the chain out one application per step"
    )


def _short(t: Term, limit: int = 120) -> str:
    text = show(t)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_chain(law: Law, terms: list[Term], work_limit: int = SUBMISSION_WORK) -> ChainResult:
    """Judge the links in order and stop at the first failing one; its message is ALPS's
    feedback. The whole chain spends at most ``work_limit`` units."""
    work = Work(work_limit)
    links: list[Link] = []
    for i in range(1, len(terms)):
        link = check_link(law, i, terms[i - 1], terms[i], work)
        links.append(link)
        if not link.ok:
            return ChainResult(links, link.message)
    n = len(ChainResult(links, "").expanded())
    return ChainResult(links, f"accepted: {len(links)} links, {n} law applications")
