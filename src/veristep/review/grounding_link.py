"""Send a relation link with letters in it to the grounding cascade, as an identity transition.

``b^2 - 144 = (b - 12)(b + 12)`` is judged as the transition ``b^2 - 144`` → ``(b - 12)(b + 12)``:
"equivalent" at tier grounded means the identity holds for all values. Anything else — a
refutation, a timeout, an unparseable side, grounding not installed — is returned as a
non-grounded check, which the machine policy never turns into a flaw.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier
from veristep.review.claims import Link, LinkCheck, LinkGrounder

AS_CONDITION = "read as a condition, never as a flaw"
_NAMED = re.compile(r"^\s*\\?[A-Za-z]+(?:_\{?[\w,]+\}?)?(?:\^\{?\w+\}?)?(?:\([^()]*\))?\s*$")


def default_grounder() -> LinkGrounder | None:
    """The grounding engine's ``check`` wrapped as a link grounder, or None if it is absent."""
    try:
        from veristep.grounding import check  # type: ignore[attr-defined]
    except ImportError:
        return None
    return make_grounder(check)


def make_grounder(check: Callable[..., Any]) -> LinkGrounder:
    def ground(link: Link, settings: Settings) -> LinkCheck | None:
        if link.rel != "=" or _NAMED.match(link.lhs):
            # Inequalities are not identity transitions; `x = …`, `S_{14} = …`, `f(x) = …`
            # define or constrain a name rather than claim an identity.
            return None
        try:
            derivation = check([link.lhs, link.rhs], settings=settings)
            step = derivation.steps[0]
        except Exception as exc:  # grounding's own failure is "undecided", never evidence
            return LinkCheck(link.latex, Tier.PLAUSIBLE, "grounding", f"not checked: {exc}")
        tier, relation = step.tier, step.relation
        if tier is Tier.GROUNDED and relation is Relation.EQUIVALENT:
            return LinkCheck(link.latex, Tier.GROUNDED, f"grounding:{step.check}", step.reason)
        if relation is Relation.UNKNOWN:
            reason = f"grounding undecided: {step.reason}"
        elif relation is Relation.REFUTED:
            # The refutation is kept (a point where the sides differ): a sentence that claims an
            # identity (review.identity_claims) turns it into a flaw with that point as witness.
            said = step.reason.replace("the previous is", "the left side is")
            said = said.replace("the next is", "the right side is")
            reason = f"not an identity (refuted: {said}); {AS_CONDITION}"
        else:
            reason = f"not an identity ({relation}); {AS_CONDITION}"
        return LinkCheck(link.latex, Tier.PLAUSIBLE, f"grounding:{step.check}", reason)

    return ground
