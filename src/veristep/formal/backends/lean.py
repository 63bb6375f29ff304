"""Lean 4 backend (optional): an own small client for the leanprover-community REPL.

Protocol (REPL's README): one JSON object per command, commands and answers separated by a blank
line. ``{"cmd": text, "env": n}`` elaborates text in environment n and answers ``{"env": m,
"messages": [...], "sorries": [...]}``; each ``sorry`` carries a ``proofState`` id, and
``{"tactic": t, "proofState": id}`` answers ``{"proofState": id2, "goals": [...],
"proofStatus": ...}``. The header (``import Mathlib`` ...) is elaborated once and its env reused.

Batched validation sends K candidates as K ``private theorem``s in *one* command and attributes each
error to the candidate whose lines contain it. Lean is enabled only when ``lean --version`` really
answers ``Lean (version 4…``: Debian's ``elan`` package puts a downloader shim named ``lean`` on the
PATH that does not count.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

from veristep.core.errors import InputError, VeristepError
from veristep.core.subprocesses import with_parent
from veristep.formal.backends.base import Attempt, OpenGoal, StrictVerdict, Theorem
from veristep.formal.signals import FailureKind, Signals, classify_error

LEAN_FORBIDDEN = re.compile(
    r"\b(sorry|admit|axiom|unsafe|implemented_by|extern|opaque|"
    r"set_option|import|native_decide|debug\.skipKernelTC)\b"
)
LEAN_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
_NAME = re.compile(r"^\s*(?:theorem|lemma)\s+([^\s(:{\[]+)", re.M)


def lean_version(lean: str = "lean", timeout_s: float = 20.0) -> str | None:
    """The toolchain's version line, or None when no real Lean 4 answers."""
    try:
        out = subprocess.run(
            [lean, "--version"],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    line = out.stdout.strip().splitlines()[0] if out.stdout.strip() else ""
    return line if out.returncode == 0 and line.startswith("Lean (version 4") else None


def require_lean() -> str:
    version = lean_version()
    if version is None:
        raise InputError(
            "--backend lean needs a Lean 4 toolchain: `lean --version` did not answer "
            "'Lean (version 4…' (an elan shim without a toolchain does not count)"
        )
    return version


class LeanReplError(VeristepError):
    """The REPL died, answered garbage or missed its deadline (never evidence about the goal)."""


@dataclass
class LeanRepl:
    """A REPL process speaking blank-line-framed JSON."""

    command: list[str]
    timeout_s: float = 120.0
    _proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _buffer: bytes = field(default=b"", repr=False)

    def start(self) -> None:
        self.close()
        self._proc = subprocess.Popen(
            with_parent(list(self.command)),  # dies with this process, like every prover
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self._buffer = b""

    def send(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._proc is None or self._proc.poll() is not None:
            self.start()
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(request).encode() + b"\n\n")
            self._proc.stdin.flush()
        except OSError as exc:
            self.close()
            raise LeanReplError(f"REPL died: {exc}") from None
        raw = self._read_block()
        try:
            return json.loads(raw)
        except ValueError:
            raise LeanReplError(f"REPL answered non-JSON: {raw[:200]!r}") from None

    def _read_block(self) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        fd, deadline = self._proc.stdout.fileno(), time.monotonic() + self.timeout_s
        while b"\n\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise LeanReplError(f"no answer from the REPL within {self.timeout_s:.0f} s")
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if ready:
                data = os.read(fd, 1 << 16)
                if not data:
                    self.close()
                    raise LeanReplError("REPL exited")
                self._buffer += data
        block, self._buffer = self._buffer.split(b"\n\n", 1)
        return block.decode("utf-8", errors="replace")

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, 9)
            proc.wait()


@dataclass
class LeanBackend:
    """Lean 4 behind the Backend interface. ``theorem.statement`` ends with ``:= by``."""

    repl: LeanRepl
    name: str = "lean"
    calls: int = 0
    _envs: dict[str, int] = field(default_factory=dict)
    _root: int | None = None

    def _env(self, theorem: Theorem) -> int:
        if theorem.header not in self._envs:
            reply = self.repl.send({"cmd": theorem.header})
            errors = _errors(reply)
            if errors:
                raise LeanReplError(f"header does not elaborate: {errors[0]}")
            self._envs[theorem.header] = int(reply["env"])
        return self._envs[theorem.header]

    def check_batch(self, theorem: Theorem, proofs: list[str]) -> list[Attempt]:
        blocks, spans, results = [], [], {}
        line = 1
        for i, proof in enumerate(proofs):
            if LEAN_FORBIDDEN.search(proof):
                results[i] = Attempt(proof, Signals.failed(FailureKind.FORBIDDEN, "forbidden word"))
                continue
            text = f"private {_renamed(theorem.statement, f'vs_cand_{i}')}\n  {_indent(proof)}\n"
            blocks.append(text)
            spans.append((i, line, line + text.count("\n") - 1))
            line += text.count("\n")
        if blocks:
            started = time.monotonic()
            self.calls += 1
            reply = self.repl.send({"cmd": "".join(blocks), "env": self._env(theorem)})
            elapsed = (time.monotonic() - started) / max(len(blocks), 1)
            for i, first, last in spans:
                mine = [
                    m
                    for m in reply.get("messages", [])
                    if first <= m.get("pos", {}).get("line", 0) <= last
                ]
                bad = [
                    m["data"]
                    for m in mine
                    if m.get("severity") == "error" or "sorry" in m.get("data", "")
                ]
                if bad:
                    signals = Signals.failed(_lean_kind(bad[0]), bad[0], 1)
                else:
                    signals = Signals(True, True, 1, 0, True)
                results[i] = Attempt(proofs[i], signals, elapsed)
        return [results[i] for i in range(len(proofs))]

    def open_proof(self, theorem: Theorem) -> OpenGoal:
        self.calls += 1
        text = f"{_renamed(theorem.statement, 'vs_node')}\n  sorry"
        reply = self.repl.send({"cmd": text, "env": self._env(theorem)})
        sorries = reply.get("sorries") or []
        if not sorries:
            raise LeanReplError(f"statement does not open a proof: {_errors(reply)[:1]}")
        self._root = int(sorries[0]["proofState"])
        goal = str(sorries[0].get("goal", ""))
        return OpenGoal(self._root, goal, 1)

    def apply(self, theorem: Theorem, path: list[str], tactic: str, goals_before: int) -> Attempt:
        """Lean proof states are immutable ids, so a path is replayed from the root state."""
        if LEAN_FORBIDDEN.search(tactic):
            return Attempt(tactic, Signals.failed(FailureKind.FORBIDDEN, "forbidden word"))
        state = self._root if self._root is not None else self.open_proof(theorem).state
        started = time.monotonic()
        for step in [*path, tactic]:
            self.calls += 1
            reply = self.repl.send({"tactic": step, "proofState": state})
            errors = _errors(reply)
            if errors or "proofState" not in reply:
                message = errors[0] if errors else str(reply.get("message", reply))
                kind = _lean_kind(message)
                return Attempt(tactic, Signals.failed(kind, message, goals_before))
            state = int(reply["proofState"])
        goals = [str(g) for g in reply.get("goals", [])]
        complete = not goals and str(reply.get("proofStatus", "Completed")).startswith("Completed")
        signals = Signals(
            True, True, goals_before, len(goals), False, goals_text="\n\n".join(goals)
        )
        signals.no_op = False
        if complete:
            signals.goals_after = 0
        return Attempt(tactic, signals, time.monotonic() - started, state=state)

    def confirm(self, theorem: Theorem, proof: str) -> StrictVerdict:
        """A fresh elaboration of the theorem, then ``#print axioms`` against the allowlist."""
        if LEAN_FORBIDDEN.search(proof):
            return StrictVerdict(False, "forbidden word", failure=FailureKind.FORBIDDEN)
        name = _NAME.search(theorem.statement)
        label = name.group(1) if name else theorem.name
        text = f"{theorem.statement}\n  {_indent(proof)}\n\n#print axioms {label}\n"
        self.calls += 1
        reply = self.repl.send({"cmd": text, "env": self._env(theorem)})
        errors = _errors(reply)
        if errors:
            return StrictVerdict(False, f"lean: {errors[0]}", failure=_lean_kind(errors[0]))
        infos = " ".join(m.get("data", "") for m in reply.get("messages", []))
        axioms = re.findall(r"[\w.]+", infos.split("axioms:", 1)[1]) if "axioms:" in infos else []
        extra = [a for a in axioms if a not in LEAN_AXIOMS]
        if extra or "sorry" in infos:
            return StrictVerdict(
                False, f"uses non-allowlisted axioms: {extra}", axioms, FailureKind.GIVEN_UP
            )
        return StrictVerdict(True, "elaborated by Lean; axioms allowlisted", axioms)

    def close(self) -> None:
        self.repl.close()
        self._envs.clear()


def _errors(reply: dict[str, Any]) -> list[str]:
    return [m.get("data", "") for m in reply.get("messages", []) if m.get("severity") == "error"]


def _lean_kind(message: str) -> FailureKind:
    if "unexpected token" in message or ("expected" in message and "term" in message):
        return FailureKind.SYNTAX
    if "unknown identifier" in message or "unknown constant" in message:
        return FailureKind.UNKNOWN_REFERENCE
    if "type mismatch" in message or "failed to synthesize" in message:
        return FailureKind.TYPE
    if "unsolved goals" in message:
        return FailureKind.INCOMPLETE
    if "declaration uses 'sorry'" in message:
        return FailureKind.GIVEN_UP
    if "deterministic) timeout" in message or "maximum recursion" in message:
        return FailureKind.TIMEOUT
    return classify_error(message)


def _renamed(statement: str, name: str) -> str:
    """The statement declared under ``name``.

    >>> _renamed("theorem t (n : Nat) : n = n := by", "vs_cand_0")
    'theorem vs_cand_0 (n : Nat) : n = n := by'
    """
    match = _NAME.search(statement)
    if match is None:
        raise ValueError("statement does not start with theorem NAME")
    return statement[: match.start(1)] + name + statement[match.end(1) :]


def _indent(proof: str) -> str:
    return "\n  ".join(proof.strip().splitlines())
