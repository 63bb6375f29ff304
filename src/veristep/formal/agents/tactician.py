"""The Tactician: K candidates — whole proofs (phase 1) or single tactics (phase 2).

Conditioned on the Strategist's plan, the Retriever's lemmas, the Critic's advice and the
failed attempts with Coq's messages (negative examples). Offline it ranks the portfolio,
strategy-specific scripts and structural tactics read off the goals; a model's candidates come
first when there is one, and everything already tried (or already refuted) is dropped.

>>> from veristep.formal.state import ProofState, THEOREM_EXAMPLE
>>> s = ProofState.from_goals(THEOREM_EXAMPLE, "1 goal\\n  n : nat\\n  H : n > 2 /\\\\ n < 9\\n"
...                           "  ============================\\n  n * n > 4\\n")
>>> Tactician().tactics(s, Plan("direct", 1), [], k=3)
['destruct H as [H H_1].', 'lia.', 'nia.']
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from veristep.formal.agents.lm import AgentTrace, predict
from veristep.formal.agents.retrieval import theorem_domain
from veristep.formal.agents.strategist import Plan
from veristep.formal.coq_text import forbidden_reason, split_sentences
from veristep.formal.goal_scripts import goal_scripts
from veristep.formal.portfolio import CLOSERS, EXTRA_SCRIPTS, PORTFOLIO
from veristep.formal.retriever import Lemma
from veristep.formal.state import ProofState

_DEFINED = re.compile(r"^\s*(?:Definition|Fixpoint)\s+([A-Za-z_][\w']*)", re.M)
_HYP = re.compile(r"^([A-Za-z_][\w']*)\s*:\s*(.*)$")


@functools.cache
def _signatures() -> tuple[Any, Any]:
    import dspy

    class WholeProofs(dspy.Signature):
        """Write complete Coq proof scripts (the text between Proof. and Qed.) for the theorem."""

        theorem: str = dspy.InputField()
        strategy: str = dspy.InputField()
        lemmas: list[str] = dspy.InputField(desc="library lemmas that may help")
        failed: list[str] = dspy.InputField(desc="scripts that failed, with Coq's error")
        proofs: list[str] = dspy.OutputField(desc="distinct proof scripts, best first")

    class NextTactics(dspy.Signature):
        """Propose single Coq tactic sentences for the first goal, each ending with a period."""

        goals: str = dspy.InputField()
        strategy: str = dspy.InputField()
        lemmas: list[str] = dspy.InputField()
        advice: str = dspy.InputField(desc="the critic's advice")
        failed: list[str] = dspy.InputField(desc="tactics that failed here, with Coq's error")
        tactics: list[str] = dspy.OutputField(desc="distinct tactics, best first")

    return WholeProofs, NextTactics


@dataclass
class Tactician:
    lm: Any = None
    trace: AgentTrace = field(default_factory=AgentTrace)

    # -- phase 1 ---------------------------------------------------------------------------
    def whole_proofs(self, state: ProofState, plan: Plan, lemmas: list[Lemma], n: int) -> list[str]:
        """``n`` whole-proof scripts: the portfolio first (the monotonicity anchor), then more."""
        proposed: list[str] = []
        if self.lm is not None:
            whole, _ = _signatures()
            out = predict(
                whole,
                self.lm,
                self.trace,
                theorem=state.theorem.statement,
                strategy=plan.strategy,
                lemmas=_lemma_lines(lemmas),
                failed=_negatives(state),
            )
            proposed = [_clean_script(p) for p in (getattr(out, "proofs", None) or [])]
        # Scripts read off this statement (square hints, |·| split) right after the model's:
        # cheap to check, and the plan's generic scripts rarely close what they close.
        ranked = list(PORTFOLIO) + proposed + goal_scripts(state.theorem)
        ranked += list(EXTRA_SCRIPTS.get(plan.strategy, ()))
        for strategy, scripts in EXTRA_SCRIPTS.items():
            if strategy != plan.strategy:
                ranked += scripts
        ranked += [f"intros; apply {lem.name}; auto." for lem in lemmas[:4]]
        ranked += [
            f"intros; rewrite {lem.name}; lra." for lem in lemmas[:2] if "=" in lem.statement
        ]
        return _distinct(ranked, state.tried())[: max(n, len(PORTFOLIO))]

    # -- phase 2 ---------------------------------------------------------------------------
    def tactics(
        self, state: ProofState, plan: Plan, lemmas: list[Lemma], k: int, advice: str = ""
    ) -> list[str]:
        """``k`` single-sentence tactics for the first goal of ``state``."""
        proposed: list[str] = []
        if self.lm is not None:
            _, step = _signatures()
            out = predict(
                step,
                self.lm,
                self.trace,
                goals=state.goals_text[:3000],
                strategy=plan.strategy,
                lemmas=_lemma_lines(lemmas),
                advice=advice,
                failed=_negatives(state),
            )
            proposed = [_clean_script(t) for t in (getattr(out, "tactics", None) or [])]
            proposed = [t for t in proposed if len(split_sentences(t)) == 1]
        ranked = proposed + rule_tactics(state, plan, lemmas, advice)
        return _distinct(ranked, state.tried())[:k]


def rule_tactics(state: ProofState, plan: Plan, lemmas: list[Lemma], advice: str = "") -> list[str]:
    """Offline single tactics, interleaved so a small K still covers every kind of move:
    structure, the domain's decision procedures, the plan's moves, lemmas, then simplifiers."""
    goal, hyps = state.conclusion, state.hypotheses
    out: list[str] = []
    if goal.startswith("forall") or "->" in goal or goal.startswith("~"):
        out.append("intros.")
    for line in hyps:
        match = _HYP.match(line)
        if not match:
            continue
        name, body = match.groups()
        if "/\\" in body:
            out.append(f"destruct {name} as [{name} {name}_1].")
        if body.startswith("exists"):
            out.append(f"destruct {name} as [? {name}].")
        if "\\/" in body and plan.strategy in ("cases", "direct", "contradiction"):
            out.append(f"destruct {name} as [{name} | {name}].")
        if body.startswith("forall") and "=" in body:
            out.append(f"rewrite !{name}.")
    closers = _closers(state, advice)
    out += closers[:4]
    if "/\\" in goal or "<->" in goal:
        out.append("split.")
    out += _strategy_moves(state, plan, hyps, goal)
    for name in _DEFINED.findall(state.theorem.header):
        if re.search(rf"\b{re.escape(name)}\b", goal + " ".join(hyps)):
            out.append(f"unfold {name} in *.")
    for lem in lemmas:
        out.append(f"rewrite {lem.name}." if "=" in lem.statement else f"apply {lem.name}.")
    out += ["simpl in *.", "subst.", "field_simplify.", "ring_simplify."]
    return out + closers[4:]


def _closers(state: ProofState, advice: str) -> list[str]:
    """The closers, the goal's own domain first (real arithmetic or integer arithmetic)."""
    real = theorem_domain(state.theorem) == "R"
    first = ("lra.", "nra.", "field.") if real else ("lia.", "nia.", "ring.")
    closers = list(first) + [t for t in CLOSERS if t not in first]
    if "nonlinear" in advice:  # the Critic's advice reorders, it never removes options
        closers.sort(key=lambda t: t not in ("nra.", "nia."))
    return closers


def _strategy_moves(state: ProofState, plan: Plan, hyps: list[str], goal: str) -> list[str]:
    moves: list[str] = []
    if plan.strategy == "induction":
        for line in hyps:
            match = _HYP.match(line)
            if match and match.group(2).strip() in ("nat", "list R", "list nat", "list Z"):
                moves.append(f"induction {match.group(1)}.")
    if plan.strategy == "contradiction":
        moves += ["exfalso.", "intro.", "contradiction."]
    if plan.strategy in ("rewrite", "direct"):
        for line in hyps:
            match = _HYP.match(line)
            if match and re.match(r"^[\w']+\s*=", match.group(2)):
                moves.append(f"rewrite {match.group(1)} in *.")
        moves.append("subst.")
    if plan.strategy == "cases":
        moves += ["destruct (Rle_lt_dec 0 x).", "intuition."]
    return moves


def _clean_script(text: str) -> str:
    """Strip Markdown fences and a surrounding ``Proof.`` / ``Qed.`` a model may add."""
    text = re.sub(r"^```\w*\s*|```\s*$", "", str(text).strip())
    text = re.sub(r"^\s*Proof\s*\.", "", text)
    text = re.sub(r"\b(Qed|Defined)\s*\.\s*$", "", text)
    return text.strip()


def _distinct(candidates: list[str], tried: set[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for cand in candidates:
        key = " ".join(cand.split())
        if key and key not in seen and key not in tried and forbidden_reason(key) is None:
            seen.add(key)
            out.append(key)
    return out


def _lemma_lines(lemmas: list[Lemma]) -> list[str]:
    return [f"{lem.name}: {lem.statement}" for lem in lemmas]


def _negatives(state: ProofState) -> list[str]:
    return [
        f"{a.text} -> {a.signals.failure}: {a.signals.message[:160]}" for a in state.failed()[-10:]
    ]
