"""The Coq backend: batched candidates and tactic steps in one coqtop session, coqc to confirm.

Batched validation sends K whole-proof candidates through *one* warm session, each as its own
theorem (``vs_cand_N``) followed by ``Abort All.`` and the session's marker, and a candidate counts
only if its block shows no error and ``Qed`` closed the proof. Compared with K ``coqc`` runs this
pays the imports once (see ``bench/coq_batching.py`` for the measured saving).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from veristep.core.settings import Settings
from veristep.formal.backends.base import Attempt, OpenGoal, StrictVerdict, Theorem
from veristep.formal.backends.coqtop import CoqCrashed, CoqtopSession, Reply
from veristep.formal.coq_text import forbidden_reason, rename_theorem, split_sentences
from veristep.formal.signals import FailureKind, Signals, classify_error, count_goals, crash_kind
from veristep.formal.strict import confirm

# Imported after every benchmark header: the decision procedures the portfolio and agents use.
TACTIC_PRELUDE = "Require Import Lia Lra Psatz Zify.\nFrom Hammer Require Import Tactics."
_GOAL_IDS = re.compile(r"\(ID \d+\)|\(ID \d+ and ID \d+\)")


def goals_key(goals_text: str) -> str:
    """Goals display without Coq's internal goal ids, to detect no-op tactics."""
    return " ".join(_GOAL_IDS.sub("", goals_text).split())


@dataclass
class CoqBackend:
    """Coq behind the :class:`~veristep.formal.backends.base.Backend` interface."""

    settings: Settings = field(default_factory=Settings)
    candidate_timeout_s: float = 20.0  # wall deadline of one whole-proof candidate
    confirm_timeout_s: float = 60.0
    prelude: str = TACTIC_PRELUDE
    name: str = "coq"
    calls: int = 0
    _session: CoqtopSession | None = field(default=None, repr=False)
    _header: str | None = field(default=None, repr=False)
    _counter: int = field(default=0, repr=False)
    _open: bool = field(default=False, repr=False)
    _root_state: int = field(default=0, repr=False)
    _line: list[tuple[str, int]] = field(default_factory=list, repr=False)  # tactics, states
    _loaded: dict[tuple[str, tuple[str, ...]], frozenset[str]] = field(
        default_factory=dict, repr=False
    )

    # -- sessions --------------------------------------------------------------------------
    def _session_for(self, theorem: Theorem) -> CoqtopSession:
        header = f"{theorem.header.rstrip()}\n{self.prelude}"
        if self._session is None or self._header != header:
            self.close()
            self._session = CoqtopSession(
                header=header,
                memory_mb=self.settings.coq_memory_mb,
                tactic_timeout_s=self.settings.coq_tactic_timeout_s,
            )
            self._header = header
        self._session.ensure_started()
        return self._session

    def _fresh_name(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}_{self._counter}"

    def _abort_open(self, session: CoqtopSession) -> None:
        if self._open:
            session.execute("Abort All.", 30.0)
            self._open = False

    def _close_if_poisoned(self, session: CoqtopSession, reply: Reply) -> None:
        """After "Out of memory" or an anomaly the process limps on but cannot be trusted: the next
        request starts a fresh one."""
        if any(classify_error(e) is FailureKind.CRASH for e in reply.errors):
            session.close()
            self._open = False

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
        self._session, self._header, self._open = None, None, False

    @property
    def restarts(self) -> int:
        return self._session.restarts if self._session else 0

    def loaded_modules(self, theorem: Theorem, modules: tuple[str, ...]) -> frozenset[str]:
        """Which of ``modules`` the theorem's header (plus prelude) loads: ``Locate Module``."""
        key = (f"{theorem.header}\n{self.prelude}", modules)
        if key not in self._loaded:
            session = self._session_for(theorem)
            self._abort_open(session)
            found = set()
            for module in modules:
                reply = session.execute(f"Locate Module {module}.", 30.0)
                if reply.text.strip().startswith("Module"):
                    found.add(module)
            self._loaded[key] = frozenset(found)
        return self._loaded[key]

    # -- phase 1: whole proofs -------------------------------------------------------------
    def check_batch(self, theorem: Theorem, proofs: list[str]) -> list[Attempt]:
        return [self._check_one(theorem, proof) for proof in proofs]

    def _check_one(self, theorem: Theorem, proof: str) -> Attempt:
        reason = forbidden_reason(proof)
        if reason is not None:
            return Attempt(proof, Signals.failed(FailureKind.FORBIDDEN, reason))
        name = self._fresh_name("vs_cand")
        text = f"{rename_theorem(theorem.statement, name)}\nProof.\n{proof.strip()}\nQed."
        started = time.monotonic()
        try:
            session = self._session_for(theorem)
            self._abort_open(session)
            self.calls += 1
            reply = session.execute(text, self.candidate_timeout_s)
            self._close_if_poisoned(session, reply)
            if session.alive and reply.in_proof:
                session.execute("Abort All.", 30.0)
        except CoqCrashed as exc:
            kind = crash_kind(str(exc))
            return Attempt(proof, Signals.failed(kind, str(exc)), time.monotonic() - started)
        return Attempt(proof, _whole_proof_signals(reply), time.monotonic() - started)

    # -- phase 2: tactic steps -------------------------------------------------------------
    def open_proof(self, theorem: Theorem) -> OpenGoal:
        session = self._session_for(theorem)
        self._abort_open(session)
        name = self._fresh_name("vs_node")
        self.calls += 1
        reply = session.execute(f"{rename_theorem(theorem.statement, name)}\nProof.", 60.0)
        if reply.errors or not reply.in_proof:
            raise CoqCrashed(f"statement does not open a proof: {reply.errors[:1]}")
        self._open = True
        self._root_state, self._line = reply.state, []
        goals_text = reply.chunks[0]
        return OpenGoal(reply.state, goals_text, count_goals(goals_text) or 1)

    def apply(self, theorem: Theorem, path: list[str], tactic: str, goals_before: int) -> Attempt:
        """Run one tactic after the tactics of ``path`` (from the open proof's root).

        Coq's document is linear: ``BackTo`` is an undo that discards every later state, so a
        tree node is addressed by its path, not by a state number. The backend keeps the current
        line of states, goes back to the longest common prefix and replays the rest, which costs
        nothing when a batch expands one node (the common case).
        """
        reason = forbidden_reason(tactic)
        if reason is None and len(split_sentences(tactic)) != 1:
            reason = "a tactic step must be exactly one sentence"
        if reason is not None:
            return Attempt(tactic, Signals.failed(FailureKind.FORBIDDEN, reason, goals_before))
        started = time.monotonic()
        try:
            session = self._at_path(theorem, path)
            self.calls += 1
            reply = session.execute(tactic, self.settings.coq_tactic_timeout_s + 5.0)
        except CoqCrashed as exc:
            self._open = False
            kind = crash_kind(str(exc))
            signals = Signals.failed(kind, str(exc), goals_before)
            return Attempt(tactic, signals, time.monotonic() - started)
        self._close_if_poisoned(session, reply)
        signals = _step_signals(reply, goals_before, session)
        if signals.ok:
            self._line.append((tactic, reply.state))
        return Attempt(tactic, signals, time.monotonic() - started, state=reply.state)

    def _at_path(self, theorem: Theorem, path: list[str]) -> CoqtopSession:
        if not self._open:  # the session restarted: re-open the proof, then replay
            self.open_proof(theorem)
        session = self._session_for(theorem)
        common = 0
        while common < min(len(path), len(self._line)) and self._line[common][0] == path[common]:
            common += 1
        del self._line[common:]
        session.back_to(self._line[-1][1] if self._line else self._root_state)
        for tactic in path[common:]:
            self.calls += 1
            reply = session.execute(tactic, self.settings.coq_tactic_timeout_s + 5.0)
            if reply.errors:  # a replayed step failed this time (a timeout under load)
                raise CoqCrashed(f"replaying {tactic!r} failed: {reply.errors[0][:200]}")
            self._line.append((tactic, reply.state))
        return session

    def confirm(self, theorem: Theorem, proof: str) -> StrictVerdict:
        self.calls += 1
        # The same imports the session had, so a proof found there means the same thing here;
        # the statement itself is elaborated with the theorem's header alone.
        return confirm(
            theorem,
            proof,
            timeout_s=self.confirm_timeout_s,
            memory_mb=self.settings.coq_memory_mb,
            prelude=self.prelude,
            data_dir=self.settings.data_dir,
        )


def _whole_proof_signals(reply: Reply) -> Signals:
    before = count_goals(reply.chunks[0]) if reply.chunks else None
    if reply.errors:
        first = reply.errors[0]
        kind = classify_error(first)
        signals = Signals.failed(kind, first, before)
        # The goals left by the last tactic before Qed: partial progress is still a signal.
        if len(reply.chunks) >= 2 and kind is FailureKind.INCOMPLETE:
            signals.goals_after = count_goals(reply.chunks[-2])
            signals.goals_text = reply.chunks[-2].strip()[:2000]
        return signals
    complete = not reply.in_proof
    return Signals(True, True, before, 0 if complete else None, complete)


def _step_signals(reply: Reply, goals_before: int, session: CoqtopSession) -> Signals:
    if reply.errors:
        return Signals.failed(classify_error(reply.errors[0]), reply.errors[0], goals_before)
    goals_text = reply.last_output.strip()
    after = count_goals(goals_text)
    if "gave up" in goals_text:
        return Signals.failed(FailureKind.GIVEN_UP, goals_text, goals_before)
    if after is None and "No more goals" not in goals_text:
        after = goals_before  # e.g. a bullet focusing: nothing printed that we can count
    return Signals(True, True, goals_before, after, False, goals_text=goals_text[:4000])
