"""Two-phase proof search: Best-of-N whole proofs, then critic-guided MCTS over tactic states.

One :class:`ProofSearch` object per theorem, with an explicit budget and a record of every attempt.
Phase 1 checks N whole-proof candidates in one batch (the portfolio first, so the portfolio's
solved set is contained in phase 1's). Phase 2 runs only when phase 1 failed, with phase 1's
failures injected as negatives; its tree is selected by a UCB variant on the Critic's value plus
strategy alignment, expanded in validated batches, valued by the Critic from the structured
signals (no random roll-outs), and backed up with the signals themselves, not a win/loss bit.
Every proof found is confirmed by a fresh strict ``coqc`` check before it counts.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from veristep.formal.agents import STRATEGIES, Critic, Plan, Retriever, Strategist, Tactician
from veristep.formal.agents.lm import model_deadline
from veristep.formal.agents.tactician import rule_tactics
from veristep.formal.backends.base import Attempt, Backend, Theorem
from veristep.formal.backends.coq import goals_key
from veristep.formal.backends.coqtop import CoqCrashed
from veristep.formal.goal_scripts import ALWAYS_CHECKED_GOAL_SCRIPTS, goal_scripts
from veristep.formal.portfolio import PORTFOLIO
from veristep.formal.repairs import repairs
from veristep.formal.signals import FailureKind
from veristep.formal.state import ProofState

STATEMENT_REJECTED = "statement rejected by Coq"


@dataclass
class SearchBudget:
    """A wall-clock allowance for one theorem."""

    seconds: float
    started: float = field(default_factory=time.monotonic)

    @property
    def left(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    @property
    def spent(self) -> float:
        return time.monotonic() - self.started


class Phase(StrEnum):
    """Which phase found the proof (str-valued: the JSON and the attempt events carry the word)."""

    PORTFOLIO = "portfolio"  # a fixed script of the offline portfolio
    BEST_OF_N = "best_of_n"  # a whole proof the model wrote
    MCTS = "mcts"  # the tactic-state search


@dataclass
class SearchResult:
    name: str
    solved: bool
    phase: Phase | None  # None: not solved
    proof: str | None
    coq_calls: int
    seconds: float
    tokens: int = 0
    attempts: int = 0
    failures: dict[str, int] = field(default_factory=dict)  # failure classes by signal
    verdict: str = ""
    mcts_iterations: int = 0

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.__dict__.items()}

    def _repr_html_(self) -> str:  # a notebook shows the result, not a bare dataclass
        from veristep.formal.search_display import to_html

        return to_html(self)

    def _repr_markdown_(self) -> str:
        from veristep.formal.search_display import to_markdown

        return to_markdown(self)


@dataclass
class Node:
    state: int
    goals_text: str
    goals: int
    depth: int
    tactic: str | None = None
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    visits: int = 0
    value_sum: float = 0.0
    prior: float = 0.5  # the Critic's value when the node was created
    alignment: float = 0.0  # 1 when the tactic into this node is one the plan calls for
    expanded: bool = False  # expanded at least once
    exhausted: bool = False  # the Tactician has nothing new to offer here
    dead: bool = False
    attempts: list[Attempt] = field(default_factory=list)
    signal_counts: Counter[str] = field(default_factory=Counter)  # failures below this node

    @property
    def q(self) -> float:
        return self.value_sum / self.visits if self.visits else self.prior

    def path(self) -> list[str]:
        node, out = self, []
        while node is not None and node.tactic is not None:
            out.append(node.tactic)
            node = node.parent
        return out[::-1]


@dataclass
class Agents:
    strategist: Strategist = field(default_factory=Strategist)
    retriever: Retriever = field(default_factory=Retriever)
    critic: Critic = field(default_factory=Critic)
    tactician: Tactician = field(default_factory=Tactician)

    @property
    def tokens(self) -> int:
        return sum(agent.trace.tokens for agent in self.parts())

    @property
    def has_model(self) -> bool:
        return any(getattr(agent, "lm", None) is not None for agent in self.parts())

    def parts(self) -> tuple[Any, ...]:
        return (self.strategist, self.retriever, self.critic, self.tactician)

    @contextmanager
    def offline(self) -> Iterator[None]:
        """The agents' rules only, for the cheap deterministic pass before any model call."""
        saved = [agent.lm for agent in self.parts()]
        try:
            for agent in self.parts():
                agent.lm = None
            yield
        finally:
            for agent, lm in zip(self.parts(), saved, strict=True):
                agent.lm = lm


@dataclass
class ProofSearch:
    """Search for one theorem: ``run()`` returns a :class:`SearchResult`."""

    theorem: Theorem
    backend: Backend
    agents: Agents = field(default_factory=Agents)
    n: int = 64
    mcts_iterations: int = 40
    expansion_k: int = 12
    budget_s: float = 60.0
    exploration: float = 0.8
    alignment_weight: float = 0.15
    # At most this share of the budget goes to non-portfolio Best-of-N scripts before MCTS
    # starts; 1.0 lets Best-of-N run its whole list first (the measured default).
    phase1_share: float = 1.0
    attempts: list[Attempt] = field(default_factory=list)
    modules: frozenset[str] | None = None  # library modules the theorem's header loads
    # Tactics that failed on a focused goal, by its text: the same goal met at another node (a
    # sibling's subgoal, another order of the same moves) does not pay for the same failures.
    failed_on_goal: dict[str, set[str]] = field(default_factory=dict)
    lemma_names: list[str] | None = None  # for repairing unknown names; filled on first use
    # Hears each attempt as soon as it is judged, with its phase: a caller that streams the
    # search (the web's prove page) needs no polling.
    on_attempt: Callable[[Phase, Attempt], None] | None = None

    def run(self) -> SearchResult:
        budget = SearchBudget(self.budget_s)
        calls_before = self.backend.calls
        try:
            index = self.agents.retriever.index
            loaded = getattr(self.backend, "loaded_modules", None)
            if index is not None and loaded is not None:
                self.modules = loaded(self.theorem, index.modules)
            self.backend.open_proof(self.theorem)  # a statement Coq rejects is not searched
        except CoqCrashed as exc:
            result = self._result(None, None, f"{STATEMENT_REJECTED}: {exc}")
            result.seconds = budget.spent
            return result
        try:
            with model_deadline(budget.started + budget.seconds):
                result = self._phase1(budget) or self._phase2(budget)
        except CoqCrashed as exc:
            result = self._result(None, None, f"backend failure: {exc}")
        result.coq_calls = self.backend.calls - calls_before
        result.seconds = budget.spent
        result.tokens = self.agents.tokens
        return result

    # -- phase 1 ---------------------------------------------------------------------------
    def _phase1(self, budget: SearchBudget) -> SearchResult | None:
        """Best-of-N: the deterministic candidates first (no model call at all), then, with a
        model, its whole proofs. Stops at ``phase1_share`` of the budget so MCTS keeps time."""
        stop = budget.seconds * (1.0 - self.phase1_share)
        with self.agents.offline():
            found = self._best_of_n(budget, stop)
        if found is None and self.agents.has_model and budget.left > stop:
            found = self._best_of_n(budget, stop)
        return found

    def _best_of_n(self, budget: SearchBudget, stop: float) -> SearchResult | None:
        root = ProofState(self.theorem, self.theorem.statement, 1, attempts=list(self.attempts))
        plan = self.agents.strategist.plan(root)
        lemmas = self.agents.retriever.lemmas(root, self.modules)
        scripts = self.agents.tactician.whole_proofs(root, plan, lemmas, self.n)
        # The portfolio part is always checked in full (the monotonicity anchor), and so are the
        # few scripts read off this statement (a portfolio that times out on 5 ^ 30 in unary
        # would otherwise spend the budget before the script that computes it in binary); the
        # rest only while phase 1's share of the budget lasts.
        always = set(PORTFOLIO) | set(goal_scripts(self.theorem)[:ALWAYS_CHECKED_GOAL_SCRIPTS])
        tried = {a.text for a in self.attempts}
        for script in scripts:
            if script in tried:
                continue  # the offline pass already checked it: same script, same verdict
            if script not in always and budget.left <= stop:
                continue
            tried.add(script)
            attempt = self.backend.check_batch(self.theorem, [script])[0]
            self.attempts.append(attempt)
            phase = Phase.PORTFOLIO if script in PORTFOLIO else Phase.BEST_OF_N
            self._heard(phase, attempt)
            if attempt.complete:
                verdict = self.backend.confirm(self.theorem, script)
                if verdict.accepted:
                    return self._result(phase, script, verdict.reason)
                attempt.signals.failure = verdict.failure  # a session "success" coqc refused
        return None

    def _heard(self, phase: Phase, attempt: Attempt) -> None:
        if self.on_attempt is not None:
            self.on_attempt(phase, attempt)

    # -- phase 2 ---------------------------------------------------------------------------
    def _phase2(self, budget: SearchBudget) -> SearchResult:
        if self.mcts_iterations <= 0 or budget.left <= 0:
            return self._result(None, None, "phase 1 failed; no budget for phase 2")
        opened = self.backend.open_proof(self.theorem)
        root = Node(opened.state, opened.goals_text, opened.goals, depth=0)
        negatives = [a for a in self.attempts if not a.complete]
        seen = {goals_key(root.goals_text)}
        iterations = 0
        while iterations < self.mcts_iterations and budget.left > 0 and not root.dead:
            iterations += 1
            leaf = self._select(root)
            if leaf is None:
                break
            proof = self._expand(leaf, negatives if leaf is root else [], seen, budget)
            if proof is not None:
                verdict = self.backend.confirm(self.theorem, proof)
                if verdict.accepted:
                    result = self._result(Phase.MCTS, proof, verdict.reason)
                    result.mcts_iterations = iterations
                    return result
        result = self._result(None, None, "search exhausted its budget or tree")
        result.mcts_iterations = iterations
        return result

    def _select(self, root: Node) -> Node | None:
        """Descend by UCB; a node is widened (expanded again) when its children are all dead or
        it has been visited twice as often as it has children (progressive widening)."""
        node = root
        while node.expanded:
            alive = [c for c in node.children if not c.dead]
            if not node.exhausted and (not alive or node.visits >= 2 * len(node.children) + 2):
                return node
            if not alive:
                node.dead = True
                return None if node is root else self._select(root)
            parent_visits = max(node.visits, 1)
            node = max(alive, key=lambda c: self._ucb(c, parent_visits))
        return node

    def _ucb(self, child: Node, parent_visits: int) -> float:
        explore = self.exploration * math.sqrt(math.log(parent_visits + 1) / (child.visits + 1))
        return child.q + explore + self.alignment_weight * child.alignment

    def _expand(
        self, leaf: Node, negatives: list[Attempt], seen: set[str], budget: SearchBudget
    ) -> str | None:
        """Validate K tactics from ``leaf`` in one session; a finished path returns its proof."""
        state = ProofState.from_goals(
            self.theorem,
            leaf.goals_text,
            history=leaf.path(),
            attempts=leaf.attempts,
            negatives=negatives,
        )
        plan = self.agents.strategist.plan(state)
        lemmas = self.agents.retriever.lemmas(state, self.modules)
        advice = self.agents.critic.advise(state)
        tactics = self.agents.tactician.tactics(state, plan, lemmas, self.expansion_k, advice)
        leaf.expanded = True
        leaf.exhausted = len(tactics) < self.expansion_k
        failures: Counter[str] = Counter()
        known_bad = self.failed_on_goal.setdefault(first_goal_key(leaf.goals_text), set())
        best = 0.0
        # Coq's errors shape the rest of this expansion: repairs of a failed tactic and, after
        # no progress, the next strategy's tactics join the queue (at most ``expansion_k`` more).
        queue, queued, extra = list(tactics), set(tactics), self.expansion_k
        switched = False
        while queue:
            tactic = queue.pop(0)
            if budget.left <= 0:
                break
            if tactic in known_bad:  # failed on this very goal at another node
                continue
            attempt = self.backend.apply(self.theorem, leaf.path(), tactic, leaf.goals)
            self.attempts.append(attempt)
            leaf.attempts.append(attempt)
            self._heard(Phase.MCTS, attempt)
            signals = attempt.signals
            follow: list[str] = []
            if not signals.ok:
                if signals.failure is not FailureKind.TIMEOUT:  # a timeout says nothing
                    known_bad.add(tactic)
                failures[signals.failure.value] += 1
                if signals.failure is FailureKind.CRASH:
                    leaf.dead = True  # every saved state died with the process
                    break
                unknown = signals.failure is FailureKind.UNKNOWN_REFERENCE
                names = self._lemma_names() if unknown else []
                follow = repairs(tactic, signals.failure, signals.message, names)
            elif signals.goals_after == 0:
                return "\n".join([*leaf.path(), tactic])
            else:
                key = goals_key(signals.goals_text)
                signals.no_op = key == goals_key(leaf.goals_text)
                if not (signals.no_op or key in seen):
                    seen.add(key)
                    best = max(best, self._grow(leaf, attempt, plan))
                    continue
                failures["no_progress"] += 1
                if not switched:
                    switched = True
                    follow = rule_tactics(state, _next_strategy(plan), lemmas)[:2]
            fresh = [t for t in follow if t not in queued and t not in known_bad][:extra]
            extra -= len(fresh)
            queued.update(fresh)
            queue[:0] = fresh  # a repair is tried next, while its error is the freshest news
        self._backpropagate(leaf, best, failures)
        return None

    def _lemma_names(self) -> list[str]:
        """Names of the index's lemmas in the loaded modules (read once per search)."""
        if self.lemma_names is None:
            index = self.agents.retriever.index
            self.lemma_names = index.names(self.modules) if index is not None else []
        return self.lemma_names

    def _grow(self, leaf: Node, attempt: Attempt, plan: Plan) -> float:
        """A child for a tactic that made progress; its value."""
        signals = attempt.signals
        value = self.agents.critic.value(
            signals,
            leaf.depth + 1,
            len(signals.goals_text),
            leaf.signal_counts,
            parent_goals=leaf.goals_text,
        )
        child = Node(
            attempt.state or leaf.state,
            signals.goals_text,
            signals.goals_after or 1,
            leaf.depth + 1,
            attempt.text,
            leaf,
            prior=value,
            alignment=_alignment(attempt.text, plan),
        )
        leaf.children.append(child)
        return value

    def _backpropagate(self, leaf: Node, value: float, failures: Counter[str]) -> None:
        node: Node | None = leaf
        while node is not None:
            node.visits += 1
            node.value_sum += value
            node.signal_counts.update(failures)
            node = node.parent

    def _result(self, phase: Phase | None, proof: str | None, verdict: str) -> SearchResult:
        kinds = Counter(
            "no_progress" if a.signals.ok else a.signals.failure.value
            for a in self.attempts
            if not a.signals.ok or a.signals.no_op
        )
        return SearchResult(
            name=self.theorem.name,
            solved=proof is not None,
            phase=phase,
            proof=proof,
            coq_calls=0,
            seconds=0.0,
            attempts=len(self.attempts),
            failures=dict(kinds),
            verdict=verdict,
        )


_ALIGNED = {
    "induction": ("induction", "simpl"),
    "contradiction": ("exfalso", "intro", "contradiction", "destruct"),
    "cases": ("destruct", "case", "split"),
    "rewrite": ("rewrite", "subst", "unfold"),
    "apply_lemma": ("apply", "eapply", "rewrite"),
    "direct": ("intros", "lia", "lra", "nra", "nia", "split", "field"),
}


def first_goal_key(goals_text: str) -> str:
    r"""The focused goal (its hypotheses and conclusion), without the goal count or the goals
    after it: a tactic acts on this goal only, so where it failed once it fails again.

    >>> first_goal_key("2 goals\n  n : nat\n  ====\n  n = n\n\ngoal 2 is:\n  True\n")
    'n : nat ==== n = n'
    """
    body = goals_text.split("\n", 1)[1] if "\n" in goals_text else goals_text
    return goals_key(body.split("\ngoal 2", 1)[0])


def _next_strategy(plan: Plan) -> Plan:
    """The strategy after ``plan``'s, for when its tactics make no progress."""
    at = STRATEGIES.index(plan.strategy) if plan.strategy in STRATEGIES else -1
    return Plan(STRATEGIES[(at + 1) % len(STRATEGIES)], plan.depth, plan.source)


def _alignment(tactic: str, plan: Plan) -> float:
    """1 when the tactic is one the plan calls for, else 0 (an additive bonus in selection)."""
    return 1.0 if tactic.split()[0].rstrip(".") in _ALIGNED.get(plan.strategy, ()) else 0.0
