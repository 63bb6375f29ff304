"""Hybrid proposer: the language model drafts, the symbolic planner bridges its weak steps.

Every LLM step is judged on its own; where one is only plausible or unchecked (not refuted — a
refuted step is wrong, and bridging to a wrong state would only hide it), the planner searches from
the previous state to that step's state with a short budget. When it reaches it, its smaller
grounded moves replace the step and the draft records which steps were bridged; otherwise the
model's step stays, and the grounding verdict says what it is. When the model gives no usable step
at all (server down, unreadable reply), the planner writes the whole derivation offline.
"""

from __future__ import annotations

from veristep.core.settings import Settings
from veristep.core.tiers import Tier
from veristep.propose.protocol import Draft, Feedback, ProposedStep, Proposer

_BRIDGE_BUDGET_S = 5.0
_BRIDGE_TRIES = 3


class HybridProposer:
    kind = "hybrid"

    def __init__(self, llm: Proposer, settings: Settings) -> None:
        self.llm = llm
        self.model = getattr(llm, "model", None)
        self.settings = settings
        self._planner: Proposer | None = None

    def propose(
        self, start: str, target: str, domain: str = "auto", feedback: Feedback | None = None
    ) -> Draft:
        draft = self.llm.propose(start, target, domain, feedback)
        if not draft.steps:
            return self._planner_instead(start, target, domain, feedback, draft)
        steps: list[ProposedStep] = []
        bridged: list[int] = []
        previous = start
        for step in draft.steps:
            bridge = self._bridge(previous, step)
            if bridge:
                first = len(steps) + 1
                steps.extend(bridge)
                bridged.extend(range(first, len(steps) + 1))
            else:
                steps.append(step)
            previous = step.expr_latex
        note = draft.note
        if bridged:
            note += f"; the symbolic planner bridged steps {', '.join(map(str, bridged))}"
        return Draft(steps, self.kind, self.model, note, draft.usage, bridged)

    def _planner_instead(
        self, start: str, target: str, domain: str, feedback: Feedback | None, failed: Draft
    ) -> Draft:
        """The model gave nothing usable: the offline planner writes the whole derivation."""
        if self._planner is None:
            from veristep.propose.symbolic.proposer import SymbolicProposer

            self._planner = SymbolicProposer(self.settings)  # one instance: bans last retries
        planned = self._planner.propose(start, target, domain, feedback)
        note = f"{failed.note}; the offline symbolic planner wrote the derivation instead"
        if planned.note:
            note += f" ({planned.note})"
        return Draft(planned.steps, self.kind, self.model, note, failed.usage, meta=planned.meta)

    def _bridge(self, previous: str, step: ProposedStep) -> list[ProposedStep] | None:
        from veristep.grounding import judge_transition

        verdict = judge_transition(previous, step.expr_latex, step.change_type or None,
                                   _context(self.settings))  # fmt: skip
        if verdict.tier not in (Tier.PLAUSIBLE, Tier.UNCHECKED):
            return None
        return bridge_steps(previous, step.expr_latex, self.settings)


def _context(settings: Settings):
    from veristep.grounding import Context

    return Context(settings=settings)


def bridge_steps(previous: str, nxt: str, settings: Settings) -> list[ProposedStep] | None:
    """The planner's moves from ``previous`` to ``nxt`` when every one of them grounds, else None.

    A bridge move that does not ground is banned where it was tried and the planner searches
    again, a few times at most, exactly as the symbolic proposer does between attempts.
    """
    from veristep.core.errors import InputError
    from veristep.core.pool import run_cas
    from veristep.propose.symbolic.planner import plan
    from veristep.propose.symbolic.proposer import latex_to_sympy

    try:
        a, b = latex_to_sympy(previous, settings), latex_to_sympy(nxt, settings)
    except InputError:
        return None  # an unreadable state cannot be bridged; grounding will report it
    banned: set[tuple[str, str]] = set()
    for _ in range(_BRIDGE_TRIES):
        result = run_cas(plan, a, b, settings=settings, timeout_s=_BRIDGE_BUDGET_S + 1.0,
                         target_latex=nxt, banned=frozenset(banned),
                         budget_s=_BRIDGE_BUDGET_S)  # fmt: skip
        if result.status != "ok" or not result.value.reached or not result.value.steps:
            return None
        weak = _weak_steps(previous, result.value.steps, settings)
        if not weak:
            return [
                ProposedStep(
                    s.operation,
                    s.latex,
                    s.justification + " (bridged by the planner)",
                    s.change_type,
                )
                for s in result.value.steps
            ]
        banned |= {(s.from_key, s.name) for s in weak}
    return None


def _weak_steps(previous: str, steps: list, settings: Settings) -> list:
    from veristep.grounding import judge_transition

    weak, prev = [], previous
    for s in steps:
        verdict = judge_transition(prev, s.latex, s.change_type, _context(settings))
        if verdict.tier < Tier.VERIFIED:
            weak.append(s)
        prev = s.latex
    return weak
