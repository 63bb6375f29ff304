"""``derive``: write a derivation from START to TARGET, ground every step, report the verdict.

The proposer writes LaTeX; the grounding engine judges it; the refine loop keeps the best draft.
The returned :class:`~veristep.core.verdicts.Derivation` is the JSON contract (docs/design.md), with
``proposer`` filled in: the kind, the model, the number of attempts, the usage and the record of
every attempt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.verdicts import Derivation, StepVerdict
from veristep.propose.protocol import Draft, Proposer
from veristep.propose.refine import Attempt, RefineLoop

PROPOSERS = ("symbolic", "llm", "hybrid")
DOMAINS = ("auto", "algebra", "calculus", "trigonometry", "sums")


def ground_draft(
    start: str,
    draft: Draft,
    target: str,
    settings: Settings,
    on_step: Callable[[StepVerdict, int], None] | None = None,
) -> Derivation:
    """Judge a draft with the grounding engine and attach the proposer's words to each step.

    An empty ``target`` (a goal-only task) leaves the endpoint to the caller's goal gate."""
    from veristep.grounding import check

    states = [start, *(s.expr_latex for s in draft.steps)]
    types = [s.change_type for s in draft.steps]
    derivation = check(states, types, target or None, settings, on_step=on_step, as_claim=False)
    for verdict, proposed in zip(derivation.steps, draft.steps, strict=False):
        verdict.operation = proposed.operation
        verdict.justification = proposed.justification
        verdict.change_type = proposed.change_type
        verdict.expr_latex = proposed.expr_latex
    return derivation


def make_proposer(kind: str, settings: Settings, model: str | None = None) -> Proposer:
    if kind == "symbolic":
        from veristep.propose.symbolic.proposer import SymbolicProposer

        return SymbolicProposer(settings)
    if kind in ("llm", "hybrid"):
        if not (model or settings.model):  # said before DSPy is even imported
            raise InputError(
                f"the {kind} proposer needs a model: pass --model or set VERISTEP_MODEL "
                "(e.g. hosted_vllm/<name> with VERISTEP_API_BASE for a local server)"
            )
        from veristep.propose.llm.proposer import LLMProposer

        llm = LLMProposer.from_settings(settings, model)
        if kind == "llm":
            return llm
        from veristep.propose.hybrid import HybridProposer

        return HybridProposer(llm, settings)
    raise InputError(f"unknown proposer {kind!r}; expected one of: {', '.join(PROPOSERS)}")


def derive(
    start: str,
    target: str | None = None,
    *,
    goal: str | None = None,
    settings: Settings | None = None,
    domain: str = "auto",
    proposer: str | Proposer = "symbolic",
    model: str | None = None,
    attempts: int | None = None,
    judge: bool | Callable[[Derivation], tuple[float, str]] = False,
    on_attempt: Callable[[Attempt], None] | None = None,
    on_step: Callable[[StepVerdict, int], None] | None = None,
) -> Derivation:
    """Derive ``target`` from ``start``; every step grounded, the best of ``attempts`` drafts kept.

    Without a target (or with task words before the maths: ``solve 2x+3=25``, ``factor x^3-1``)
    the planner works to the finished form of the ``goal`` and the derivation states the answer
    (``answer``); a given target that substitution shows wrong is answered with the right one
    (``endpoint.correction``). ``attempts`` defaults to 3 for the symbolic planner (a retry
    searches around the moves that did not ground) and 1 for a language model.
    """
    from veristep.propose.tasks import read_task

    settings = settings or Settings()
    if domain not in DOMAINS:
        raise InputError(f"unknown domain {domain!r}; expected one of: {', '.join(DOMAINS)}")
    # The proposer first: a missing model is reported at once, before any parsing or CAS work.
    chosen = make_proposer(proposer, settings, model) if isinstance(proposer, str) else proposer
    _validate(start, "START", settings, words=True)
    task = read_task(start, target, goal, settings)
    start, target = task.start, task.target
    _validate(start, "START", settings)
    if target is not None:
        _validate(target, "TARGET", settings)
    if attempts is None:
        attempts = 3 if chosen.kind == "symbolic" else 1
    if attempts < 1:
        raise InputError(f"--attempts must be at least 1, got {attempts}")
    judge_fn = _make_judge(judge, settings, model)
    run = _Run(settings, domain, attempts, judge_fn, on_attempt, on_step)
    if target is None:
        return run.goal_only(task, chosen)
    prove = task.goal == "prove"
    if chosen.kind == "symbolic":
        # The planner cannot reach a wrong target: check it first, and plan to the right answer.
        correction = _wrong_target(start, target, settings, prove)
        if correction is not None:
            return run.corrected(task, correction)
        derivation = run.towards(start, target, chosen)
    else:
        # A model's draft is kept as it was judged; a wrong target only adds the correction.
        derivation = run.towards(start, target, chosen)
        correction = None
        if not derivation.endpoint.reached:
            correction = _wrong_target(start, target, settings, prove)
        if correction is not None:
            right = run.corrected(task, correction)
            derivation.endpoint.correction = right.endpoint.correction
            derivation.answer = right.answer
    if task.goal == "prove":
        from veristep.propose.answer import prove_answer

        return prove_answer(derivation, settings)
    return derivation


class _Run:
    """One ``derive`` call's settings, shared by its three kinds of run."""

    def __init__(self, settings, domain, attempts, judge_fn, on_attempt, on_step) -> None:
        self.settings, self.domain, self.attempts = settings, domain, attempts
        self.judge_fn, self.on_attempt, self.on_step = judge_fn, on_attempt, on_step

    def _loop(self, chosen: Proposer, checker: Any) -> RefineLoop:
        return RefineLoop(
            chosen,
            checker,
            attempts=self.attempts,
            judge=self.judge_fn,
            time_budget_s=max(60.0, self.attempts * (self.settings.derive_timeout_s + 30.0)),
            on_attempt=self.on_attempt,
        )

    def towards(self, start: str, target: str, chosen: Proposer) -> Derivation:
        settings, on_step = self.settings, self.on_step
        loop = self._loop(chosen, lambda s, d, t: ground_draft(s, d, t, settings, on_step))
        best = loop.run(start, target, self.domain)
        return _finished_run(best, chosen, loop)

    def goal_only(self, task: Any, chosen: Proposer) -> Derivation:
        """The planner to the finished form of the goal; the answer stated when verified."""
        from veristep.propose.answer import apply_goal_gate

        if chosen.kind != "symbolic":
            raise InputError(
                f"a task without a target is planned by the symbolic proposer, not {chosen.kind!r}"
                ": give a TARGET, or use --proposer symbolic"
            )
        goal = task.goal or _default_goal(task.start, self.settings)
        chosen.goal, chosen.var = goal, task.var  # type: ignore[attr-defined]
        settings, on_step = self.settings, self.on_step

        def checker(s: str, d: Draft, t: str) -> Derivation:
            return apply_goal_gate(ground_draft(s, d, "", settings, on_step), goal, settings)

        loop = self._loop(chosen, checker)
        best = loop.run(task.start, "", self.domain)
        derivation = _finished_run(best, chosen, loop, goal_only=True)
        return derivation

    def corrected(self, task: Any, correction: Any) -> Derivation:
        """A wrong target: the derivation to the right answer, and the correction in words."""
        from veristep.propose.answer import _recompute
        from veristep.propose.tasks import Task

        planner = make_proposer("symbolic", self.settings)
        right = self.goal_only(Task(correction.goal, task.start, None, task.var), planner)
        right.target = task.target
        right.goal = task.goal or right.goal
        end = right.endpoint
        end.reached = end.math_correct = end.exact_graph = False  # the given target is not it
        right.proposer["note"] = (
            "target not reached: substitution shows it is wrong; shown is the derivation to "
            f"the finished form ({right.proposer.get('note') or 'no note'})"
        )
        answer = right.answer or {}
        if task.goal == "prove":
            end.correction = correction.sentence  # a false identity has no answer to state
            return _recompute(right)
        if answer.get("stated"):
            said = answer["sentence"]
            if correction.goal == "solve" and not said.startswith(("the ", "there")):
                said = "the solution is " + said
        else:
            said = "no verified answer was found (" + answer.get("sentence", "") + ")"
        end.correction = f"{correction.sentence}; {said}"
        return _recompute(right)


def _finished_run(best: Attempt, chosen: Proposer, loop: RefineLoop, goal_only: bool = False):
    derivation = best.derivation
    derivation.proposer = _proposer_record(chosen, loop, best)
    if goal_only:
        if not derivation.steps and not derivation.endpoint.reached:
            why = best.draft.note or "it wrote no step"
            derivation.confidence.summary += f" · the {chosen.kind} proposer failed: {why}"
        return derivation
    if not derivation.steps and derivation.endpoint.reached:
        # The start already is the target as written: nothing to derive, and no one failed.
        derivation.confidence.summary += " · the start already is the target"
    elif not derivation.steps:
        # Nothing to judge: say whose failure that is, in the verdict itself (docs/design.md).
        why = best.draft.note or "it wrote no step"
        derivation.confidence.summary += f" · the {chosen.kind} proposer failed: {why}"
    return derivation


def _default_goal(start: str, settings: Settings) -> str:
    from veristep.propose.symbolic.finished import default_goal
    from veristep.propose.symbolic.proposer import latex_to_sympy

    try:
        return default_goal(latex_to_sympy(start, settings))
    except (TypeError, ValueError, NotImplementedError, RecursionError):
        return "simplify"


def _wrong_target(start: str, target: str, settings: Settings, prove: bool) -> Any:
    from veristep.propose.answer import wrong_target

    try:
        return wrong_target(start, target, settings, prove)
    except (TypeError, ValueError, NotImplementedError, RecursionError, AttributeError):
        return None  # the correction is an addition: when it cannot be computed, none is given


def _make_judge(judge: Any, settings: Settings, model: str | None):
    if judge is False or judge is None:
        return None
    if callable(judge):
        return judge
    from veristep.propose.llm.judge import PedagogyJudge

    return PedagogyJudge.from_settings(settings, model)


def _proposer_record(chosen: Proposer, loop: RefineLoop, best: Attempt) -> dict[str, Any]:
    usage = _sum_usage([a.draft.usage for a in loop.record])
    return {
        "kind": chosen.kind,
        "model": getattr(chosen, "model", None),
        "attempts": len(loop.record),
        "usage": usage,
        "best_attempt": best.index,
        "note": best.draft.note,
        "bridged": best.draft.bridged or None,
        "history": [a.to_json() for a in loop.record],
    }


def _sum_usage(usages: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    present = [u for u in usages if u]
    if not present:
        return None
    total: dict[str, Any] = {}
    for u in present:
        for key, value in u.items():
            if isinstance(value, int | float):
                total[key] = total.get(key, 0) + value
    return total


def _validate(text: str, name: str, settings: Settings, words: bool = False) -> None:
    """Reject empty, oversized and unparseable input up front, with the position in the message
    (``words``: only the size checks, before the task words are read)."""
    from veristep.mathgraph import parse_math

    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{name} is empty")
    if len(text) > settings.max_latex_chars:
        raise InputError(
            f"{name} is {len(text)} characters long; the limit is {settings.max_latex_chars}",
            source=text,
            position=settings.max_latex_chars,
        )
    if words:
        return
    try:
        parse_math(text, settings)
    except InputError as err:
        raise InputError(
            f"{name}: {err.message}",
            source=err.source,
            position=err.position,
            length=err.length,
            hint=err.hint,
        ) from None
