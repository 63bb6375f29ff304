"""Equivalence classes of laws: separate cheaply by a model, otherwise ask the prover.

A ⊬ B is witnessed by a model of A in which B fails: first a finite table (SAT, re-checked by
evaluation), then a complete saturation of A ∪ {¬B} (the prover's CounterSatisfiable). A ⊢ B needs
a proof. Two laws are equivalent only when both implications are proved; anything undecided keeps
them in separate classes and is reported as such (never merged on a timeout).

>>> a, b = parse_law("x = y ◇ x"), parse_law("x = x ◇ y")
>>> separating_table(a, b) is not None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from veristep.alps import finite_models
from veristep.alps.finite_models import Table
from veristep.alps.provers import Prover
from veristep.alps.terms import Law
from veristep.alps.terms import parse_law as parse_law  # for the doctest
from veristep.alps.tptp import implication_problem


def separating_table(a: Law, b: Law, max_size: int = 3) -> Table | None:
    """A verified finite model of ``a`` (size ≥ 2) in which ``b`` fails."""
    for n in range(2, max_size + 1):
        table = finite_models.find_model(a, n, forbid=[b])
        # find_model already re-checked both facts; evaluate again so this function alone is
        # the authority for what it returns.
        if table and finite_models.satisfies(table, a) and not finite_models.satisfies(table, b):
            return table
    return None


@dataclass(frozen=True)
class Implication:
    premise: str
    goal: str
    verdict: str  # "holds" | "fails" | "unknown"
    how: str  # "table" | "saturation" | "proof" | the prover status


def implication(a: Law, b: Law, prover: Prover, timeout_s: float, max_size: int = 3) -> Implication:
    if separating_table(a, b, max_size) is not None:
        return Implication(str(a), str(b), "fails", "table")
    res = prover.run(implication_problem([a], b), timeout_s, 2048)
    if res.proved:
        return Implication(str(a), str(b), "holds", "proof")
    if res.model:
        return Implication(str(a), str(b), "fails", "saturation")
    return Implication(str(a), str(b), "unknown", res.status)


@dataclass
class Classes:
    classes: list[list[str]]
    checks: list[Implication] = field(default_factory=list)

    @property
    def undecided_pairs(self) -> list[tuple[str, str]]:
        """Compared pairs neither separated (a direction fails) nor merged (both hold)."""
        verdicts: dict[frozenset[str], list[str]] = {}
        for c in self.checks:
            verdicts.setdefault(frozenset((c.premise, c.goal)), []).append(c.verdict)
        open_pairs = {
            pair for pair, vs in verdicts.items() if "fails" not in vs and vs.count("holds") < 2
        }
        return [
            (c.premise, c.goal)
            for c in self.checks
            if c.verdict == "unknown" and frozenset((c.premise, c.goal)) in open_pairs
        ]

    @property
    def undecided(self) -> int:
        return len(self.undecided_pairs)


def equivalence_classes(
    laws: list[Law],
    prover: Prover,
    timeout_s: float = 5.0,
    max_size: int = 3,
    known: list[Law] | None = None,
) -> Classes:
    """Greedy classing: each law joins the first class whose representative it is proved
    equivalent to (both directions); separation stops a comparison at the first failed direction.
    ``known``: representatives of classes found earlier (not compared with each other again)."""
    reps: list[Law] = list(known or [])
    classes: list[list[str]] = [[str(r)] for r in reps]
    checks: list[Implication] = []
    for law in laws:
        placed = False
        for i, rep in enumerate(reps):
            forward = implication(law, rep, prover, timeout_s, max_size)
            checks.append(forward)
            if forward.verdict == "fails":
                continue
            # An undecided forward direction cannot merge the pair, but a failing backward
            # one still separates it: the pair is then decided, not left open.
            backward = implication(rep, law, prover, timeout_s, max_size)
            checks.append(backward)
            if forward.verdict != "holds":
                continue
            if backward.verdict == "holds":
                classes[i].append(str(law))
                placed = True
                break
        if not placed:
            reps.append(law)
            classes.append([str(law)])
    return Classes(classes, checks)
