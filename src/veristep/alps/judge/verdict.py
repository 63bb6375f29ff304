"""ALPS part 2: the judge — one submission in, one verdict with a sealed certificate out.

``judge`` never raises on a bad submission: a malformed one is ``invalid`` with a message, a
checked-and-failed one is ``rejected``, a certified one is ``accepted``. The message is the
feedback a solver sees verbatim. Only a bad *law* (the judge's own input) raises ``InputError``.

>>> v = judge("x = y ◇ z", '{"chain": ["a", "a ◇ a", "b"]}')
>>> v.status, v.message
('accepted', 'accepted: 2 links, 2 law applications')
>>> judge("x = y ◇ z", b"\\xff\\xfe").message
'submission is not valid UTF-8 (byte 0)'
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from veristep.alps.judge import certificates, construction, lean_export
from veristep.alps.judge.chain import check_chain
from veristep.alps.judge.submission import (
    SubmissionError,
    load_object,
    parse_chain_submission,
    parse_presentation_submission,
)
from veristep.alps.provers import EProver, Prover
from veristep.alps.terms import Law, parse_law

STATUSES = ("accepted", "rejected", "invalid")


@dataclass(frozen=True)
class JudgeConfig:
    prover: Prover = field(default_factory=lambda: EProver("auto"))
    timeout_s: float = 30.0
    memory_mb: int = 4096
    cert_dir: Path | None = None  # certificates are saved here when set
    lean: lean_export.LeanRunner | None = None
    lean_timeout_s: float = 300.0


@dataclass(frozen=True)
class Verdict:
    law: str
    channel: str  # "chain" | "construction" | "unknown"
    status: str  # accepted | rejected | invalid
    message: str
    classification: str | None = None  # construction: certified / too strong / too weak / both
    certificate: dict[str, Any] = field(default_factory=dict, repr=False)
    certificate_path: str | None = None
    ms: float = 0.0

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    @property
    def certificate_hash(self) -> str:
        return str(self.certificate.get(certificates.HASH_FIELD, ""))

    def to_json(self, with_certificate: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "law": self.law,
            "channel": self.channel,
            "status": self.status,
            "message": self.message,
            "classification": self.classification,
            "certificate_hash": self.certificate_hash,
            "certificate_path": self.certificate_path,
            "ms": round(self.ms, 1),
        }
        if with_certificate:
            out["certificate"] = self.certificate
        return out


def _as_law(law: Law | str) -> Law:
    return law if isinstance(law, Law) else parse_law(law)


def judge(
    law: Law | str, submission: bytes | str | dict[str, Any], config: JudgeConfig | None = None
) -> Verdict:
    """Judge one submission for ``law`` in whichever channel its JSON names."""
    cfg = config or JudgeConfig()
    law = _as_law(law)
    start = time.perf_counter()
    try:
        obj = load_object(submission)
        if "chain" in obj:
            body = _chain(law, obj, cfg)
        elif "E" in obj:
            body = _construction(law, obj, cfg)
        else:
            raise SubmissionError('a submission is {"chain": [...]} or {"E": [...]}')
    except SubmissionError as err:
        body = {"channel": _guess_channel(submission), "status": "invalid", "message": str(err)}
    return _finish(law, body, cfg, (time.perf_counter() - start) * 1000)


def _guess_channel(submission: object) -> str:
    if isinstance(submission, dict):
        return (
            "chain" if "chain" in submission else "construction" if "E" in submission else "unknown"
        )
    return "unknown"


def _chain(law: Law, obj: dict[str, Any], cfg: JudgeConfig) -> dict[str, Any]:
    terms = parse_chain_submission(obj)
    result = check_chain(law, terms)
    body: dict[str, Any] = {
        "channel": "chain",
        "submission": {"chain": [str(t) for t in terms]},
        "links": [link.to_json() for link in result.links],
        "status": "accepted" if result.accepted else "rejected",
        "message": result.message,
    }
    if result.accepted:
        lean = lean_export.check_with_lean(
            law, lean_export.compile_chain(law, result), cfg.lean, cfg.lean_timeout_s
        )
        body["lean"] = lean.to_json()
        if lean.status == "failed":  # matching said yes and Lean said no: trust neither
            body["status"] = "rejected"
            body["message"] = "Lean rejected the assembled proof: " + "; ".join(lean.reasons[:3])
    return body


def _construction(law: Law, obj: dict[str, Any], cfg: JudgeConfig) -> dict[str, Any]:
    presentation = parse_presentation_submission(obj)
    result = construction.certify(law, presentation, cfg.prover, cfg.timeout_s, cfg.memory_mb)
    return {
        "channel": "construction",
        "submission": {"E": [str(e) for e in presentation]},
        "checks": [result.correctness.to_json(), result.nonvacuity.to_json()],
        "status": "accepted" if result.certified else "rejected",
        "message": result.feedback,
        "classification": result.classification,
    }


def _finish(law: Law, body: dict[str, Any], cfg: JudgeConfig, ms: float) -> Verdict:
    cert = certificates.seal({"law": str(law), "judge": "veristep-alps-judge/1", **body})
    path = str(certificates.save(cert, cfg.cert_dir)) if cfg.cert_dir is not None else None
    return Verdict(
        law=str(law),
        channel=body["channel"],
        status=body["status"],
        message=body["message"],
        classification=body.get("classification"),
        certificate=cert,
        certificate_path=path,
        ms=ms,
    )
