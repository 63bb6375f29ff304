"""ALPS part 2: the judge's budgets — sizes a submission may have and work a check may spend.

Time is budgeted in *work units*, not seconds: one unit is one term node the chain checker
visits (matching, rebuilding, hashing a candidate term). A budget in units gives the same verdict
for the same submission whatever else the machine is doing — a wall-clock budget would not — and
bounds the time just as well (``bench/alps_judge_limits.py`` reports units per second; a
submission's whole budget is under two seconds on one core).

>>> w = Work(10)
>>> w.spend(4); w.spend(6); w.used
10
>>> w.spend(1)
Traceback (most recent call last):
...
veristep.alps.judge.limits.BudgetExhausted: 11 > 10 work units
"""

from __future__ import annotations

from dataclasses import dataclass

from veristep.core.errors import VeristepError

# Sizes: a chain of up to 200 terms (ALPS's 199-link submissions fit) and presentations of up to
# 1,000 equations (ALPS's own certificate for law 12857 has 357).
MAX_CHAIN_TERMS = 200
MAX_EQUATIONS = 1_000
MAX_TERM_NODES = 2_000
MAX_SUBMISSION_NODES = 200_000  # all terms of one submission together

# Work: what one link, and one whole submission, may spend on matching and bridging.
LINK_WORK = 250_000
SUBMISSION_WORK = 500_000


class BudgetExhausted(VeristepError):
    """A check ran out of work units: the step is not shown (never evidence of anything)."""


@dataclass
class Work:
    """A countdown of work units; ``spend`` raises once the limit is passed."""

    limit: int
    used: int = 0

    def spend(self, units: int) -> None:
        self.used += units
        if self.used > self.limit:
            raise BudgetExhausted(f"{self.used} > {self.limit} work units")

    def child(self, limit: int) -> Work:
        """A sub-budget: at most ``limit`` units, and never more than what is left here."""
        return Work(max(0, min(limit, self.limit - self.used)))
