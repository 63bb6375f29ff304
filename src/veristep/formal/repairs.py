"""Tactics repaired from Coq's own error: what a failed tactic tells the next candidate.

VERITAS feeds the verifier's message back to its model; offline, the message itself shapes the
next candidates at the same node:

- an unknown name (``The reference Rmult_le_compat_lr was not found``) becomes the nearest real
  names of the lemma index (``Rmult_le_compat_l``), spelled as Coq spelled the failure;
- a unification failure of ``apply L`` becomes ``eapply L`` (arguments left as existential
  variables for later goals), and of ``rewrite L`` the other direction, ``rewrite <- L``;
- a rewrite that found no subterm is tried right to left as well.

A repair is a candidate like any other: Coq decides.

>>> from veristep.formal.signals import FailureKind
>>> repairs("apply Rmult_le_compat.", FailureKind.TYPE, "Unable to unify")
['eapply Rmult_le_compat.']
>>> repairs("rewrite Rplus_comm.", FailureKind.TYPE, "Found no subterm matching")
['rewrite <- Rplus_comm.']
>>> repairs("apply pow2_ge_O.", FailureKind.UNKNOWN_REFERENCE,
...         "The reference pow2_ge_O was not found in the current environment.",
...         names=["pow2_ge_0", "pow_le", "Rle_0_sqr"])
['apply pow2_ge_0.']
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from veristep.formal.signals import FailureKind

MAX_REPAIRS = 2  # per failed tactic
_UNKNOWN = re.compile(
    r"(?:reference|variable|constant|inductive)\s+([A-Za-z_][\w.']*)\s+(?:was not found|\.)"
    r"|Unknown (?:constant|inductive|reference)\s*:?\s*([A-Za-z_][\w.']*)"
)
_HEAD = re.compile(r"^\s*(apply|exact|rewrite|erewrite)\s+(?!<-)")


def unknown_name(message: str) -> str | None:
    """The name Coq did not find, from its error message."""
    match = _UNKNOWN.search(" ".join(message.split()))
    if match is None:
        return None
    return match.group(1) or match.group(2)


def repairs(
    tactic: str, failure: FailureKind, message: str, names: Iterable[str] = ()
) -> list[str]:
    """At most :data:`MAX_REPAIRS` tactics to try next at the same goal, from the failure."""
    if failure == FailureKind.UNKNOWN_REFERENCE:
        return _renamed(tactic, message, list(names))
    if failure == FailureKind.TYPE:
        return _loosened(tactic)
    return []


def _renamed(tactic: str, message: str, names: list[str]) -> list[str]:
    missing = unknown_name(message)
    if missing is None or not names:
        return []
    short = missing.rsplit(".", 1)[-1]
    nearest = difflib.get_close_matches(short, names, n=MAX_REPAIRS, cutoff=0.75)
    pattern = re.compile(rf"(?<![\w.']){re.escape(missing)}(?![\w'])")
    out = [pattern.sub(name, tactic) for name in nearest if name != short]
    return [t for t in out if t != tactic]


def _loosened(tactic: str) -> list[str]:
    match = _HEAD.match(tactic)
    if match is None:
        return []
    head, rest = match.group(1), tactic[match.end() :]
    if head in ("apply", "exact"):
        return [f"eapply {rest}"]
    return [f"rewrite <- {rest}"]
