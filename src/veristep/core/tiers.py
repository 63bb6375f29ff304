"""Tiers and relations: the vocabulary every verifier in veristep reports in.

Tiers are ordered weakest first so that the verdict of a chain is simply ``min`` over its steps.

>>> min(Tier.GROUNDED, Tier.PLAUSIBLE) is Tier.PLAUSIBLE
True
>>> Tier.parse("verified").icon
'🥈'
>>> Tier.GROUNDED.downgraded() is Tier.VERIFIED
True
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Tier(IntEnum):
    """How strongly a machine checked a step. Ordered weakest (refuted) to strongest (grounded)."""

    REFUTED = 0
    UNCHECKED = 1
    PLAUSIBLE = 2
    VERIFIED = 3
    GROUNDED = 4

    @property
    def name_lower(self) -> str:
        return self.name.lower()

    @property
    def icon(self) -> str:
        return _ICONS[self]

    @property
    def label(self) -> str:
        return self.name.capitalize()

    def downgraded(self) -> Tier:
        """One tier lower, never below plausible (a downgrade is not a refutation)."""
        if self in (Tier.REFUTED, Tier.UNCHECKED, Tier.PLAUSIBLE):
            return self
        return Tier(self - 1)

    @classmethod
    def parse(cls, text: str) -> Tier:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(t.name_lower for t in cls)
            raise ValueError(f"unknown tier {text!r}; expected one of: {names}") from None

    def __str__(self) -> str:
        return self.name_lower


_ICONS = {
    Tier.REFUTED: "✗",
    Tier.UNCHECKED: "○",
    Tier.PLAUSIBLE: "🔹",
    Tier.VERIFIED: "🥈",
    Tier.GROUNDED: "🥇",
}


class Relation(StrEnum):
    """The logical relation of one transition previous → next."""

    EQUIVALENT = "equivalent"
    NARROWS = "narrows"  # next's solutions ⊂ previous's: roots lost
    WIDENS = "widens"  # previous's solutions ⊂ next's: extraneous roots possible
    REFUTED = "refuted"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


class ChangeType(StrEnum):
    """The proposer's advisory claim about a step; the checker decides."""

    REWRITE = "rewrite"
    SOLVE = "solve"
    SUBSTITUTE = "substitute"
    APPROXIMATE = "approximate"
    GIVEN = "given"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> ChangeType:
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(c.value for c in cls)
            raise ValueError(f"unknown change_type {text!r}; expected one of: {names}") from None
