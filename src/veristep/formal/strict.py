"""Strict acceptance of a finished Coq proof: a fresh ``coqc`` compile plus an axiom audit.

Coq 8.16 compiles ``Admitted.`` and ``Axiom`` with exit code 0, so a zero exit status proves
nothing. A proof is accepted only when (1) the candidate text passes the strict filter, (2) the
file header + the *expected* statement + the proof compiles under a deadline and a memory cap, and
(3) ``Print Assumptions`` lists nothing beyond the allowlist: the axioms of Coq's standard real
numbers and whatever the benchmark's own header postulates.
"""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

from veristep.formal.backends.base import StrictVerdict, Theorem
from veristep.formal.coq_text import forbidden_reason, theorem_name
from veristep.formal.signals import FailureKind, classify_error

# Axioms Coq's own Reals library rests on (Print Assumptions lists them for any proof about R).
REAL_AXIOMS: frozenset[str] = frozenset(
    {
        "ClassicalDedekindReals.sig_forall_dec",
        "ClassicalDedekindReals.sig_not_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
    }
)

# Flags and attributes that switch off parts of the kernel's checking. Forbidden anywhere in a file.
_UNSAFE_FLAGS = re.compile(
    r"(Guard|Universe|Positivity)\s+Checking|bypass_check|Type\s*In\s*Type|Impredicative"
)


def build_file(theorem: Theorem, proof: str) -> str:
    """The ``.v`` text that proves ``theorem`` with ``proof`` and audits its assumptions."""
    name = theorem_name(theorem.statement) or theorem.name
    return (
        f"{theorem.header.rstrip()}\n\n{theorem.statement.strip()}\nProof.\n{proof.strip()}\n"
        f"Qed.\n\nPrint Assumptions {name}.\n"
    )


def parse_assumptions(output: str) -> list[str] | None:
    """Axiom names from ``Print Assumptions`` output; [] when closed, None when absent.

    >>> parse_assumptions("Closed under the global context")
    []
    >>> parse_assumptions("Axioms:\\nfoo.bar\\n  : nat\\nbaz : forall n, n = n")
    ['foo.bar', 'baz']
    >>> parse_assumptions("Closed under the global context\\nAxioms:\\ncheat : False")
    ['cheat']
    """
    # Print Assumptions is the file's last command, so only its *last* answer counts: a proof
    # can print look-alike text (idtac) earlier, never after it.
    closed = output.rfind("Closed under the global context")
    axioms = [m.end() for m in re.finditer(r"^Axioms:\n", output, re.M)]
    if closed < 0 and not axioms:
        return None
    if closed > (axioms[-1] if axioms else -1):
        return []
    names = []
    for line in output[axioms[-1] :].splitlines():
        if line and not line[0].isspace():
            names.append(line.split(" : ")[0].strip())
    return names


def run_coqc(text: str, timeout_s: float, memory_mb: int, coqc: str = "coqc") -> tuple[int, str]:
    """Compile ``text`` in a scratch folder; (exit status, merged output). -9 on a deadline."""
    from veristep.core.subprocesses import run_with_deadline

    with tempfile.TemporaryDirectory(prefix="vs_coqc_") as tmp:
        path = Path(tmp) / "Candidate.v"
        path.write_text(text, encoding="utf-8")
        result = run_with_deadline([coqc, "-q", path.name], timeout_s, memory_mb, cwd=tmp)
    if result.timed_out:
        return -9, f"Timeout: coqc exceeded {timeout_s:.0f} s (killed)"
    return result.returncode, result.stdout + result.stderr


def confirm(
    theorem: Theorem, proof: str, timeout_s: float = 60.0, memory_mb: int = 4096
) -> StrictVerdict:
    """The strict verdict on ``proof`` as a proof of exactly ``theorem``."""
    started = time.monotonic()
    reason = forbidden_reason(proof)
    if reason is not None:
        return StrictVerdict(False, f"rejected before Coq: {reason}", failure=FailureKind.FORBIDDEN)
    text = build_file(theorem, proof)
    if _UNSAFE_FLAGS.search(text):
        return StrictVerdict(False, "an unsafe checking flag", failure=FailureKind.FORBIDDEN)
    status, output = run_coqc(text, timeout_s, memory_mb)
    elapsed = time.monotonic() - started
    if status != 0 or "Error" in output:
        message = output.strip().splitlines()[-1] if output.strip() else f"exit status {status}"
        kind = FailureKind.TIMEOUT if status == -9 else classify_error(output)
        return StrictVerdict(False, f"coqc: {message}", failure=kind, seconds=elapsed)
    axioms = parse_assumptions(output)
    if axioms is None:
        return StrictVerdict(False, "no Print Assumptions output", seconds=elapsed)
    allowed = REAL_AXIOMS | theorem.allowed_axioms
    extra = [a for a in axioms if a not in allowed and a.split(".")[-1] not in allowed]
    if extra:
        return StrictVerdict(
            False,
            f"uses non-allowlisted axioms: {', '.join(extra)}",
            axioms=axioms,
            failure=FailureKind.GIVEN_UP,
            seconds=elapsed,
        )
    return StrictVerdict(True, "compiled by coqc; assumptions allowlisted", axioms, seconds=elapsed)


_POSTULATES = re.compile(
    r"\b(Axioms?|Parameters?|Conjecture|Hypothes[ie]s|Variables?|Admitted|admit|give_up|Module"
    r"|Declare|Extern)\b"
)
_PROOF_BLOCK = re.compile(r"\bProof\s*\.(?P<body>.*)\b(Qed|Defined)\s*\.", re.S)
_STATEMENT_START = re.compile(
    r"^\s*(Theorem|Lemma|Fact|Remark|Corollary|Proposition|Example)\s", re.M
)


def split_proof_file(text: str) -> tuple[str, str, str | None]:
    """(header, statement, proof body) of a ``.v`` file holding one theorem and its proof.

    The *last* theorem of the file is the one judged; everything before it is its header (and is
    audited by ``Print Assumptions`` like everything else). The body is None when the theorem has
    no ``Proof. ... Qed.`` block.
    """
    from veristep.core.errors import InputError

    starts = list(_STATEMENT_START.finditer(text))
    if not starts:
        raise InputError("no Theorem/Lemma found in the file", source=text[:200], position=0)
    start = starts[-1].start()
    rest = text[start:]
    proof = _PROOF_BLOCK.search(rest)
    if proof is None:  # Admitted, Abort or an unfinished script: judged, not an input error
        end = rest.find(".") + 1
        return text[:start], rest[:end].strip() if end else rest, None
    statement = rest[: proof.start()].strip()
    return text[:start], statement, proof.group("body").strip()


def check_file(
    text: str, expected: Theorem | None = None, timeout_s: float = 60.0, memory_mb: int = 4096
) -> StrictVerdict:
    """Strict verdict on a whole ``.v`` file; with ``expected``, its statement must be that one."""
    from veristep.formal.coq_text import normalize_statement, strip_comments

    header, statement, proof = split_proof_file(text)
    if proof is None:
        return StrictVerdict(
            False,
            "no 'Proof. ... Qed.' block: an Admitted or aborted proof is not a proof",
            failure=FailureKind.INCOMPLETE,
        )
    name = theorem_name(statement) or "theorem"
    allowed: frozenset[str] = frozenset()
    if expected is not None:
        if normalize_statement(statement) != normalize_statement(expected.statement):
            return StrictVerdict(
                False,
                f"proves a different statement than {expected.name}",
                failure=FailureKind.TYPE,
            )
        mine, theirs = normalize_statement(header), normalize_statement(expected.header)
        # The benchmark's header, possibly followed by more imports (never more postulates).
        if mine.startswith(theirs) and not _POSTULATES.search(mine[len(theirs) :]):
            allowed = expected.allowed_axioms
    stripped = strip_comments(header) or header
    postulate = _POSTULATES.search(stripped)
    if postulate and not allowed:
        # Outside a benchmark whose header is known, the file may not postulate anything, nor
        # open modules that could pose as the allowlisted real-number axioms.
        return StrictVerdict(
            False,
            f"the file's header uses {postulate.group(0)!r}: only proofs are accepted",
            failure=FailureKind.FORBIDDEN,
        )
    theorem = Theorem(name=name, header=header, statement=statement, allowed_axioms=allowed)
    return confirm(theorem, proof, timeout_s=timeout_s, memory_mb=memory_mb)
