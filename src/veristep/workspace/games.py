"""The learner does the next step: exercises from a derivation, distractors, grading, scores.

An :class:`Exercise` shows one state of a derivation and asks for the next. The learner either
types a state — graded by the cascade as *right* (the expected step), *right but different*
(another step the cascade grounds or verifies), *incomplete* (a solution is lost), *wrong*
(refuted, with its witness as feedback) or *undecided* (the cascade could not decide: never
counted as right) — or picks among choices:
the expected step and distractors from the mistake families (``mistakes``). A candidate becomes
a distractor only when the cascade decides it is a wrong move: refuted (✗, its witness shown when
it is chosen) or losing a solution in the unknown (🔹, "incomplete", the lost value named). A
candidate graded verified or better is a correct move and is never offered as a wrong one, nor is
one the cascade could not decide.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.tiers import Relation, Tier
from veristep.core.verdicts import StepVerdict
from veristep.grounding.decision import Context
from veristep.grounding.states import State, parse_state


@dataclass
class Choice:
    latex: str
    correct: bool
    family: str | None = None  # the mistake family of a distractor
    tier: str | None = None
    reason: str = ""
    witness: Any = None


@dataclass
class Exercise:
    state: str  # what the learner sees
    expected: str  # the derivation's next state
    operation: str | None
    choices: list[Choice] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)  # candidates not refuted
    step: int | None = None  # the derivation's step this exercise asks for (from 1)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Exercise:
        choices = [Choice(**c) for c in data.get("choices") or []]
        return cls(data["state"], data["expected"], data.get("operation"), choices,
                   list(data.get("rejected") or []), data.get("step"))  # fmt: skip


class Outcome(StrEnum):
    """How an answer fared (str-valued: the page's JSON keeps these words)."""

    RIGHT = "right"
    RIGHT_BUT_DIFFERENT = "right-but-different"  # correct, but not the expected line
    INCOMPLETE = "incomplete"  # a solution lost
    WRONG = "wrong"
    UNDECIDED = "undecided"  # no check could decide: nothing is scored
    UNREADABLE = "unreadable"  # not an answer yet: asked again


@dataclass(frozen=True)
class Feedback:
    outcome: Outcome
    tier: str
    reason: str
    witness: Any = None

    @property
    def counts(self) -> bool:
        return self.outcome in (Outcome.RIGHT, Outcome.RIGHT_BUT_DIFFERENT)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "counts": self.counts}


def next_step_exercise(
    prev: str,
    nxt: str,
    operation: str | None = None,
    settings: Settings | None = None,
    *,
    distractors: int = 3,
    seed: int = 0,
) -> Exercise:
    """The exercise "what follows ``prev``?" whose answer is ``nxt``, with graded distractors."""
    settings = settings or Settings()
    ctx = Context(settings=settings)
    a, b = _parse(prev, settings), _parse(nxt, settings)
    exercise = Exercise(prev, nxt, operation, [Choice(nxt, True, tier="expected")])
    wrong: list[Choice] = []
    incomplete: list[Choice] = []
    candidates = _candidates(a, b, settings)
    for (family, latex), verdict in zip(candidates, _judge_all(a, candidates, ctx), strict=True):
        choice = Choice(latex, False, family, verdict.tier.name_lower, verdict.reason,
                        verdict.witness)  # fmt: skip
        if verdict.tier is Tier.REFUTED:
            wrong.append(choice)
        elif _loses_a_solution(verdict):
            incomplete.append(choice)
        else:
            exercise.rejected.append({"family": family, "latex": latex,
                                      "tier": verdict.tier.name_lower,
                                      "relation": verdict.relation.value})  # fmt: skip
    # Refuted moves first: their witness is a value to substitute; a lost root's is the value
    # that a correct step keeps.
    exercise.choices += (wrong + incomplete)[:distractors]
    random.Random(seed).shuffle(exercise.choices)
    return exercise


def _loses_a_solution(verdict: StepVerdict) -> bool:
    """A move the cascade decided loses a solution in the unknown (🔹, the lost value named):
    wrong as a next step, shown as incomplete — never a move that only assumes a ≠ 0."""
    return verdict.relation is Relation.NARROWS and verdict.tier is Tier.PLAUSIBLE


def exercises_from_derivation(
    derivation: dict[str, Any], settings: Settings | None = None, **kwargs: Any
) -> list[Exercise]:
    """One exercise per step of a judged derivation JSON whose step is grounded or verified."""
    return [
        exercise_for_step(derivation, k, settings, **kwargs) for k in exercise_steps(derivation)
    ]


def exercise_steps(derivation: dict[str, Any]) -> list[int]:
    """The steps worth practising: those the verifier graded grounded or verified (cheap: no
    exercise is built, so a page can list them at once and build each when it is needed)."""
    states = derivation.get("states") or []
    return [
        int(step["index"])
        for step in derivation.get("steps") or []
        if step.get("tier") in ("grounded", "verified") and 0 < int(step["index"]) < len(states)
    ]


def exercise_for_step(
    derivation: dict[str, Any], k: int, settings: Settings | None = None, **kwargs: Any
) -> Exercise:
    """The exercise of step ``k`` of a judged derivation (one of :func:`exercise_steps`)."""
    if k not in exercise_steps(derivation):
        raise InputError(f"step {k} is not one to practise (a graded step of this derivation)")
    states = [s["latex"] for s in derivation["states"]]
    step = next(s for s in derivation["steps"] if int(s["index"]) == k)
    ex = next_step_exercise(states[k - 1], states[k], step.get("operation"), settings,
                            seed=k, **kwargs)  # fmt: skip
    ex.step = k
    return ex


def grade_answer(exercise: Exercise, answer: str, settings: Settings | None = None) -> Feedback:
    """Grade a typed next state with the cascade (never by comparing strings alone)."""
    settings = settings or Settings()
    a = _parse(exercise.state, settings)
    typed = parse_state(answer, settings)
    if typed.graph is None:
        # Not an answer yet: the learner is asked again, and nothing is scored.
        return Feedback(Outcome.UNREADABLE, "unchecked", f"that could not be read: {typed.error}")
    verdict = _judge(a, answer, Context(settings=settings))
    tier = verdict.tier.name_lower
    if verdict.tier is Tier.REFUTED:
        return Feedback(Outcome.WRONG, tier, verdict.reason, verdict.witness)
    if verdict.relation is Relation.NARROWS:
        return Feedback(Outcome.INCOMPLETE, tier, verdict.reason, verdict.witness)
    if verdict.tier < Tier.VERIFIED:
        return Feedback(Outcome.UNDECIDED, tier, verdict.reason, verdict.witness)
    mine, expected = parse_state(answer, settings), parse_state(exercise.expected, settings)
    same = mine.graph is not None and expected.graph is not None
    same = same and _canonical(mine.graph.root) == _canonical(expected.graph.root)
    outcome = Outcome.RIGHT if same else Outcome.RIGHT_BUT_DIFFERENT
    return Feedback(outcome, tier, verdict.reason)


def _canonical(node: Any) -> tuple[Any, ...]:
    """A signature equal for graphs that differ only in the order of commutative operands."""
    kids = [_canonical(c) for c in node.children]
    if node.commutative:
        kids.sort(key=repr)
    return (node.label, tuple(kids))


def choose(exercise: Exercise, index: int) -> Feedback:
    """The feedback for picking choice ``index``: its stored verdict, witness included."""
    if not 0 <= index < len(exercise.choices):
        raise InputError(f"no choice {index}; there are {len(exercise.choices)}")
    choice = exercise.choices[index]
    if choice.correct:
        return Feedback(Outcome.RIGHT, "expected", "this is the derivation's next step")
    outcome = Outcome.INCOMPLETE if choice.tier == "plausible" else Outcome.WRONG
    return Feedback(outcome, choice.tier or "refuted", choice.reason, choice.witness)


@dataclass
class Score:
    """Points and streak of one page; the browser keeps its own copy in local storage."""

    points: int = 0
    streak: int = 0
    best: int = 0
    answered: int = 0

    def record(self, feedback: Feedback) -> Score:
        right = feedback.counts
        streak = self.streak + 1 if right else 0
        return Score(self.points + (1 + min(streak, 5) if right else 0), streak,
                     max(self.best, streak), self.answered + 1)  # fmt: skip


def _parse(latex: str, settings: Settings) -> State:
    state = parse_state(latex, settings)
    if state.error is not None:
        raise InputError(f"the exercise state could not be read: {state.error}")
    return state


def _judge(prev: State, latex: str, ctx: Context) -> StepVerdict:
    from veristep.grounding.chain import judge_transition

    return judge_transition(prev, latex, None, ctx)


def _judge_all(prev: State, candidates: list[tuple[str, str]], ctx: Context) -> list[StepVerdict]:
    """Every candidate judged from ``prev``, two at a time (the CAS pool has two workers per
    lane); each thread keeps the caller's context, so a request's calls stay in its lane."""
    import contextvars
    from concurrent.futures import ThreadPoolExecutor

    if len(candidates) < 2:
        return [_judge(prev, latex, ctx) for _, latex in candidates]
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="veristep-distractor") as pool:
        jobs = [pool.submit(contextvars.copy_context().run, _judge, prev, latex, ctx)
                for _, latex in candidates]  # fmt: skip
        return [job.result() for job in jobs]


def _candidates(a: State, b: State, settings: Settings) -> list[tuple[str, str]]:
    from veristep.core.pool import run_cas
    from veristep.workspace.mistakes import candidates

    result = run_cas(candidates, a.expr, b.expr, settings=settings,
                     timeout_s=settings.step_timeout_s)  # fmt: skip
    return list(result.value) if result.ok else []
