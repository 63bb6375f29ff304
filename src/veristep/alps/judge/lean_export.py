"""ALPS part 2: the Lean channel — a checked chain compiled to a Lean 4 ``calc`` proof.

The statement is generated here from the law; the proof is one ``calc`` whose every step is
``h args`` or ``(h args).symm`` wrapped in ``congrArg`` down to the rewritten position. Before
Lean runs, a textual gate rejects proof-avoidance (sorry, admit, native_decide, axioms, unsafe
code, notation tricks, redefinitions of the statement); after it runs, the axiom footprint of
``solution`` must lie within {propext, Quot.sound, Classical.choice}. Law variables are renamed
``v0, v1, …`` so no law can collide with a Lean keyword.

>>> from veristep.alps.terms import parse_law, parse_term
>>> from veristep.alps.judge.chain import check_chain
>>> law = parse_law("x = y ◇ z")
>>> result = check_chain(law, [parse_term(t) for t in ("a", "a ◇ a", "b")])
>>> src = compile_chain(law, result)
>>> print(src.split("by\\n", 1)[1])
  intro M op h a b
  calc a = (op a a) := h a a a
    _ = b := (h b a a).symm
<BLANKLINE>
>>> scan(src), scan("theorem solution : Problem.TrivialGoal := by sorry")
([], ["banned token 'sorry': incomplete proof"])
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from veristep.alps.judge.chain import Application, ChainResult
from veristep.alps.terms import Law, Op, Term, parse_term, subterm_at
from veristep.core.subprocesses import ProcessResult, run_with_deadline

ALLOWED_AXIOMS = frozenset({"propext", "Quot.sound", "Classical.choice"})
FORBIDDEN_AXIOMS = frozenset({"sorryAx", "Lean.ofReduceBool", "Lean.trustCompiler"})
BANNED = {
    "sorry": "incomplete proof",
    "admit": "incomplete proof",
    "native_decide": "trusts compiled code, bypasses the kernel",
    "unsafe": "escapes the kernel",
    "implemented_by": "escapes the kernel",
    "extern": "escapes the kernel",
    "macro_rules": "can redefine notation so the footer checks a different goal",
    "macro ": "can redefine notation so the footer checks a different goal",
    "syntax ": "can redefine notation so the footer checks a different goal",
    "notation": "can redefine notation so the footer checks a different goal",
    "elab ": "metaprogramming",
    "namespace Problem": "the statement is ours; reopening the namespace is the attack",
}
_AXIOM_DECL = re.compile(r"^\s*(?:axiom|opaque|constant)\s", re.MULTILINE)
_REDEF = re.compile(
    r"^\s*(?:private\s+|protected\s+|noncomputable\s+)*"
    r"(?:def|abbrev|theorem|lemma|instance|structure|inductive|class|notation|alias|export)"
    r"\s+[^\n:=]*\b(TrivialGoal|AustinGoal|Law)\b",
    re.MULTILINE,
)
_FOOTPRINT = re.compile(r"'([\w.]+)' depends on axioms: \[([^\]]*)\]")


def _vars(law: Law) -> dict[str, str]:
    return {name: f"v{i}" for i, name in enumerate(law.variables())}


def lean_term(t: Term, names: dict[str, str] | None = None) -> str:
    if isinstance(t, Op):
        return f"(op {lean_term(t.left, names)} {lean_term(t.right, names)})"
    return names.get(t.name, t.name) if names else t.name


def header(law: Law) -> str:
    names = _vars(law)
    body = f"{lean_term(law.lhs, names)} = {lean_term(law.rhs, names)}"
    return (
        f"/- law: {law} — generated; a submission may not redefine it -/\n"
        "namespace Problem\n"
        f"def Law {{M : Type}} (op : M → M → M) : Prop :=\n  ∀ {' '.join(names.values())} : M, "
        f"{body}\n"
        "def TrivialGoal : Prop :=\n  ∀ (M : Type) (op : M → M → M), Law op → ∀ a b : M, a = b\n"
        "end Problem\n"
    )


FOOTER = "\nexample : Problem.TrivialGoal := solution\n\n#print axioms solution\n"


def step_proof(law: Law, before: Term, app: Application) -> str:
    """``h args`` (or its ``.symm``) for the instance, wrapped in congrArg up to the root."""
    sigma = {k: parse_term(v) for k, v in app.sigma.items()}
    args = " ".join(lean_term(sigma[v]) for v in law.variables())
    proof = f"h {args}" if app.direction == "forward" else f"(h {args}).symm"
    for depth in range(len(app.position) - 1, -1, -1):
        node = subterm_at(before, app.position[:depth])
        assert isinstance(node, Op)
        if app.position[depth] == 0:
            proof = f"congrArg (fun t => op t {lean_term(node.right)}) ({proof})"
        else:
            proof = f"congrArg (fun t => op {lean_term(node.left)} t) ({proof})"
    return proof


def compile_chain(law: Law, result: ChainResult) -> str:
    """The body of the Lean file: ``theorem solution : Problem.TrivialGoal`` by one calc."""
    steps = result.expanded()
    if not steps:
        raise ValueError("an accepted chain has at least one law application")
    lines = []
    for i, (before, after, app) in enumerate(steps):
        lhs = lean_term(before) if i == 0 else "_"
        lead = "  calc " if i == 0 else "    "
        lines.append(f"{lead}{lhs} = {lean_term(after)} := {step_proof(law, before, app)}")
    return (
        "set_option maxRecDepth 8000 in\n"
        "theorem solution : Problem.TrivialGoal := by\n  intro M op h a b\n"
        + "\n".join(lines)
        + "\n"
    )


def _strip_comments(src: str) -> str:
    return re.sub(r"--[^\n]*", " ", re.sub(r"/-.*?-/", " ", src, flags=re.DOTALL))


def scan(src: str) -> list[str]:
    """Textual gate, before Lean runs (some of these subvert Lean itself)."""
    code = _strip_comments(src)
    bad = [f"banned token {tok.strip()!r}: {why}" for tok, why in BANNED.items() if tok in code]
    bad += [f"redefines {m.group(1)!r}: the statement is ours" for m in _REDEF.finditer(code)]
    if _AXIOM_DECL.search(code):
        bad.append("declares an axiom: assumes what it was asked to prove")
    if not re.search(r"^\s*(?:theorem|def|lemma)\s+solution\b", code, re.MULTILINE):
        bad.append("no `solution` declaration found")
    return bad


def check_footprint(transcript: str) -> list[str]:
    """Allowlist (not a blocklist): any axiom outside it, or no footprint at all, fails."""
    bad = ["sorry warning from Lean"] if "declaration uses 'sorry'" in transcript else []
    found = _FOOTPRINT.findall(transcript)
    for name, axioms in found:
        used = {a.strip() for a in axioms.split(",") if a.strip()}
        for ax in sorted(used - ALLOWED_AXIOMS):
            flag = " (FORBIDDEN)" if ax in FORBIDDEN_AXIOMS else ""
            bad.append(f"{name}: unexpected axiom {ax!r}{flag}")
    if not found and "does not depend on any axioms" not in transcript:
        bad.append("no `#print axioms` output — cannot certify the footprint")
    return bad


class LeanRunner(Protocol):
    def unavailable(self) -> str | None: ...

    def run(self, source: str, timeout_s: float) -> ProcessResult: ...


@dataclass(frozen=True)
class LakeRunner:
    """``lake env lean Answer.lean`` inside a configured Lean project."""

    project_dir: Path | None
    memory_mb: int = 8192

    def unavailable(self) -> str | None:
        if self.project_dir is None:
            return "no Lean project configured (settings.lean_project_dir / VERISTEP_LEAN_PROJECT)"
        if shutil.which("lake") is None or shutil.which("lean") is None:
            return "lake/lean not on the PATH"
        try:  # Debian's elan shim answers only by trying to download a toolchain
            probe = subprocess.run(
                ["lean", "--version"], capture_output=True, text=True, timeout=20
            )
        except (OSError, subprocess.SubprocessError) as err:
            return f"`lean --version` failed: {err}"
        if probe.returncode != 0 or "Lean (version" not in probe.stdout:
            return "`lean --version` did not report a Lean toolchain"
        return None

    def run(self, source: str, timeout_s: float) -> ProcessResult:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "Answer.lean"
            path.write_text(source, encoding="utf-8")
            cmd = ["lake", "env", "lean", str(path)]
            return run_with_deadline(cmd, timeout_s, self.memory_mb, cwd=self.project_dir)


@dataclass(frozen=True)
class LeanCheck:
    status: str  # "passed" | "failed" | "skipped"
    reasons: list[str] = field(default_factory=list)
    source: str = ""
    transcript: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "reasons": self.reasons,
            "source": self.source,
            "transcript": self.transcript,
        }


def check_with_lean(law: Law, body: str, runner: LeanRunner | None, timeout_s: float) -> LeanCheck:
    """Gate, then Lean (when a toolchain is configured), then the axiom allowlist."""
    source = header(law) + "\n" + body + FOOTER
    gate = scan(body)
    if gate:
        return LeanCheck("failed", gate, source)
    reason = runner.unavailable() if runner is not None else "no Lean runner"
    if runner is None or reason:
        return LeanCheck("skipped", [reason or "no Lean runner"], source)
    res = runner.run(source, timeout_s)
    out = res.stdout + res.stderr
    if res.timed_out:
        return LeanCheck("failed", [f"Lean timed out after {timeout_s:g}s"], source, out)
    if res.returncode != 0 or "error:" in out:
        return LeanCheck("failed", ["Lean rejected the proof", *out.splitlines()[:8]], source, out)
    bad = check_footprint(out)
    return LeanCheck("failed" if bad else "passed", bad, source, out)
