"""The screening stages, one function each, cheapest first; each returns its certificate.

Outcomes are "yes" (the stage's claim is certified), "no" (certified false, e.g. no model up to the
size bound — a bounded claim, said so in ``detail``), "unknown" (budget ran out, prover gave up)
and "error" (the prover produced no verdict). Only "yes" is ever evidence.

* ``trivial`` — the prover proves L ⊢ x = y.
* ``admissible`` — for a subterm S of T that is injective in x (for free when S holds every
  occurrence of x, else proved first), on a finite carrier S is surjective; the prover proves
  L + surj(S) ⊢ x = y: every finite model is trivial.
* ``finite_model`` — SAT finds a table of size 2..n satisfying L (re-checked by evaluation).
* ``nontrivial`` — a complete saturation of L ∪ {a ≠ b} terminates: a nontrivial model exists.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from enum import StrEnum

from veristep.alps import finite_models
from veristep.alps.provers import Prover, ProverResult
from veristep.alps.terms import Law, Term, Var, leaf_names, order, positions, to_star
from veristep.alps.tptp import (
    admissibility_problem,
    injectivity_problem,
    nontriviality_problem,
    triviality_problem,
)


@dataclass(frozen=True)
class ScreenBudget:
    """Per-stage limits; every prover call also has a wall deadline of about ``prover_s``."""

    prover_s: float = 10.0
    memory_mb: int = 2048
    max_model_size: int = 5
    max_witnesses: int = 4  # admissibility candidates tried, smallest first
    completion_s: float = 2.0  # CPU seconds of ordered completion (0: no such stage)


class Outcome(StrEnum):
    """What one screening stage found (str-valued: the JSON and the store keep the same words)."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"
    ERROR = "error"  # the stage itself failed: never evidence about the law


@dataclass(frozen=True)
class StageResult:
    stage: str
    outcome: Outcome
    detail: str = ""
    certificate: str = ""
    prover: str = ""
    ms: float = 0.0

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def _from_prover(stage: str, res: ProverResult, want: str, problem_text: str, detail: str = ""):
    if res.status == "Error":
        outcome = Outcome.ERROR
    elif (want == "proof" and res.proved) or (want == "model" and res.model):
        outcome = Outcome.YES
    else:
        outcome = Outcome.UNKNOWN
    cert = f"% problem\n{problem_text}\n% {res.prover}: SZS status {res.status}\n{res.output}"
    note = detail or f"{res.status}{' (' + res.detail + ')' if res.detail else ''}"
    return StageResult(stage, outcome, note, cert, res.prover, res.ms)


def trivial(law: Law, prover: Prover, budget: ScreenBudget) -> StageResult:
    problem = triviality_problem(law)
    res = prover.run(problem, budget.prover_s, budget.memory_mb)
    result = _from_prover("trivial", res, "proof", problem.tptp)
    if res.model:
        # A complete saturation of L ∪ {x ≠ y}: certified not trivial.
        return StageResult(
            "trivial", Outcome.NO, res.status, result.certificate, res.prover, res.ms
        )
    return result


def witnesses(law: Law) -> list[tuple[str, Term, bool]]:
    """Candidate subterms S of T (law ``x = T``), as (x, S, injective_for_free).

    First the proper subterms holding *every* occurrence of x, smallest first: T is built from
    S and other variables, so S(x) = S(x') gives T(x) = T(x'), i.e. x = x'. Then other compound
    subterms containing x (ALPS certifies e.g. ``x ◇ x``), whose injectivity the prover must
    prove first.
    """
    if not isinstance(law.lhs, Var) or isinstance(law.rhs, Var):
        return []
    x = law.lhs.name
    total = leaf_names(law.rhs).count(x)
    if total == 0:
        return []
    free, other = [], []
    for pos, t in positions(law.rhs):
        if not pos or isinstance(t, Var) or x not in leaf_names(t):
            continue
        (free if leaf_names(t).count(x) == total else other).append(t)
    other = sorted(dict.fromkeys(other), key=order)
    return [(x, t, True) for t in reversed(free)] + [(x, t, False) for t in other]


def admissible(law: Law, prover: Prover, budget: ScreenBudget) -> StageResult:
    start = time.perf_counter()
    candidates = witnesses(law)[: budget.max_witnesses]
    if not candidates:
        return StageResult("admissible", Outcome.UNKNOWN, "no witness subterm", prover=prover.name)
    tried = []
    for x, s, free in candidates:
        inj_cert = ""
        if not free:
            inj = injectivity_problem(law, s, x)
            res = prover.run(inj, budget.prover_s, budget.memory_mb)
            if not res.proved:
                tried.append(f"{to_star(s)}: injectivity {res.status}")
                continue
            inj_cert = _from_prover("admissible", res, "proof", inj.tptp).certificate + "\n"
        problem = admissibility_problem(law, s, x)
        res = prover.run(problem, budget.prover_s, budget.memory_mb)
        tried.append(f"{to_star(s)}: {res.status}")
        if res.proved:
            result = _from_prover("admissible", res, "proof", problem.tptp, to_star(s))
            ms = (time.perf_counter() - start) * 1000
            cert = inj_cert + result.certificate
            return StageResult("admissible", Outcome.YES, to_star(s), cert, res.prover, ms)
    ms = (time.perf_counter() - start) * 1000
    return StageResult("admissible", Outcome.UNKNOWN, "; ".join(tried), "", prover.name, ms)


def finite_model(law: Law, budget: ScreenBudget) -> StageResult:
    try:
        found = finite_models.search(law, budget.max_model_size)
    except finite_models.EncodingError as err:  # a bug in the encoding: loud, but not a crash
        return StageResult("finite_model", Outcome.ERROR, str(err), "", "sat")
    if found.table is None:
        sizes = f"{found.sizes[0]}..{found.sizes[-1]}" if found.sizes else "none"
        return StageResult(
            "finite_model", Outcome.NO, f"no model of size {sizes}", "", "sat", found.ms
        )
    table = found.table
    if not finite_models.satisfies(table, law):  # the authority, even after encode's own check
        return StageResult("finite_model", Outcome.ERROR, "solver table failed re-check", "", "sat")
    cert = finite_models.format_table(table)
    return StageResult("finite_model", Outcome.YES, f"size {len(table)}", cert, "sat", found.ms)


def nontrivial(law: Law, prover: Prover, budget: ScreenBudget) -> StageResult:
    problem = nontriviality_problem([law])
    res = prover.run(problem, budget.prover_s, budget.memory_mb)
    return _from_prover("nontrivial", res, "model", problem.tptp)


def ordered_model(law: Law, budget: ScreenBudget) -> StageResult:
    """A nontrivial model by our own ordered completion, certified by the ground-joinability
    checker (``judge.ground_model``) — no prover involved. "yes" only with that certificate;
    a collapse it derives is left to the prover's triviality stage (outcome "unknown")."""
    import json

    from veristep.alps.ordered_completion import complete_ordered

    result = complete_ordered(law, seconds=budget.completion_s)
    ms = result.seconds * 1000
    if not result.model:
        note = f"ordered completion: {result.status}" + (
            f" ({result.detail})" if result.detail else ""
        )
        return StageResult("nontrivial", Outcome.UNKNOWN, note, "", "veristep/ordered", ms)
    assert result.check is not None
    cert = json.dumps(result.to_json(), ensure_ascii=False)
    return StageResult("nontrivial", Outcome.YES, result.check.reason, cert, "veristep/ordered", ms)
