"""ALPS part 2: the construction channel — a finite presentation E of a nontrivial model.

E is certified iff (a) **correctness**: the prover proves E ⊢ L, and (b) **nonvacuity**:
E ∪ {a ≠ b} has a model — a table found by SAT and re-checked by evaluating every equation, or
E oriented into a convergent rewrite system checked by our own code (``ordered_model``: the term
algebra modulo E, possibly infinite), or a complete saturation by the prover (``Satisfiable``).
Together they exhibit a nontrivial magma satisfying L. Both checks always run, so the feedback
says which side failed:

* (a) ✓ (b) ✗ — too strong: E collapses every model;
* (a) ✗ (b) ✓ — too weak: E has nontrivial models but does not entail the law;
* both ✗.

A timeout or a prover error is never evidence: the check is reported False ("not shown").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from veristep.alps import finite_models
from veristep.alps.provers import Prover, ProverResult
from veristep.alps.terms import Law
from veristep.alps.tptp import implication_problem, nontriviality_problem

SAT_SIZES = (2, 3, 4)
MAX_SAT_ASSIGNMENTS = 20_000  # n ** variables per equation; beyond it SAT encoding is skipped
# Encoding work, summed over E: assignments × term nodes (the encoder visits every node of every
# equation under every assignment). Past it the SAT side is skipped and the prover decides, so a
# 1,000-equation E costs prover time (bounded by its budget), never minutes of encoding.
MAX_SAT_WORK = 100_000


@dataclass(frozen=True)
class Check:
    """One side of the certificate, with what it rests on."""

    name: str  # "correctness" | "nonvacuity"
    passed: bool
    method: str  # "prover" | "sat" | "none"
    status: str  # SZS status, "model", or why nothing ran
    evidence: dict[str, object] = field(default_factory=dict)
    ms: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "passed": self.passed,
            "method": self.method,
            "status": self.status,
            "ms": round(self.ms, 1),
            "evidence": self.evidence,
        }


@dataclass(frozen=True)
class ConstructionResult:
    correctness: Check
    nonvacuity: Check

    @property
    def certified(self) -> bool:
        return self.correctness.passed and self.nonvacuity.passed

    @property
    def feedback(self) -> str:
        """ALPS's feedback line, exactly."""
        return (
            f"correctness(E|-law)={self.correctness.passed}, "
            f"nonvacuity(E+a!=b sat)={self.nonvacuity.passed}"
        )

    @property
    def classification(self) -> str:
        return classify(self.correctness.passed, self.nonvacuity.passed)


def classify(correct: bool, nonvacuous: bool) -> str:
    """How a presentation failed (ALPS's Table A2 classes).

    >>> classify(True, False), classify(False, True), classify(False, False)
    ('too strong', 'too weak', 'both')
    """
    if correct and nonvacuous:
        return "certified"
    if correct:
        return "too strong"
    return "too weak" if nonvacuous else "both"


def _prover_evidence(problem_tptp: str, res: ProverResult) -> dict[str, object]:
    return {
        "problem": problem_tptp,
        "prover": res.prover,
        "command": list(res.command),
        "status": res.status,
        "detail": res.detail,
        "transcript": res.output,
    }


def correctness(law: Law, presentation: list[Law], prover: Prover, timeout_s: float, mem: int):
    problem = implication_problem(presentation, law)
    res = prover.run(problem, timeout_s, mem)
    return Check(
        "correctness", res.proved, "prover", res.status, _prover_evidence(problem.tptp, res), res.ms
    )


def _sat_feasible(presentation: list[Law], n: int) -> bool:
    counts = [n ** len(eq.variables()) for eq in presentation]
    work = sum(
        c * (_nodes(eq.lhs) + _nodes(eq.rhs)) for c, eq in zip(counts, presentation, strict=True)
    )
    return max(counts, default=0) <= MAX_SAT_ASSIGNMENTS and work <= MAX_SAT_WORK


def _nodes(t) -> int:
    from veristep.alps.judge.submission import tree_limits

    return tree_limits(t)[0]


def finite_model(presentation: list[Law]) -> tuple[finite_models.Table | None, list[int]]:
    """A table of size ≥ 2 satisfying every equation (re-checked directly), and sizes tried."""
    tried: list[int] = []
    for n in SAT_SIZES:
        if not _sat_feasible(presentation, n):
            break
        tried.append(n)
        table = finite_models.find_model(list(presentation), n)
        if table is not None and all(finite_models.satisfies(table, eq) for eq in presentation):
            return table, tried
    return None, tried


def nonvacuity(presentation: list[Law], prover: Prover, timeout_s: float, mem: int) -> Check:
    import time

    start = time.perf_counter()
    try:
        table, tried = finite_model(presentation)
    except finite_models.EncodingError:  # an encoder bug must not decide anything
        table, tried = None, []
    ms = (time.perf_counter() - start) * 1000
    if table is not None:
        evidence = {"table": [list(row) for row in table], "sizes_tried": tried}
        return Check("nonvacuity", True, "sat", "model", evidence, ms)
    rewriting = _convergent(presentation)
    if rewriting is not None:
        return rewriting
    problem = nontriviality_problem(presentation)
    res = prover.run(problem, timeout_s, mem)
    evidence = {**_prover_evidence(problem.tptp, res), "sat_sizes_without_model": tried}
    return Check("nonvacuity", res.model, "prover", res.status, evidence, ms + res.ms)


REWRITING_WORK = 2_000_000  # the judge's budget for checking E as a convergent system
GROUND_WORK = 50_000_000  # … as a ground-convergent one (case analyses; about 10 s on one core)


def _convergent(presentation: list[Law]) -> Check | None:
    """E oriented by KBO and checked convergent by our own code: the term algebra modulo E is
    then a model of E with a ≠ b (infinite ones included). None when E is not such a system."""
    import time

    from veristep.alps.judge.ordered_model import check_convergent, orient

    start = time.perf_counter()
    rules = orient(presentation)
    if rules is None:
        return _ground_convergent(presentation, start)
    result = check_convergent(rules, REWRITING_WORK)
    if not result.certified:
        return None
    ms = (time.perf_counter() - start) * 1000
    return Check("nonvacuity", True, "rewriting", "convergent", result.to_json(), ms)


def _ground_convergent(presentation: list[Law], start: float) -> Check | None:
    """E with unorientable equations (commutation, the paper's worked example): ordered
    rewriting checked ground convergent by our own code, with a ≠ b — the ground terms modulo E
    are a nontrivial model of E. None when that is not shown."""
    import time

    from veristep.alps.judge.ground_model import check_ordered, from_law

    result = check_ordered(None, [from_law(eq) for eq in presentation], GROUND_WORK)
    if not result.certified:
        return None
    ms = (time.perf_counter() - start) * 1000
    return Check("nonvacuity", True, "rewriting", "ground convergent", result.to_json(), ms)


def certify(
    law: Law, presentation: list[Law], prover: Prover, timeout_s: float, memory_mb: int
) -> ConstructionResult:
    """Run both checks (never short-circuit: the feedback reports both)."""
    return ConstructionResult(
        correctness(law, presentation, prover, timeout_s, memory_mb),
        nonvacuity(presentation, prover, timeout_s, memory_mb),
    )
