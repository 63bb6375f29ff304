"""The construction side: Knuth–Bendix completion of a law into a convergent rewrite system.

A convergent system whose rules include (or entail) the law is the finite presentation of a model:
the term algebra modulo the rules, where distinct normal forms are distinct elements, so the model
is nontrivial — and infinite when the law has no finite model. Completion runs with the
Knuth–Bendix order (all weights 1), simplest equation first, rules inter-reduced as they come.

It stops, without a model, when an equation cannot be oriented (``alps.ordered_completion`` goes
on with it as an unorientable equation, as Twee does), or when its rule or work budget runs out.
Whatever it returns is re-checked by the independent checker in
``judge.ordered_model`` before it counts.

>>> r = complete(parse_law("x = y ◇ (x ◇ (x ◇ (y ◇ (z ◇ z))))"))
>>> r.status, r.check.certified
('complete', True)
>>> complete(parse_law("x ◇ y = y ◇ x")).status
'unorientable'
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

from veristep.alps.judge.limits import BudgetExhausted, Work
from veristep.alps.judge.ordered_model import (
    PresentationCheck,
    check_presentation,
    critical_pairs,
    kbo_greater,
    normal_form,
)
from veristep.alps.terms import Law, Op, Term, Var, show
from veristep.alps.terms import parse_law as parse_law  # for the doctest

MAX_RULES = 200
MAX_PENDING = 20_000
COMPLETION_WORK = 20_000_000


@dataclass(frozen=True)
class CompletionResult:
    status: str  # "complete" | "unorientable" | "budget"
    rules: list[Law]
    detail: str = ""
    check: PresentationCheck | None = field(default=None)

    @property
    def model(self) -> bool:
        """A nontrivial model, certified by the independent checker."""
        return self.status == "complete" and self.check is not None and self.check.certified

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "detail": self.detail,
            "rules": [f"{show(r.lhs)} = {show(r.rhs)}" for r in self.rules],
            "check": self.check.to_json() if self.check else None,
        }


def _size(t: Term) -> int:
    return 1 if isinstance(t, Var) else 1 + _size(t.left) + _size(t.right)


def _canonical_vars(law: Law) -> Law:
    """Variables renamed x0, x1, … by first occurrence (keeps rule texts short and stable)."""
    names: dict[str, str] = {}

    def walk(t: Term) -> Term:
        if isinstance(t, Var):
            return Var(names.setdefault(t.name, f"x{len(names)}"))
        return Op(walk(t.left), walk(t.right))

    return Law(walk(law.lhs), walk(law.rhs))


def _reducible(t: Term, rule: Law, work: Work) -> bool:
    from veristep.alps.terms import match, positions

    work.spend(_size(t))
    return any(match(rule.lhs, sub) is not None for _, sub in positions(t))


def complete(
    law: Law, max_rules: int = MAX_RULES, work_limit: int = COMPLETION_WORK
) -> CompletionResult:
    """Knuth–Bendix completion of ``{law}``; a complete result is checked before it is returned."""
    work = Work(work_limit)
    pending: list[tuple[int, int, Term, Term]] = []  # a heap: simplest equation first
    counter = itertools.count()

    def push(s: Term, t: Term) -> None:
        size = _size(s) + _size(t)
        work.spend(size)
        heapq.heappush(pending, (size, next(counter), s, t))

    push(law.lhs, law.rhs)
    rules: list[Law] = []
    try:
        while pending:
            if len(pending) > MAX_PENDING:
                return CompletionResult("budget", rules, f"more than {MAX_PENDING} pending pairs")
            _, _, s, t = heapq.heappop(pending)
            s, t = normal_form(s, rules, work), normal_form(t, rules, work)
            if s == t:
                continue
            if kbo_greater(s, t):
                rule = _canonical_vars(Law(s, t))
            elif kbo_greater(t, s):
                rule = _canonical_vars(Law(t, s))
            else:
                return CompletionResult("unorientable", rules, f"{show(s)} = {show(t)}")
            kept: list[Law] = []
            for old in rules:
                if _reducible(old.lhs, rule, work):
                    push(old.lhs, old.rhs)  # its left side collapses: re-derive it
                else:
                    kept.append(Law(old.lhs, normal_form(old.rhs, [*kept, rule], work)))
            rules = [*kept, rule]
            if len(rules) > max_rules:
                return CompletionResult("budget", rules, f"more than {max_rules} rules")
            for other in rules:
                work.spend(2 * _size(rule.lhs) * _size(other.lhs))  # unification attempts
                for pair in critical_pairs(rule, other):
                    push(*pair)
                if other is not rule:
                    for pair in critical_pairs(other, rule):
                        push(*pair)
    except BudgetExhausted:
        return CompletionResult("budget", rules, f"work budget ({work_limit:,} units) exhausted")
    except RecursionError:
        return CompletionResult("budget", rules, "terms grew too deep")
    return CompletionResult("complete", rules, "", check_presentation(law, rules))
