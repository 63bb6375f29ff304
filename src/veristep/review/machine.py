"""Machine checks first: judge the computations of a step without any language model.

Closed arithmetic (``420 + 48 = 468``) is decided by exact rational evaluation, a complete decision
procedure for that fragment, so its refutation is a proof with a witness. Links with letters in
them go to the grounding cascade (``veristep.grounding``) as identity transitions; a grounding
"equivalent" is evidence, but a grounding refutation is *not* turned into a flaw, because a
formula with a letter may be a condition being solved rather than an identity being claimed.

A step is decided by the machine alone when (a) an asserted closed link is false — FLAWED,
computational error, tier refuted — or (b) every link is grounded and the rest of the sentence is
only connective words — VERIFIED at tier grounded.

>>> r = machine_check("So, in total, there are 420 + 48 = 478 seconds.")
>>> r.outcome, r.witness
('refuted', '420 + 48 = 478 is false: the left side is 468, the right side is 478')
>>> machine_check("Thus $60 \\\\cdot 7 = 420$.").outcome
'grounded'
>>> machine_check("Plugging in $1$ we get $1 = 3 + 4$, which is false.").outcome
'undecided'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.review.arithmetic import decimals_shown, evaluate
from veristep.review.claims import Link, find_links
from veristep.review.segment import math_spans

# Words that mark a formula as tested, supposed or denied rather than asserted: a false closed
# equation in such a sentence ("plugging in 1 we get 1 = 7, which is false") is not a flaw.
_HEDGE = re.compile(
    r"plug|substitut|check|test|\bif\b|suppos|assum|whether|\bnot\b|false|incorrect|wrong|"
    r"contradict|impossible|\?|instead|rather than|would|n't|\bbase\b|\bmod\b|modulo|"
    r"approx|about|roughly|nearly|estimate|\bno\b|\blead(?:s|ing)? to\b|\bled to\b|ruled out|"
    r"absurd",
    re.IGNORECASE,
)
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

_INTEGER = re.compile(r"^\s*[-+]?\s*\d[\d,]*\s*$")
LinkGrounder = Callable[[Link, Settings], "LinkCheck | None"]


@dataclass(frozen=True)
class LinkCheck:
    """The judgement of one relation link."""

    latex: str
    tier: Tier
    check: str
    reason: str
    witness: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["tier"] = self.tier.name_lower
        return out


@dataclass
class MachineResult:
    """What the machine alone says about a step: grounded, refuted, or undecided."""

    outcome: str  # "grounded" | "refuted" | "undecided" | "none" (no computation in the step)
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
        return cls(data["outcome"], checks, data.get("witness"), bool(data.get("hedged")))


def machine_check(
    text: str, settings: Settings | None = None, grounder: LinkGrounder | None = None
) -> MachineResult:
    """Judge every relation link of one step (see the module docstring for the policy)."""
    settings = settings or Settings()
    links = find_links(text)
    if not links:
        return MachineResult("none")
    hedged = bool(_HEDGE.search(text))
    checks = [_judge(link, settings, grounder) for link in links]
    refuted = [c for c in checks if c.tier is Tier.REFUTED]
    if refuted and not hedged:
        return MachineResult("refuted", checks, refuted[0].witness, hedged)
    if not refuted and all(c.tier is Tier.GROUNDED for c in checks) and _only_connectives(text):
        return MachineResult("grounded", checks, None, hedged)
    return MachineResult("undecided", checks, None, hedged)


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


def _judge(link: Link, settings: Settings, grounder: LinkGrounder | None) -> LinkCheck:
    if link.closed:
        return judge_closed(link)
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
    prose = list(text)
    for a, b in math_spans(text):
        prose[a:b] = " " * (b - a)
    words = re.findall(r"[A-Za-z]+", re.sub(r"[\d.,+\-*/×÷·−()^!=<>]+", " ", "".join(prose)))
    return all(w.lower() in _CONNECTIVES for w in words)


def _show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator} ≈ {float(value):.6g}"
