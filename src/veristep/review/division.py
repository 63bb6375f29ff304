"""Division with remainder said in words: "when we divide 49 by 4 we get 12 with a remainder of 2".

A sentence that names the dividend, the divisor, the quotient and the remainder as integers makes a
closed claim, decided exactly: ``a = b·q + r`` with ``0 ≤ r < |b|``. Only the full statement is
read — a divisor "it", a quotient left out, or a remainder given as a formula is not a claim this
reader can decide. The caller applies the sentence's hedges ("if", "let's test").

>>> [c.latex for c in division_claims("When we divide 49 by 4 we get 12 with a remainder of 2.")]
['49 = 4 \\\\cdot 12 + 2']
>>> division_claims("When we divide it by 2 we get 24 with a remainder of 1.")
[]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A number starts where no digit precedes it and is at most 40 characters long, so scanning a run
# of digits costs linear time, not quadratic.
_N = r"\$?\s*(?<![\d,])(-?\d[\d,]{0,40}+)\s*\$?"
_DIVISION = re.compile(
    rf"(?:\bdivid(?:e|ing)\s+{_N}\s+by\s+{_N}|{_N}\s+divided\s+by\s+{_N})"
    rf"\s*,?\s*(?:we\s+get|which\s+gives|gives|is|yields|equals|goes)\s+"
    rf"(?:a\s+quotient\s+of\s+)?{_N}(?:\s+times)?\s*,?\s+(?:with|and)\s+(?:a\s+)?remainder"
    rf"\s+(?:of\s+)?{_N}(?!\s*(?:[-+*/^=×·]|\.\d|\d))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DivisionClaim:
    """``dividend = divisor · quotient + remainder``, as the text states it."""

    dividend: int
    divisor: int
    quotient: int
    remainder: int

    @property
    def latex(self) -> str:
        return f"{self.dividend} = {self.divisor} \\cdot {self.quotient} + {self.remainder}"

    def failure(self) -> str | None:
        """Why the statement is false, or None when it holds."""
        value = self.divisor * self.quotient + self.remainder
        if value != self.dividend:
            return (
                f"{self.latex} is false: the left side is {self.dividend}, "
                f"the right side is {value}"
            )
        if not 0 <= self.remainder < abs(self.divisor):
            return (
                f"{self.latex} holds, but a remainder of {self.remainder} is false: "
                f"a remainder must be at least 0 and less than {abs(self.divisor)}"
            )
        return None


def division_claims(text: str) -> list[DivisionClaim]:
    """Every fully stated division with remainder in ``text``."""
    out = []
    for m in _DIVISION.finditer(text):
        numbers = [g for g in m.groups() if g is not None]
        if len(numbers) != 4:
            continue
        a, b, q, r = (int(n.replace(",", "")) for n in numbers)
        if b != 0:
            out.append(DivisionClaim(a, b, q, r))
    return out
