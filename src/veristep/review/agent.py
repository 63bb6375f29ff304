"""The review agent: an OPEN/VERIFIED/FLAWED state machine over the steps of one proof.

One iteration elaborates one OPEN step. The loop stops with

- **accepted** when every step (and every sub-step it spawned) is VERIFIED;
- **rejected** when a flaw is confirmed — by a checker's witness, or by the adversarial referee;
- **undecided** after ``idle_limit`` consecutive iterations without progress, or when no model is
  configured and some step is still OPEN, or — reason "model unavailable" — when the model
  endpoint cannot be reached (resuming the saved trace continues from there).

Progress means a step reached VERIFIED or a confirmed FLAWED, or a ledger claim was settled.
Splitting a step into sub-steps, a malformed reply, or a flaw the referee sends back to OPEN are
*not* progress, so splitting forever exhausts the budget instead of looping.

Tiers: a step the machine grounded is ``grounded``; a step verified by a model's elaboration is at
most ``plausible`` ("model-checked"); a confirmed flaw is ``refuted``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.review import ledger as ledger_ops
from veristep.review.calls import ModelUnavailable
from veristep.review.context import Domain, read_declarations
from veristep.review.definitions import read_definitions
from veristep.review.identity_claims import constrained_letters
from veristep.review.machine import (
    LinkCheck,
    LinkGrounder,
    MachineOutcome,
    StandingMemory,
    machine_check,
    with_checks,
)
from veristep.review.standing import read_standing
from veristep.review.trace import (
    FLAW_KINDS,
    Elaboration,
    Flaw,
    LedgerEntry,
    ReviewTrace,
    State,
    StepRecord,
)

# Checks whose witness is a counterexample to a stated claim: no convention makes it true.
_COUNTEREXAMPLES = ("small_cases", "standing_hypotheses")

ACCEPTED, REJECTED, UNDECIDED = "accepted", "rejected", "undecided"
UNAVAILABLE = "model unavailable"
PROOF_CONTEXT_CHARS = 24_000


@dataclass(frozen=True)
class ReviewBudget:
    idle_limit: int = 5  # consecutive iterations without progress (the method's stopping rule)
    max_iterations: int | None = None  # None: 3 per top-level step + 20
    max_depth: int = 2  # sub-steps of sub-steps, no deeper
    max_children: int = 4  # sub-steps one elaboration may split off


class ReviewAgent:
    """Runs the state machine on a :class:`ReviewTrace`; ``caller`` is None when no model is set."""

    def __init__(
        self,
        trace: ReviewTrace,
        caller: Any | None,
        programs: dict[str, Any] | None,
        settings: Settings | None = None,
        budget: ReviewBudget | None = None,
        grounder: LinkGrounder | None = None,
        checkpoint: Path | None = None,
        on_iteration: Callable[[ReviewTrace], None] | None = None,
        on_step: Callable[[StepRecord], None] | None = None,
    ) -> None:
        self.trace = trace
        self.caller = caller
        self.programs = programs or {}
        self.settings = settings or Settings()
        self.budget = budget or ReviewBudget()
        self.grounder = grounder
        self.checkpoint = checkpoint
        self.on_iteration = on_iteration
        # Hears each step the moment the machine pass has judged it (the web streams findings).
        self.on_step = on_step
        self.contexts: dict[str, dict[str, Domain]] = {}
        # Letters a hypothesis or an earlier relation is about, per step (review.identity_claims).
        self.in_force: dict[str, set[str]] = {}
        # Checks of inequalities about the problem's letters, made in proof order (review.standing).
        self.standing_checks: dict[str, list[LinkCheck]] = {}

    # -- the loop -------------------------------------------------------------------------------

    def run(self) -> ReviewTrace:
        if self.trace.reason.startswith(UNAVAILABLE):
            self.trace.verdict, self.trace.reason = None, ""  # resumed: try the model again
        try:
            self._machine_pass()  # the referee of a machine flaw may call the model already
            self._loop()
        except ModelUnavailable as exc:
            # Not the proof's fault: stop at once with a verdict that says so, never "exhausted".
            self._finish(UNDECIDED, f"{UNAVAILABLE}: {exc}")
        self._save()
        return self.trace

    def _loop(self) -> None:
        while self.trace.verdict is None:
            if self._stop():
                break
            step = self._next_open()
            if step is None:
                self._finish(UNDECIDED, "no OPEN step can be worked on (all wait on sub-steps)")
                break
            progress = self._iterate(step)
            progress |= self._settle()
            self.trace.iterations += 1
            self.trace.idle = 0 if progress else self.trace.idle + 1
            self._save()
            if self.on_iteration:
                self.on_iteration(self.trace)

    def _stop(self) -> bool:
        steps = self.trace.steps.values()
        confirmed = [s for s in steps if s.state is State.FLAWED and s.flaw and s.flaw.confirmed]
        top = [s for s in confirmed if s.parent is None]
        if top:
            first = top[0]
            self._finish(
                REJECTED,
                f"confirmed flaw in {first.id} ({first.location}): "
                f"{first.flaw.kind} — {first.flaw.witness}",
            )
        elif all(s.state is State.VERIFIED for s in steps):
            self._finish(ACCEPTED, "every step VERIFIED")
        elif self.caller is None:
            n = sum(1 for s in steps if s.state is State.OPEN)
            self._finish(UNDECIDED, f"no model configured: {n} step(s) left OPEN")
        elif self.trace.idle >= self.budget.idle_limit:
            self._finish(UNDECIDED, f"exhausted: {self.trace.idle} iterations without progress")
        elif self.trace.iterations >= self._iteration_limit():
            self._finish(UNDECIDED, f"iteration budget ({self._iteration_limit()}) spent")
        return self.trace.verdict is not None

    def _iteration_limit(self) -> int:
        return self.budget.max_iterations or 3 * len(self.trace.order) + 20

    def _finish(self, verdict: str, reason: str) -> None:
        self.trace.verdict, self.trace.reason = verdict, reason
        self.trace.events.append(f"stop: {verdict} — {reason}")

    def _save(self) -> None:
        if self.checkpoint is not None:
            self.trace.save(self.checkpoint)

    # -- machine checks first -------------------------------------------------------------------

    def _machine_pass(self) -> None:
        """Ground every step, each in the context (declared letters) of the problem and the
        steps before it; a sub-step later inherits its parent's context."""
        context = dict(read_declarations(self.trace.problem))
        standing = StandingMemory(read_standing(self.trace.problem))
        in_force = constrained_letters(self.trace.problem)
        for sid in self.trace.order:
            self.contexts[sid] = dict(context)
            text = self.trace.steps[sid].text
            self.in_force[sid] = set(in_force)
            in_force |= constrained_letters(text)
            # Every step is read in order, even one already checked: its assumptions still count.
            self.standing_checks[sid] = standing.checks(text, self.settings)
            for letter, domain in read_declarations(text).items():
                context[letter] = context[letter].merged(domain) if letter in context else domain
        for step in self.trace.steps.values():
            if step.machine is None and step.state is State.OPEN:
                self._ground(step)
            if self.on_step is not None:
                self.on_step(step)

    def _ground(self, step: StepRecord) -> None:
        top = step
        while top.parent is not None:
            top = self.trace.steps[top.parent]
        context = self.contexts.get(top.id)
        definitions = read_definitions(self.trace.problem)
        in_force = self.in_force.get(top.id)
        if in_force is not None and top is not step:  # an elaboration: its parent's relations too
            in_force = in_force | constrained_letters(top.text)
        result = machine_check(
            step.text, self.settings, self.grounder, context, definitions, in_force
        )
        result = with_checks(result, self.standing_checks.get(step.id, []))
        step.machine = result
        if result.outcome == MachineOutcome.GROUNDED:
            step.state, step.tier = State.VERIFIED, Tier.GROUNDED
            step.note = "every computation grounded by a checker"
            self._event(f"{step.id}: VERIFIED by the machine (grounded)")
        elif result.outcome == MachineOutcome.REFUTED:
            kinds = {c.check for c in result.checks if c.witness}
            counterexample = bool(kinds & set(_COUNTEREXAMPLES))
            admitted = "admitted_gap" in kinds
            step.state, step.tier = State.FLAWED, Tier.REFUTED
            step.flaw = Flaw(
                "unjustified_gap"
                if admitted
                else ("false_statement" if counterexample else "computational_error"),
                result.witness or "",
                "machine",
                True,
                "a gap the proof admits is not a convention"
                if admitted
                else (
                    "a counterexample to a stated claim is not a convention"
                    if counterexample
                    else "a checker's witness"
                ),
            )
            self._event(f"{step.id}: FLAWED by the machine — {result.witness}")
            if not (counterexample or admitted) and step.parent is None and self.caller is not None:
                self._referee_convention(step)

    def _referee_convention(self, step: StepRecord) -> None:
        """A false computation may be true under a convention the proof uses (base 5, degrees):
        the referee may send it back to OPEN by naming that convention, and only that way."""
        assert step.flaw is not None
        reply = self.caller(
            "confirm",
            self.programs["confirm"],
            step.id,
            problem=self.trace.problem or "(stated in the proof)",
            proof=self._proof_text(step),
            step=step.text,
            flaw_kind=step.flaw.kind,
            flaw_witness=step.flaw.witness,
            derivation=[c.witness for c in step.machine.checks if c.witness],
        )
        convention = str(getattr(reply, "convention", "") or "").strip() if reply else ""
        if reply is not None and str(reply.classification) == "epistemic_ambiguity" and convention:
            step.state, step.flaw, step.tier = State.OPEN, None, Tier.UNCHECKED
            step.conventions.append(convention)
            self._event(f"{step.id}: machine flaw read under a convention ({convention}); OPEN")
            return
        if reply is not None and str(reply.explanation or "").strip():
            step.flaw.confirmation = str(reply.explanation)

    # -- one iteration --------------------------------------------------------------------------

    def _next_open(self) -> StepRecord | None:
        """The OPEN step tried least often; sub-steps before the steps that wait on them."""
        ready = [
            s for s in self.trace.steps.values() if s.state is State.OPEN and not self._waiting(s)
        ]
        if not ready:
            return None
        order = {sid: i for i, sid in enumerate(self.trace.steps)}
        return min(ready, key=lambda s: (s.attempts, -s.depth, order[s.id]))

    def _waiting(self, step: StepRecord) -> bool:
        children_open = any(self.trace.steps[c].state is State.OPEN for c in step.children)
        return children_open or bool(step.blocked_on)

    def _iterate(self, step: StepRecord) -> bool:
        step.attempts += 1
        failed = [
            self.trace.steps[c] for c in step.children if self.trace.steps[c].state is State.FLAWED
        ]
        if failed and step.elaborations:
            return self._inherit_flaw(step, failed[0])
        reply = self.caller(
            "elaborate",
            self.programs["elaborate"],
            step.id,
            problem=self.trace.problem or "(stated in the proof)",
            proof=self._proof_text(step),
            step_id=step.id,
            step=step.text,
            known=self._known(step),
        )
        if reply is None:
            self._event(f"{step.id}: malformed or failed model reply; stays OPEN")
            return False
        elaboration = self._record_elaboration(step, reply)
        if elaboration is None:
            return False
        if elaboration.verdict == "flawed":
            return self._preliminary_flaw(
                step, str(reply.flaw_kind), str(reply.flaw_witness or ""), elaboration
            )
        if elaboration.verdict == "verified":
            return self._accept(step, elaboration)
        self._split(step, elaboration.substeps)
        return False

    def _record_elaboration(self, step: StepRecord, reply: Any) -> Elaboration | None:
        derivation = [str(x) for x in (reply.derivation or [])]
        # Computations inside the elaboration are grounded too: a false one voids it.
        checked = [machine_check(line, self.settings, self.grounder) for line in derivation]
        refuted = [r for r in checked if r.outcome == MachineOutcome.REFUTED]
        entries = [
            ledger_ops.register(self.trace, c.claim, c.citation, step.id)
            for c in (reply.external or [])
        ]
        elaboration = Elaboration(
            derivation=derivation,
            local_context=[str(x) for x in (reply.local_context or [])],
            external=[e.id for e in entries],
            background=[str(x) for x in (reply.background or [])],
            verdict=str(reply.verdict),
            substeps=[str(x) for x in (reply.substeps or [])],
            grounded=[c.latex for r in checked for c in r.checks if c.tier is Tier.GROUNDED],
        )
        step.elaborations.append(elaboration)
        if refuted and elaboration.verdict == "verified":
            # The model's own derivation contains a false computation: it proves nothing.
            self._event(f"{step.id}: elaboration rejected — {refuted[0].witness}")
            return None
        return elaboration

    def _accept(self, step: StepRecord, elaboration: Elaboration) -> bool:
        cited_flawed = [
            c
            for c in elaboration.local_context
            if c in self.trace.steps and self.trace.steps[c].state is State.FLAWED
        ]
        if cited_flawed:
            self._event(f"{step.id}: cannot rest on FLAWED {', '.join(cited_flawed)}; stays OPEN")
            return False
        progress = False
        for entry_id in elaboration.external:
            progress |= ledger_ops.settle(
                self.trace, entry_id, self._cite, self.add_substep, self.budget.max_depth
            )
        # Downstream blocking: a step resting on a step that waits for a ledger claim waits too.
        inherited = [
            e
            for c in elaboration.local_context
            if c in self.trace.steps
            for e in self.trace.steps[c].blocked_on
        ]
        step.blocked_on = [
            e
            for e in dict.fromkeys([*elaboration.external, *inherited])
            if self.trace.ledger[e].status is not ledger_ops.ClaimStatus.SUPPORTED
        ]
        false = [
            e
            for e in step.blocked_on
            if self.trace.ledger[e].status is ledger_ops.ClaimStatus.FALSE
        ]
        if false:
            entry = self.trace.ledger[false[0]]
            step.blocked_on = []
            return (
                self._preliminary_flaw(
                    step,
                    "misapplied_theorem",
                    f"relies on {entry.id} ({entry.claim}), which is false: {entry.note}",
                    elaboration,
                )
                or progress
            )
        if step.blocked_on:
            self._event(
                f"{step.id}: elaboration closed but waits on ledger {', '.join(step.blocked_on)}"
            )
            return progress
        self._verify(step)
        return True

    def _verify(self, step: StepRecord) -> None:
        step.state = State.VERIFIED
        children = [self.trace.steps[c].tier for c in step.children]
        machine = (
            Tier.GROUNDED
            if step.machine and step.machine.outcome == MachineOutcome.GROUNDED
            else None
        )
        # Model-only evidence is never more than plausible, whatever the sub-steps reached.
        step.tier = min([Tier.PLAUSIBLE, *children]) if machine is None else machine
        step.note = "model-checked elaboration"
        self._event(f"{step.id}: VERIFIED (model-checked, tier {step.tier})")

    def _preliminary_flaw(
        self, step: StepRecord, kind: str, witness: str, elaboration: Elaboration
    ) -> bool:
        if kind not in FLAW_KINDS or not witness.strip():
            self._event(f"{step.id}: 'flawed' without a named kind and witness is ignored")
            return False
        step.state, step.flaw = State.FLAWED, Flaw(kind, witness.strip(), "model")
        try:
            reply = self.caller(
                "confirm",
                self.programs["confirm"],
                step.id,
                problem=self.trace.problem or "(stated in the proof)",
                proof=self._proof_text(step),
                step=step.text,
                flaw_kind=kind,
                flaw_witness=witness,
                derivation=elaboration.derivation,
            )
        except ModelUnavailable:
            step.state, step.flaw = State.OPEN, None  # unconfirmed: a resumed run asks again
            raise
        verdict = str(reply.classification) if reply is not None else "unparsed"
        if verdict == "logical_breakdown":
            step.flaw.confirmed, step.flaw.confirmation = True, str(reply.explanation or "")
            step.tier = Tier.REFUTED
            self._event(f"{step.id}: FLAWED confirmed ({kind}) — {witness}")
            return True
        step.state, step.flaw = State.OPEN, None
        if verdict == "epistemic_ambiguity" and str(reply.convention or "").strip():
            convention = str(reply.convention).strip()
            step.conventions.append(convention)
            self._event(f"{step.id}: apparent flaw is a convention ({convention}); back to OPEN")
        else:
            self._event(f"{step.id}: flaw not confirmed ({verdict}); back to OPEN")
        return False

    def _inherit_flaw(self, step: StepRecord, child: StepRecord) -> bool:
        """A confirmed flaw in a sub-step is a preliminary flaw of its parent, for the referee."""
        assert child.flaw is not None
        witness = f"sub-step {child.id} fails: {child.flaw.witness}"
        if self._preliminary_flaw(step, child.flaw.kind, witness, step.elaborations[-1]):
            return True
        # The referee saw no breakdown: the sub-step was the elaboration's mistake, drop it.
        step.children.remove(child.id)
        del self.trace.steps[child.id]
        self._event(f"{step.id}: sub-step {child.id} discarded after the referee's review")
        return False

    def _split(self, step: StepRecord, substeps: list[str]) -> None:
        if step.depth >= self.budget.max_depth or not substeps:
            return
        for text in substeps[: self.budget.max_children]:
            self.add_substep(step, text)

    def _cite(self, entry: LedgerEntry) -> Any:
        """The cite role's reply on one ledger claim and its citation (None when malformed)."""
        return self.caller(
            "cite",
            self.programs["cite"],
            entry.used_by[-1],
            claim=entry.claim,
            citation=entry.citation,
        )

    def add_substep(self, parent: StepRecord, text: str) -> StepRecord:
        sid = f"{parent.id}.{len(parent.children) + 1}"
        child = StepRecord(sid, text, f"{parent.location} (sub-step)", parent.id, parent.depth + 1)
        self.trace.steps[sid] = child
        parent.children.append(sid)
        self._ground(child)
        self._event(f"{parent.id}: split off {sid}")
        return child

    def _settle(self) -> bool:
        """Promote steps whose ledger claims got support, and parents of verified sub-steps."""
        progress = ledger_ops.settle_subproofs(self.trace)
        for step in list(self.trace.steps.values()):
            if step.state is not State.OPEN or not step.blocked_on:
                continue
            statuses = [self.trace.ledger[e].status for e in step.blocked_on]
            if all(s is ledger_ops.ClaimStatus.SUPPORTED for s in statuses):
                step.blocked_on = []
                self._verify(step)
                progress = True
        return progress

    # -- what the roles see ---------------------------------------------------------------------

    def _proof_text(self, step: StepRecord) -> str:
        """The proof up to ``step`` (the local context Γ comes from there), abridged in the middle
        when very long so that a 600-step proof does not cost 600 full-length prompts."""
        top = step
        while top.parent is not None:
            top = self.trace.steps[top.parent]
        upto = self.trace.order[: self.trace.order.index(top.id) + 1]
        lines = [f"{sid}: {self.trace.steps[sid].text}" for sid in upto]
        if sum(len(x) for x in lines) <= PROOF_CONTEXT_CHARS:
            return "\n".join(lines)
        head, tail, size = lines[:5], [], sum(len(x) for x in lines[:5])
        for line in reversed(lines[5:]):
            if size + len(line) > PROOF_CONTEXT_CHARS:
                break
            tail.insert(0, line)
            size += len(line)
        skipped = len(lines) - len(head) - len(tail)
        return "\n".join([*head, f"… ({skipped} steps omitted) …", *tail])

    def _known(self, step: StepRecord) -> str:
        lines = []
        for other in self.trace.steps.values():
            if other.state is State.VERIFIED and other.id != step.id:
                lines.append(f"{other.id} is VERIFIED ({other.tier})")
            for check in other.machine.checks if other.machine else []:
                if check.tier is Tier.GROUNDED:
                    lines.append(f"machine-checked in {other.id}: {check.latex}")
        # A domain convention the referee accepted holds for the whole proof, not one step.
        lines += [
            f"convention accepted (raised at {s.id}): {c}"
            for s in self.trace.steps.values()
            for c in s.conventions
        ]
        lines += [
            f"sub-step {c.id} [{c.state.value}]: {c.text}"
            for c in self.trace.steps.values()
            if c.parent == step.id
        ]
        lines += [
            f"ledger {e.id} [{e.status.value}]: {e.claim} ({e.citation or 'no citation'})"
            for e in self.trace.ledger.values()
        ]
        return "\n".join(lines) or "nothing yet"

    def _event(self, text: str) -> None:
        self.trace.events.append(f"[{self.trace.iterations}] {text}")
