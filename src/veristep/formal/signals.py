"""The four verifier signals of one proof attempt, and the classifier of Coq's error messages.

A deterministic checker says much more than pass/fail: *where* an attempt failed is what the
search routes back into generation. Every attempt is reduced to four signals:

* **syntax** — did Coq parse it?
* **type** — did it typecheck (known references, unification)?
* **progress** — how did the goals change (count and text; a no-op is no progress)?
* **completion** — no goals left and ``Qed`` accepted?

>>> classify_error("Error: Syntax error: '.' expected after [tactic] (in [tactic_command]).")
<FailureKind.SYNTAX: 'syntax'>
>>> classify_error("Error: The reference foo_bar was not found in the current environment.")
<FailureKind.UNKNOWN_REFERENCE: 'unknown_reference'>
>>> classify_error('Error: Unable to unify "2" with "1".')
<FailureKind.TYPE: 'type'>
>>> classify_error("Error: Timeout!")
<FailureKind.TIMEOUT: 'timeout'>
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any


class FailureKind(StrEnum):
    """Why an attempt did not complete; ``NONE`` when it did or merely made (no) progress."""

    NONE = "none"
    SYNTAX = "syntax"
    UNKNOWN_REFERENCE = "unknown_reference"  # the "hallucinated lemma name" case
    TYPE = "type"  # ill-typed term, unification failure, tactic not applicable
    TACTIC = "tactic"  # a decision procedure or tactic failed on a well-formed goal
    INCOMPLETE = "incomplete"  # the script ran but goals remain (Qed refused)
    GIVEN_UP = "given_up"  # admit/give_up left goals behind: never a proof
    TIMEOUT = "timeout"  # never evidence of anything
    FORBIDDEN = "forbidden"  # rejected by the strict text filter before Coq saw it
    CRASH = "crash"  # the Coq process died or exceeded its memory cap

    def __str__(self) -> str:
        return self.value


# Ordered: the first pattern that matches decides. Timeouts and memory first, because Coq wraps
# them in other messages; unknown references before type errors, because both say "Error".
_PATTERNS: tuple[tuple[FailureKind, re.Pattern[str]], ...] = (
    (
        FailureKind.TIMEOUT,
        re.compile(r"Timeout!|timed out|Timeout exceeded|no answer .* within", re.I),
    ),
    (
        FailureKind.CRASH,
        re.compile(r"Out of memory|Stack overflow|coqtop (died|exited)|Anomaly", re.I),
    ),
    (FailureKind.GIVEN_UP, re.compile(r"goals you gave up|given up|\(in proof [^)]*\): .*gave up")),
    (FailureKind.SYNTAX, re.compile(r"Syntax error|Lexer error|Unterminated comment|Syntax Error")),
    (
        FailureKind.UNKNOWN_REFERENCE,
        re.compile(
            r"was not found in the current environment|Unknown (constant|inductive|reference)"
            r"|not a defined object|No such (hypothesis|goal|section variable)|Unbound"
            r"|The variable \S+ was not found"
        ),
    ),
    (FailureKind.INCOMPLETE, re.compile(r"Attempt to save an incomplete proof|unfocused goals")),
    (
        FailureKind.TYPE,
        re.compile(
            r"Unable to unify|has type .* while it is expected to have type|Illegal application"
            r"|The term .* has type|cannot be applied|Impossible to unify|is not a function"
            r"|Found no subterm matching|not an inductive|cannot be used as a hint"
            r"|Unable to find an instance|Cannot infer|The type of .* is not|Not an inductive"
            r"|is not convertible|In environment",
            re.S,
        ),
    ),
)


def crash_kind(message: str) -> FailureKind:
    """The kind of a lost session: a missed deadline is a timeout, anything else a crash."""
    kind = classify_error(message)
    return kind if kind is FailureKind.TIMEOUT else FailureKind.CRASH


def classify_error(message: str) -> FailureKind:
    """Map the text of one Coq error (or a whole block of output) to a failure kind."""
    message = " ".join(message.split())  # Coq wraps long messages at about 80 columns
    for kind, pattern in _PATTERNS:
        if pattern.search(message):
            return kind
    return FailureKind.TACTIC


_GOALS_HEAD = re.compile(r"^(\d+) goals?\b", re.M)


def count_goals(goals_text: str | None) -> int | None:
    """Number of open goals in a goals display, 0 for "No more goals", None if unknown.

    >>> count_goals("2 goals (ID 6)\\n  n : nat\\n  ====\\n  n = m\\ngoal 2 (ID 7) is:\\n True")
    2
    >>> count_goals("No more goals.")
    0
    """
    if goals_text is None:
        return None
    if "gave up" in goals_text or "on the shelf" in goals_text:
        # Goals that were shelved or given up still need proofs; report them as open.
        match = _GOALS_HEAD.search(goals_text)
        return int(match.group(1)) if match else 1
    if "No more goals" in goals_text:
        return 0
    match = _GOALS_HEAD.search(goals_text)
    if match:
        return int(match.group(1))
    return None


@dataclass
class Signals:
    """The four signals of one attempt, plus the verifier's message when it failed."""

    syntax_ok: bool
    type_ok: bool
    goals_before: int | None
    goals_after: int | None
    complete: bool
    failure: FailureKind = FailureKind.NONE
    message: str = ""  # the first error message, trimmed: the negative example for the Tactician
    goals_text: str = ""  # the goals after the attempt (empty when it failed or completed)
    no_op: bool = False  # ran without error but changed nothing

    @property
    def progress(self) -> int:
        """Goals closed (positive) or opened (negative); 0 when unknown or a no-op."""
        if self.goals_before is None or self.goals_after is None or self.no_op:
            return 0
        return self.goals_before - self.goals_after

    @property
    def ok(self) -> bool:
        """Ran without any error (it may still leave goals)."""
        return self.failure is FailureKind.NONE

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["failure"] = self.failure.value
        return out

    @classmethod
    def failed(cls, kind: FailureKind, message: str, goals_before: int | None = None) -> Signals:
        """Signals of an attempt that failed with ``kind`` (syntax/type flags follow the kind)."""
        syntax_ok = kind not in (FailureKind.SYNTAX, FailureKind.FORBIDDEN)
        type_ok = syntax_ok and kind not in (FailureKind.TYPE, FailureKind.UNKNOWN_REFERENCE)
        return cls(
            syntax_ok=syntax_ok,
            type_ok=type_ok,
            goals_before=goals_before,
            goals_after=None,
            complete=False,
            failure=kind,
            message=message.strip()[:500],
        )


def focused_goal(goals_text: str) -> tuple[list[str], str]:
    """(hypotheses, conclusion) of the first goal of a goals display."""
    body = goals_text.split("\ngoal 2", 1)[0]
    above, _, below = body.partition("====")
    hypotheses = [line.strip() for line in above.splitlines()[1:] if ":" in line]
    return hypotheses, " ".join(below.strip("= \n").split())


def structural_progress(before: str, after: str) -> float:
    """Progress a goal count does not show, in [-1, 1]: half for a shorter conclusion (by a
    tenth or more; minus half for one grown by half), half for hypotheses gained.

    >>> before = "1 goal\\n  x : R\\n  ====\\n  x * (x + 2) + 1 >= 0\\n"
    >>> after = "1 goal\\n  x : R\\n  H : 0 <= (x + 1)^2\\n  ====\\n  0 <= (x + 1)^2\\n"
    >>> structural_progress(before, after)
    1.0
    """
    hyps_before, goal_before = focused_goal(before)
    hyps_after, goal_after = focused_goal(after)
    score = 0.0
    if goal_before and len(goal_after) <= 0.9 * len(goal_before):
        score += 0.5
    elif goal_before and len(goal_after) >= 1.5 * len(goal_before):
        score -= 0.5
    if len(hyps_after) > len(hyps_before):
        score += 0.5
    return score
