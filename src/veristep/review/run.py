"""One call that reviews a proof: segment, ground, run the agent, save the trace.

>>> t = review_proof("We have $2 + 2 = 4$. Hence the claim holds.")
>>> t.verdict, t.steps["s1"].state.value, t.steps["s1"].tier.name_lower, t.steps["s2"].state.value
('undecided', 'verified', 'grounded', 'open')
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.review.agent import ReviewAgent, ReviewBudget
from veristep.review.calls import Health, RoleCaller, make_model
from veristep.review.machine import LinkGrounder
from veristep.review.segment import Segment, segment_proof
from veristep.review.trace import ReviewTrace, StepRecord


def review_proof(
    text: str | list[str] | list[Segment],
    *,
    model: str | None = None,
    lm: Any = None,
    settings: Settings | None = None,
    trace_path: Path | None = None,
    resume: bool = False,
    budget: ReviewBudget | None = None,
    grounder: LinkGrounder | None = None,
    source: str = "proof",
    problem: str = "",
    strict: bool = True,
    on_iteration: Callable[[ReviewTrace], None] | None = None,
    health: Health | None = None,
    on_step: Callable[[StepRecord], None] | None = None,
) -> ReviewTrace:
    """Review ``text`` (a proof, or its steps already cut, as strings or segments).

    ``lm`` is a ready DSPy LM (tests pass a DummyLM); otherwise ``model`` is built with the
    configured temperature. With neither, only the machine checks run and the verdict is honest:
    "undecided" unless the machine alone decides. ``resume`` continues from ``trace_path``.
    ``on_step`` hears each step as the machine pass judges it, before any model call.
    """
    settings = settings or Settings()
    if lm is None and model is not None:
        lm = make_model(model, settings)
    model_name = model or (getattr(lm, "model", None) if lm is not None else None)
    segments = _segments(text, strict)
    if resume and trace_path is not None and trace_path.exists():
        trace = _resumable(trace_path, segments)
    else:
        trace = ReviewTrace.new(source, segments, model_name, problem)
    caller = RoleCaller(lm, trace.calls, health) if lm is not None else None
    programs = None
    if caller is not None:
        from veristep.review.programs import role_programs

        programs = role_programs()
    if grounder is None:
        from veristep.review.grounding_link import default_grounder

        grounder = default_grounder()
    agent = ReviewAgent(
        trace, caller, programs, settings, budget, grounder, trace_path, on_iteration, on_step
    )
    return agent.run()


def _resumable(path: Path, segments: list[Segment]) -> ReviewTrace:
    """The saved trace, provided it was made for these very steps."""
    try:
        trace = ReviewTrace.load(path)
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"saved trace {path} is not readable: {exc}") from None
    if [trace.steps[sid].text for sid in trace.order] != [s.text for s in segments]:
        raise InputError(f"saved trace {path} belongs to a different proof; drop --resume")
    return trace


def _segments(text: str | list[str] | list[Segment], strict: bool) -> list[Segment]:
    if isinstance(text, list) and all(isinstance(s, Segment) for s in text):
        return list(text)  # type: ignore[arg-type]
    if isinstance(text, list):
        from veristep.review.segment import segment_steps

        return segment_steps(text)
    return segment_proof(text, strict=strict)
