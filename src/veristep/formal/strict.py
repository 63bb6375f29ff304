"""Strict acceptance of a finished Coq proof: every caller goes through :func:`accept.accept`.

Coq 8.16 compiles ``Admitted.`` and ``Axiom`` with exit code 0, so a zero exit status proves
nothing, and text the candidate prints proves nothing either. :mod:`veristep.formal.accept`
compiles the candidate as its own library, checks its theorem against the reference statement in
a clean environment and reads the axioms from ``coqchk``. This module builds the candidate text
for a search's proof script (:func:`confirm`) and picks the reference for a whole file
(:func:`check_file`): the benchmark's statement with ``--expect``, else the file's own statement
with only the file's imports as its environment.
"""

from __future__ import annotations

from pathlib import Path

from veristep.formal.accept import REAL_AXIOMS, Reference, Refused, accept, reference_of_file
from veristep.formal.backends.base import StrictVerdict, Theorem
from veristep.formal.coq_text import forbidden_reason
from veristep.formal.signals import FailureKind

__all__ = ["REAL_AXIOMS", "build_file", "check_file", "confirm", "split_proof_file"]


def build_file(theorem: Theorem, proof: str, prelude: str = "") -> str:
    """The ``.v`` text that proves ``theorem`` with ``proof`` (after the header and ``prelude``)."""
    extra = f"{prelude.strip()}\n" if prelude.strip() else ""
    return (
        f"{theorem.header.rstrip()}\n{extra}\n{theorem.statement.strip()}\nProof.\n"
        f"{proof.strip()}\nQed.\n"
    )


def confirm(
    theorem: Theorem,
    proof: str,
    timeout_s: float = 60.0,
    memory_mb: int = 4096,
    prelude: str = "",
    data_dir: Path | None = None,
) -> StrictVerdict:
    """The strict verdict on the proof script ``proof`` as a proof of exactly ``theorem``.

    ``prelude`` (tactic libraries) is loaded after the header in the candidate only: the
    statement is elaborated with the theorem's own header, so the prelude cannot change it.
    ``data_dir`` (``Settings.data_dir``) keeps the baseline allowlists (:func:`accept.accept`).
    """
    reason = forbidden_reason(proof)
    if reason is not None:
        return StrictVerdict(False, f"rejected before Coq: {reason}", failure=FailureKind.FORBIDDEN)
    reference = Reference.of(theorem)
    return accept(reference, build_file(theorem, proof, prelude), timeout_s, memory_mb, data_dir)


def split_proof_file(text: str) -> tuple[str, str, str | None]:
    """(header, statement, proof body) of a ``.v`` file, read with Coq's own lexing.

    The *last* theorem of the file is the one judged; everything before it is its header. The
    body is None when the theorem has no ``Proof. ... Qed.`` block.
    """
    from veristep.core.errors import InputError
    from veristep.formal.accept import judged_statement

    try:
        parts, at = judged_statement(text)
    except Refused as refused:
        raise InputError(str(refused), source=text[:200], position=0) from None
    statement = parts[at]
    body: str | None = None
    rest = parts[at + 1 :]
    if rest and rest[0].head[:1] == ["Proof"]:
        ends = [i for i, s in enumerate(rest) if s.head[:1] in (["Qed"], ["Defined"])]
        if ends:
            first, last = rest[0], rest[ends[0] - 1] if ends[0] > 0 else rest[0]
            body = text[first.start + len(first.text) : last.start + len(last.text)].strip()
    return text[: statement.start], statement.text, body


def check_file(
    text: str,
    expected: Theorem | None = None,
    timeout_s: float = 60.0,
    memory_mb: int = 4096,
    data_dir: Path | None = None,
) -> StrictVerdict:
    """Strict verdict on a whole ``.v`` file; with ``expected``, its theorem ``expected.name``
    must have exactly the expected statement (elaborated from the benchmark's own text)."""
    try:
        reference = Reference.of(expected) if expected else reference_of_file(text)
    except Refused as refused:
        return StrictVerdict(False, str(refused), failure=refused.failure)
    return accept(reference, text, timeout_s, memory_mb, data_dir)
