"""Machine checks first: judge the computations of a step without any language model.

Closed arithmetic (``420 + 48 = 468``) is decided by exact rational evaluation, a complete decision
procedure for that fragment, so its refutation is a proof with a witness. Links with letters in
them go to the grounding cascade (``veristep.grounding``) as identity transitions; a grounding
"equivalent" is evidence, but a grounding refutation is *not* turned into a flaw, because a
formula with a letter may be a condition being solved rather than an identity being claimed.

Universal claims ("for all integers $n \\ge 1$, $3 \\mid n^3 - n$") are tried on their first
few hundred cases (``review.smallcases``, in a killable worker): a counterexample is a witness,
agreement is evidence only and never makes a step grounded. The letters' domains come from the
local context (``review.context``): the problem and the steps before, read by :func:`check_steps`.

A step is decided by the machine alone when (a) an asserted closed link is false, a universal
claim has a counterexample, or the step admits a gap in its own words ("I was not able to find a
complete proof", ``review.admissions``) — FLAWED, tier refuted — or (b) every link is grounded
and the rest of the sentence is only connective words — VERIFIED at tier grounded.

>>> r = machine_check("So, in total, there are 420 + 48 = 478 seconds.")
>>> r.outcome.value, r.witness
('refuted', '420 + 48 = 478 is false: the left side is 468, the right side is 478')
>>> machine_check("Thus $60 \\\\cdot 7 = 420$.").outcome.value
'grounded'
>>> machine_check("Plugging in $1$ we get $1 = 3 + 4$, which is false.").outcome.value
'undecided'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.review.admissions import admission
from veristep.review.arithmetic import decimals_shown, evaluate
from veristep.review.claims import (
    Link,
    LinkCheck,
    LinkGrounder,
    find_links,
    is_hedged,
    outside_math,
)
from veristep.review.context import Domain, read_declarations
from veristep.review.definitions import Definitions, check_applications, read_definitions
from veristep.review.derived import Derivation, derivations
from veristep.review.division import DivisionClaim, division_claims
from veristep.review.instances import Instance, instances
from veristep.review.rewrites import Rewrite, rewrite_chains
from veristep.review.standing import (
    ORDER_RELATIONS,
    Standing,
    asserted,
    assumptions,
    extremum_claims,
    read_standing,
    redefines,
    search_standing,
)
from veristep.review.universal import Universal, find_universals, sentences

# Words that mark a formula as tested, supposed or denied rather than asserted: a false closed
# equation in such a sentence ("plugging in 1 we get 1 = 7, which is false") is not a flaw.
_CONNECTIVES = frozenset(
    {
        "so",
        "thus",
        "hence",
        "therefore",
        "then",
        "and",
        "which",
        "we",
        "get",
        "have",
        "has",
        "is",
        "are",
        "equals",
        "gives",
        "simplifies",
        "simplifying",
        "to",
        "that",
        "means",
        "it",
        "this",
        "compute",
        "computing",
        "calculate",
        "calculating",
        "evaluate",
        "the",
        "a",
        "now",
        "finally",
        "also",
        "yes",
        "right",
        "ok",
        "okay",
        "since",
        "because",
        "obtain",
        "obtaining",
        "find",
        "result",
        "in",
        "total",
        "of",
        "as",
        "follows",
        "becomes",
        "i",
    }
)

_COMMAND = re.compile(r"\\[a-zA-Z]+")
_INTEGER = re.compile(r"^\s*[-+]?\s*\d[\d,]*\s*$")


class MachineOutcome(StrEnum):
    """What the machine alone says about a step (str-valued: the trace JSON keeps these words)."""

    GROUNDED = "grounded"
    REFUTED = "refuted"
    UNDECIDED = "undecided"
    NONE = "none"  # no computation in the step


@dataclass
class MachineResult:
    """What the machine alone says about a step: grounded, refuted, or undecided."""

    outcome: MachineOutcome
    checks: list[LinkCheck] = field(default_factory=list)
    witness: str | None = None
    hedged: bool = False

    @property
    def computational(self) -> bool:
        return bool(self.checks)

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "witness": self.witness,
            "hedged": self.hedged,
            "checks": [c.to_json() for c in self.checks],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MachineResult:
        checks = [LinkCheck(**{**c, "tier": Tier.parse(c["tier"])}) for c in data["checks"]]
        outcome = MachineOutcome(data["outcome"])
        return cls(outcome, checks, data.get("witness"), bool(data.get("hedged")))


def machine_check(
    text: str,
    settings: Settings | None = None,
    grounder: LinkGrounder | None = None,
    context: dict[str, Domain] | None = None,
    definitions: Definitions | None = None,
    in_force: set[str] | None = None,
) -> MachineResult:
    """Judge every claim of one step (see the module docstring for the policy).

    ``definitions``: functions defined in the problem (``P(x) = x^3 - 3x + 1``); the step's own
    definitions are added, and win. ``in_force``: the letters some hypothesis or earlier relation
    is about; when given, a sentence that says it expands, factors or simplifies claims an
    identity in the other letters (``review.identity_claims``), and a false one is a flaw.
    """
    settings = settings or Settings()
    admitted = admission(text)
    if admitted is not None:
        gap = admitted_gap(admitted)
        return MachineResult(MachineOutcome.REFUTED, [gap], gap.witness)
    links = find_links(text)
    universals = find_universals(text, context)
    divisions = division_claims(text)
    if not links and not universals and not divisions:
        return MachineResult(MachineOutcome.NONE)
    hedged = is_hedged(text)
    checks = [_judge(link, settings, grounder) for link in links]
    checks += [judge_division(claim) for claim in divisions]
    checks += [judge_instance(instance, settings) for instance in instances(text)]
    checks += [judge_derivation(derivation, settings) for derivation in derivations(text)]
    rewrites = [judge_rewrite(rewrite, settings) for rewrite in rewrite_chains(text)]
    checks += [check for check in rewrites if check is not None]
    checks += check_applications(text, {**(definitions or {}), **read_definitions(text)})
    searched = [judge_universal(u, settings) for u in universals]
    checks += searched
    if in_force is not None:
        from veristep.review.identity_claims import identity_flaws

        checks = identity_flaws(text, checks, in_force)
    # A universal claim's sentence was already screened for hedges by its own reader, which
    # unlike the arithmetic one does not treat "mod" as a hedge.
    refuted = [c for c in checks if c.tier is Tier.REFUTED and (c in searched or not hedged)]
    if refuted:
        return MachineResult(MachineOutcome.REFUTED, checks, refuted[0].witness, hedged)
    if not refuted and all(c.tier is Tier.GROUNDED for c in checks) and _only_connectives(text):
        return MachineResult(MachineOutcome.GROUNDED, checks, None, hedged)
    return MachineResult(MachineOutcome.UNDECIDED, checks, None, hedged)


def check_steps(
    texts: list[str],
    problem: str = "",
    settings: Settings | None = None,
    grounder: LinkGrounder | None = None,
) -> list[MachineResult]:
    """Machine-check the steps of one proof in order, each in the context of what came before.

    Besides each step's own claims, inequalities about the problem's letters are tried on points
    that satisfy the problem's hypotheses (``review.standing``), under the assumptions the proof
    has made so far.
    """
    from veristep.review.identity_claims import constrained_letters

    settings = settings or Settings()
    context = dict(read_declarations(problem))
    definitions = read_definitions(problem)
    standing = StandingMemory(read_standing(problem))
    results = []
    in_force = constrained_letters(problem)
    for text in texts:
        result = machine_check(text, settings, grounder, context, definitions, set(in_force))
        results.append(with_checks(result, standing.checks(text, settings)))
        in_force |= constrained_letters(text)
        for letter, domain in read_declarations(text).items():
            context[letter] = context[letter].merged(domain) if letter in context else domain
    return results


class StandingMemory:
    """The problem's hypotheses and the assumptions a proof has made so far, step after step."""

    def __init__(self, standing: Standing | None) -> None:
        self.standing = standing
        self.assumed: list[str] = []

    def checks(self, text: str, settings: Settings) -> list[LinkCheck]:
        if self.standing is None:
            return []
        out = []
        for _, sentence in sentences(text):
            if redefines(sentence, self.standing):
                self.standing = None  # the problem's letters mean something else from here on
                return out
            links = [link for link in find_links(sentence) if self._about_letters(link)]
            if not asserted(sentence):
                relations = [x.latex for x in links]
                self.assumed += assumptions(sentence, relations)
                continue
            links += [x for x in extremum_claims(sentence) if self._about_letters(x)]
            out += [self._judge(link, settings) for link in links if link.rel in ORDER_RELATIONS]
        return out

    def _about_letters(self, link: Link) -> bool:
        assert self.standing is not None
        letters = set(re.findall(r"[A-Za-z]", _COMMAND.sub(" ", f"{link.lhs} {link.rhs}")))
        return bool(letters) and letters <= set(self.standing.letters)

    def _judge(self, link: Link, settings: Settings) -> LinkCheck:
        from veristep.core.pool import run_cas

        claim = link.latex
        run = run_cas(search_standing, claim, self.standing, tuple(self.assumed), settings=settings)
        if not run.ok:
            reason = f"search under the problem's hypotheses stopped ({run.status}): no evidence"
            return LinkCheck(claim, Tier.PLAUSIBLE, "standing_hypotheses", reason)
        result = run.value
        if result.status == "counterexample":
            return LinkCheck(
                claim, Tier.REFUTED, "standing_hypotheses", "counterexample", result.witness
            )
        return LinkCheck(claim, Tier.PLAUSIBLE, "standing_hypotheses", result.reason)


def with_checks(result: MachineResult, extra: list[LinkCheck]) -> MachineResult:
    """A step's result with the checks made under the problem's hypotheses added."""
    if not extra:
        return result
    checks = [*result.checks, *extra]
    refuted = [c for c in extra if c.tier is Tier.REFUTED]
    if result.outcome == MachineOutcome.REFUTED or not refuted:
        settled_without_them = result.outcome in (MachineOutcome.GROUNDED, MachineOutcome.NONE)
        outcome = MachineOutcome.UNDECIDED if settled_without_them else result.outcome
        return MachineResult(outcome, checks, result.witness, result.hedged)
    return MachineResult(MachineOutcome.REFUTED, checks, refuted[0].witness, result.hedged)


def admitted_gap(sentence: str) -> LinkCheck:
    """A gap the proof admits in its own words (``review.admissions``): FLAWED, the sentence is
    the witness."""
    witness = f"the proof says it does not prove this: “{sentence}”"
    return LinkCheck(sentence, Tier.REFUTED, "admitted_gap", "a gap the proof admits", witness)


def judge_universal(claim: Universal, settings: Settings) -> LinkCheck:
    """Small-case search for one universal claim, under the CAS deadline in a killable worker."""
    from veristep.core.pool import run_cas
    from veristep.review.smallcases import search_cases, shown_claim

    bound = ", ".join(
        f"{x} ({d.describe()})" for x, d in zip(claim.letters, claim.domains, strict=True)
    )
    latex = f"for all {bound}: {shown_claim(claim.claim)}"
    run = run_cas(search_cases, claim.claim, claim.letters, claim.domains, settings=settings)
    if not run.ok:
        reason = f"small-case search stopped ({run.status}): no evidence"
        return LinkCheck(latex, Tier.PLAUSIBLE, "small_cases", reason)
    result = run.value
    if result.status == "counterexample":
        return LinkCheck(latex, Tier.REFUTED, "small_cases", "counterexample", result.witness)
    return LinkCheck(latex, Tier.PLAUSIBLE, "small_cases", result.reason)  # agreement is evidence


def judge_instance(instance: Instance, settings: Settings) -> LinkCheck:
    """A link about letters the sentence fixed (``review.instances``), judged with the values
    written in; the check and the witness name the values."""
    closed = instance.closed
    check = judge_closed(closed) if closed.closed else judge_real(closed, settings)
    latex = f"{instance.original.latex}  (at {instance.shown_bindings})"
    if check.tier is not Tier.REFUTED:
        return LinkCheck(latex, check.tier, check.check, check.reason)
    _, _, sides = (check.witness or "").partition(" is false: ")
    witness = (
        f"at {instance.shown_bindings} (fixed earlier in the sentence), "
        f"{instance.original.latex} is false: {sides}"
    )
    return LinkCheck(latex, Tier.REFUTED, check.check, check.reason, witness)


def judge_derivation(derivation: Derivation, settings: Settings) -> LinkCheck:
    """A value concluded from an equation in one letter (``review.derived``), solved exactly."""
    from veristep.core.pool import run_cas
    from veristep.review.derived import solve_for

    equation, conclusion = derivation.equation, derivation.conclusion
    latex = f"{equation.latex}  ⇒  {conclusion.latex}"
    run = run_cas(
        solve_for, equation.lhs, equation.rhs, derivation.letter, conclusion.rhs, settings=settings
    )
    if not run.ok:
        reason = f"solving the equation stopped ({run.status}): no evidence"
        return LinkCheck(latex, Tier.PLAUSIBLE, "derived_value", reason)
    found = run.value
    if found.status == "misses":
        witness = (
            f"{equation.latex} fails, at {conclusion.latex}: its real solutions are "
            f"{derivation.letter} ∈ {{{found.solutions}}}, so {conclusion.latex} does not follow"
        )
        return LinkCheck(latex, Tier.REFUTED, "derived_value", "not a solution", witness)
    if found.status == "contains" and found.only:
        return LinkCheck(latex, Tier.GROUNDED, "derived_value", "the only real solution")
    reason = {"contains": "one of the solutions", "rounded": "a solution, rounded"}.get(
        found.status, "not decided"
    )
    return LinkCheck(latex, Tier.PLAUSIBLE, "derived_value", reason)


def judge_rewrite(rewrite: Rewrite, settings: Settings) -> LinkCheck | None:
    """A factorization or expansion right after an identity in the same chain
    (``review.rewrites``), expanded exactly in a CAS worker; None when the link is not one (or
    the worker stopped): the link's own check then stands alone."""
    from veristep.core.pool import run_cas
    from veristep.review.rewrites import decide_rewrite

    link = rewrite.link
    run = run_cas(decide_rewrite, rewrite.previous.lhs, link.lhs, link.rhs, settings=settings)
    if not run.ok or run.value.status == "unknown":
        return None
    if run.value.status == "holds":
        return LinkCheck(link.latex, Tier.GROUNDED, "chain_rewrite", "an identity")
    witness = f"{link.latex} is false {run.value.witness}"
    return LinkCheck(link.latex, Tier.REFUTED, "chain_rewrite", "not an identity", witness)


def judge_division(claim: DivisionClaim) -> LinkCheck:
    """A division with remainder said in words (``review.division``), decided exactly."""
    failure = claim.failure()
    if failure is None:
        return LinkCheck(claim.latex, Tier.GROUNDED, "division_remainder", "holds exactly")
    return LinkCheck(claim.latex, Tier.REFUTED, "division_remainder", "does not hold", failure)


def judge_closed(link: Link) -> LinkCheck:
    """Exact rational evaluation of a closed link; rounding shown in decimals is tolerated."""
    left, right = evaluate(link.lhs), evaluate(link.rhs)
    assert left is not None and right is not None
    holds = _holds(left, link.rel, right)
    if holds:
        return LinkCheck(link.latex, Tier.GROUNDED, "exact_arithmetic", "holds exactly")
    if _INTEGER.match(link.lhs) and _INTEGER.match(link.rhs):
        # "1 = 0", "88 >= 89": no computation was made; proofs by contradiction derive such
        # absurdities on purpose, so a false one is a matter for the reviewer, not a witness.
        return LinkCheck(
            link.latex, Tier.PLAUSIBLE, "exact_arithmetic", "false comparison of bare integers"
        )
    places = max(decimals_shown(link.lhs), decimals_shown(link.rhs))
    if link.rel in ("=", "~") and places and abs(left - right) <= Fraction(1, 2 * 10**places):
        return LinkCheck(
            link.latex,
            Tier.PLAUSIBLE,
            "exact_arithmetic",
            f"agrees to the {places} decimal(s) shown",
        )
    if link.rel == "~":
        return LinkCheck(
            link.latex, Tier.PLAUSIBLE, "exact_arithmetic", "approximation, no tolerance"
        )
    witness = (
        f"{link.latex} is false: the left side is {_show(left)}, the right side is {_show(right)}"
    )
    return LinkCheck(link.latex, Tier.REFUTED, "exact_arithmetic", "does not hold", witness)


def judge_real(link: Link, settings: Settings) -> LinkCheck:
    """Closed real arithmetic (roots, pi, logarithms, angles), decided exactly in a CAS worker."""
    from veristep.core.pool import run_cas
    from veristep.review.real_claims import decide_real

    run = run_cas(decide_real, link.lhs, link.rel, link.rhs, settings=settings)
    if not run.ok:
        reason = f"exact real comparison stopped ({run.status}): no evidence"
        return LinkCheck(link.latex, Tier.PLAUSIBLE, "exact_real", reason)
    decision = run.value
    if decision.status == "holds":
        return LinkCheck(link.latex, Tier.GROUNDED, "exact_real", decision.reason)
    if decision.status == "fails":
        witness = (
            f"{link.latex} is false: the left side is {decision.left}, "
            f"the right side is {decision.right}"
        )
        return LinkCheck(link.latex, Tier.REFUTED, "exact_real", decision.reason, witness)
    return LinkCheck(link.latex, Tier.PLAUSIBLE, "exact_real", decision.reason)


def _judge(link: Link, settings: Settings, grounder: LinkGrounder | None) -> LinkCheck:
    if link.closed:
        return judge_closed(link)
    if link.real:
        return judge_real(link, settings)
    verdict = grounder(link, settings) if grounder is not None else None
    if verdict is not None and verdict.tier is Tier.GROUNDED:
        return verdict
    reason = verdict.reason if verdict is not None else "has variables: no closed computation"
    # Never a refutation: an equation with letters may be a condition, not a claimed identity.
    return LinkCheck(link.latex, Tier.PLAUSIBLE, verdict.check if verdict else "none", reason)


def _holds(left: Fraction, rel: str, right: Fraction) -> bool:
    return {
        "=": left == right,
        "~": left == right,
        "<": left < right,
        ">": left > right,
        "<=": left <= right,
        ">=": left >= right,
        "!=": left != right,
    }[rel]


def _only_connectives(text: str) -> bool:
    """True when the words outside the formulas are glue ("so", "which gives"), not reasoning."""
    words = re.findall(r"[A-Za-z]+", re.sub(r"[\d.,+\-*/×÷·−()^!=<>]+", " ", outside_math(text)))
    return all(w.lower() in _CONNECTIVES for w in words)


def _show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator} ≈ {float(value):.6g}"
