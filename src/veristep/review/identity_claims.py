"""A sentence that says it expands, factors, simplifies or rewrites claims an identity.

An equation with letters is normally read as a condition (``x^2 - 8x + 16 = 11 - 2x`` is being
solved, not claimed for every x), so grounding's refutation of it is no flaw. A sentence such as
"Expanding, $(x+3)^2 = x^2 + 3x + 9$" is different: it says the two sides are the same
expression. When no hypothesis is in force on its letters (no relation about them in the problem
or in an earlier step), a refuted equation in such a sentence is FLAWED, with the point where the
sides differ as its witness. Under a hypothesis (``a + b + c = 0``) an "identity" may hold only
there, so it stays a condition.

>>> claims_identity("Expanding, $(x+3)^2 = x^2 + 3x + 9$.")
True
>>> claims_identity("Suppose we expand $(x+3)^2$; is it $x^2 + 9$?")
False
>>> sorted(letters("(x+3)^2 = \\\\sqrt{y} + \\\\pi + \\\\sin\\\\alpha"))
['alpha', 'x', 'y']
"""

from __future__ import annotations

import re

from veristep.core.tiers import Tier
from veristep.review.claims import LinkCheck, is_hedged, outside_math
from veristep.review.grounding_link import AS_CONDITION

_VERBS = re.compile(
    r"\b(?:expand\w*|factor(?:s|ed|ing|i[sz]\w*)|simplif\w*|rewrit\w*|multiply\w* out|"
    r"distribut\w*|collect\w* (?:like )?terms)\b",
    re.IGNORECASE,
)
_COMMAND = re.compile(r"\\[A-Za-z]+")
_GREEK = frozenset(
    [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "varepsilon",
        "zeta",
        "eta",
        "theta",
        "vartheta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "omicron",
        "rho",
        "varrho",
        "sigma",
        "tau",
        "upsilon",
        "phi",
        "varphi",
        "chi",
        "psi",
        "omega",
    ]
)
_REFUTED = re.compile(
    r"^not an identity \(refuted: (?P<why>.*)\); " + re.escape(AS_CONDITION) + "$"
)


def claims_identity(text: str) -> bool:
    """The sentence's words (outside its formulas) say it transforms an expression, unhedged."""
    return bool(_VERBS.search(outside_math(text))) and not is_hedged(text)


def letters(latex: str) -> set[str]:
    """The letters of a formula: single Latin letters and Greek ones (``\\alpha``); other
    command names such as ``\\sqrt`` or ``\\sin`` are left out."""
    greek = {m for m in re.findall(r"\\([A-Za-z]+)", latex) if m.lower() in _GREEK}
    return set(re.findall(r"[A-Za-z]", _COMMAND.sub(" ", latex))) | greek


def identity_flaws(text: str, checks: list[LinkCheck], in_force: set[str]) -> list[LinkCheck]:
    """``checks`` with each grounding refutation of an equation this sentence claims as an
    identity turned into a flaw, when no hypothesis in force mentions its letters."""
    if not claims_identity(text):
        return checks
    out = []
    for check in checks:
        found = _REFUTED.match(check.reason) if check.check.startswith("grounding:") else None
        # A relation of the same step that is no proved identity ("since x = 2") is in force too.
        beside = {c for o in checks if o is not check and o.tier is not Tier.GROUNDED
                  for c in letters(o.latex)}  # fmt: skip
        if found is None or letters(check.latex) & (in_force | beside):
            out.append(check)
            continue
        witness = f"{check.latex} is false: {found['why']}"
        out.append(
            LinkCheck(check.latex, Tier.REFUTED, "identity_claim", "a false identity", witness)
        )
    return out


def constrained_letters(text: str) -> set[str]:
    """Letters some relation of ``text`` is about (a hypothesis, an equation derived so far):
    an "identity" in them may hold only under that relation."""
    from veristep.review.claims import find_links

    try:
        links = find_links(text)
    except Exception:  # an unreadable problem or step: every letter in it counts as constrained
        return letters(text)
    return {c for link in links for c in letters(f"{link.lhs} {link.rhs}")}
