"""The human report of ``veristep check``: one line per state with its tier icon, a reason under
every refuted, undecided, unchecked, lossy (narrows, widens) or mislabelled step, then the result
block.

>>> from veristep.core.verdicts import Confidence, Endpoint
>>> step = StepVerdict(1, Tier.REFUTED, Relation.REFUTED, reason="introduces value(s) …: 7")
>>> end = Endpoint(True, True, True)
>>> conf = Confidence(Tier.REFUTED, 0, 1, 1, 1, "0/1 steps verified · 1 refuted · endpoint reached")
>>> print(render(["x^{2} = 4", "x = 7"], [step], end, conf))
   start :   x^{2} = 4
   step 1:  ✗ x = 7
             (refuted: introduces value(s) …: 7)
result:
  steps convertible : 1/1
  math correct      : ✓
  exact graph       : ✓
  step grounding    : ✗
  confidence        : ✗ Refuted    (0/1 steps verified · 1 refuted · endpoint reached)
"""

from __future__ import annotations

from veristep.core.learner import plain_state
from veristep.core.tiers import Relation, Tier
from veristep.core.verdicts import Confidence, Derivation, Endpoint, StepVerdict

_MARK = {True: "✓", False: "✗"}


def render(
    displays: list[str], steps: list[StepVerdict], end: Endpoint, confidence: Confidence
) -> str:
    lines = [f"   start :   {displays[0]}"]
    for step, shown in zip(steps, displays[1:], strict=True):
        lines.append(f"   step {step.index}:  {step.tier.icon} {shown}")
        if _needs_reason(step):
            label = _label(step)
            said = step.reason if step.reason.startswith(label) else f"{label}: {step.reason}"
            lines.append(f"             ({said})")
    lines += [
        "result:",
        f"  steps convertible : {confidence.convertible}/{confidence.steps_total}",
        f"  math correct      : {_MARK[end.math_correct]}",
        f"  exact graph       : {_MARK[end.exact_graph]}",
        f"  step grounding    : {''.join(s.tier.icon for s in steps)}",
        f"  confidence        : {confidence.tier.icon} {confidence.tier.label}"
        f"    ({confidence.summary})",
    ]
    return "\n".join(lines)


def render_derivation(derivation: Derivation, displays: list[str] | None = None) -> str:
    shown = displays or [s.latex for s in derivation.states]
    return render(shown, derivation.steps, derivation.endpoint, derivation.confidence)


def _needs_reason(step: StepVerdict) -> bool:
    return (
        step.tier in (Tier.REFUTED, Tier.UNCHECKED)
        or step.relation in (Relation.UNKNOWN, Relation.NARROWS, Relation.WIDENS)
        or "but the step was declared" in step.reason
    )


def _label(step: StepVerdict) -> str:
    if step.tier is Tier.UNCHECKED:
        return "unchecked"
    if step.relation in (Relation.REFUTED, Relation.UNKNOWN, Relation.NARROWS, Relation.WIDENS):
        return step.relation.value
    return step.tier.name_lower


# Shapes a learner cannot read as a number (a medal "1" or "2" can be): ✓ right, ? not shown
# right, ✗ wrong, ○ not read.
LEARNER_MARK = {
    Tier.GROUNDED: "✓", Tier.VERIFIED: "✓", Tier.PLAUSIBLE: "?", Tier.UNCHECKED: "○",
    Tier.REFUTED: "✗",
}  # fmt: skip


def render_learner(derivation: Derivation, slips: dict[int, str] | None = None) -> str:
    """The learner view for the command line: each line as typed, its mark and one sentence,
    and under a wrong line the slip that most likely happened when one was named (``slips``).

    >>> from veristep.core.verdicts import Confidence, Endpoint, StateRecord
    >>> step = StepVerdict(1, Tier.PLAUSIBLE, Relation.NARROWS,
    ...                    facts={"var": "x", "kept": [2], "lost": [-2]})
    >>> d = Derivation("x^2 = 4", None, [StateRecord("x^{2} = 4"), StateRecord("x = 2")], [step],
    ...                Endpoint(True, True, True), Confidence(Tier.PLAUSIBLE, 0, 1, 0, 2, ""))
    >>> print(render_learner(d))  # doctest: +ELLIPSIS
      x² = 4
    ? x = 2
        incomplete: you lost x = −2. It solves the line before ...
    Incomplete: step 1 loses a solution.
    """
    view = derivation.to_json()
    shown = [plain_state(s.latex) or s.latex for s in derivation.states]
    lines = [f"  {shown[0]}"] if shown else []
    for step, state in zip(view["steps"], shown[1:], strict=False):
        mark = LEARNER_MARK[Tier.parse(step["tier"])]
        lines += [f"{mark} {state}", f"    {step['learner']}"]
        if slips and step["index"] in slips:
            lines.append(f"    likely slip: {slips[step['index']]}")
    lines.append(view["confidence"]["learner_summary"])
    return "\n".join(lines)
