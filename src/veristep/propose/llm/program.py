"""The DSPy program ``ProofCompletion``: a Signature whose prompt MIPROv2 or GEPA can optimise.

The trajectory is one string field in a plain block format (see ``trajectory.py``) rather than a
typed list: a typed output goes through JSON, and JSON escaping corrupts LaTeX.
"""

from __future__ import annotations

import veristep.llm  # noqa: F401  (first: it keeps LiteLLM off the network for its cost map)

# isort: split
import dspy

TRAJECTORY_FORMAT = """One block per step, exactly like this, with no JSON and no escaping:
STEP 1
operation: <the one move made, in words, e.g. 'subtract 5 from both sides'>
expr: <the complete expression or equation reached, in LaTeX>
justification: <why the move is valid, in words>
change_type: <rewrite | solve | substitute | approximate | given>
STEP 2
...
The last step's expr must be the target."""


class ProofCompletion(dspy.Signature):
    """Write the derivation from the start to the target that a careful teacher would write.

    One mathematical move per step; every step states the complete expression reached (not a
    fragment), names the operation and justifies it. A computer algebra system checks every step,
    so never skip a move and never claim the target unless the algebra reaches it. When feedback
    on a previous attempt is given, fix exactly the steps it names."""

    start_latex: str = dspy.InputField(desc="the starting expression or equation, in LaTeX")
    target_latex: str = dspy.InputField(desc="the expression or equation to reach, in LaTeX")
    domain: str = dspy.InputField(desc="subject area hint: algebra, calculus, ... or auto")
    feedback: str = dspy.InputField(desc="why the previous attempt fell short; empty at first")
    trajectory: str = dspy.OutputField(desc=TRAJECTORY_FORMAT)


class ProofCompletionProgram(dspy.Module):
    """``ChainOfThought`` over :class:`ProofCompletion` (``Predict`` with ``reasoning=False``).

    Chain of thought is the default because the reasoning field gives the model room to plan before
    it commits to the step list; it has not been measured against ``Predict`` on a real model here.
    """

    def __init__(self, reasoning: bool = True) -> None:
        super().__init__()
        self.reasoning = reasoning
        self.generate = (
            dspy.ChainOfThought(ProofCompletion) if reasoning else dspy.Predict(ProofCompletion)
        )

    def forward(
        self, start_latex: str, target_latex: str, domain: str = "auto", feedback: str = ""
    ):
        return self.generate(
            start_latex=start_latex, target_latex=target_latex, domain=domain, feedback=feedback
        )


def make_lm(model: str, settings) -> dspy.LM:
    """The project's one LM factory (model strings, local servers, keys from the environment)."""
    from veristep.llm.config import make_lm as project_make_lm

    return project_make_lm(model, settings)
