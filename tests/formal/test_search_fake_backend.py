"""ProofSearch mechanics against a FAKE backend (a scripted state machine, no Coq): phase order,
negatives injected into phase 2, strict confirmation as the last word, budgets."""

from __future__ import annotations

from dataclasses import dataclass, field

from veristep.formal.backends.base import Attempt, OpenGoal, StrictVerdict, Theorem
from veristep.formal.portfolio import PORTFOLIO
from veristep.formal.search import ProofSearch
from veristep.formal.signals import FailureKind, Signals

THEOREM = Theorem("f", "", "Theorem f : forall n : nat, n = n.")
GOAL = "1 goal\n  ============================\n  forall n : nat, n = n\n"
AFTER_INTROS = "1 goal\n  n : nat\n  ============================\n  n = n\n"


@dataclass
class FakeBackend:
    """Whole proofs in ``good_scripts`` succeed; tactics follow ``steps`` (path -> goals text)."""

    good_scripts: set[str] = field(default_factory=set)
    steps: dict[tuple[str, ...], str] = field(default_factory=dict)
    confirm_ok: bool = True
    name: str = "fake"
    calls: int = 0
    checked: list[str] = field(default_factory=list)
    confirmed: list[str] = field(default_factory=list)

    def check_batch(self, theorem: Theorem, proofs: list[str]) -> list[Attempt]:
        out = []
        for proof in proofs:
            self.calls += 1
            self.checked.append(proof)
            ok = proof in self.good_scripts
            sig = (
                Signals(True, True, 1, 0, True) if ok else Signals.failed(FailureKind.TACTIC, "no")
            )
            out.append(Attempt(proof, sig))
        return out

    def open_proof(self, theorem: Theorem) -> OpenGoal:
        return OpenGoal(1, GOAL, 1)

    def apply(self, theorem: Theorem, path: list[str], tactic: str, goals_before: int) -> Attempt:
        self.calls += 1
        goals = self.steps.get((*path, tactic))
        if goals is None:
            return Attempt(tactic, Signals.failed(FailureKind.TACTIC, "fails", goals_before))
        after = 0 if goals == "No more goals." else 1
        return Attempt(tactic, Signals(True, True, goals_before, after, False, goals_text=goals))

    def confirm(self, theorem: Theorem, proof: str) -> StrictVerdict:
        self.confirmed.append(proof)
        return StrictVerdict(self.confirm_ok, "fake verdict")

    def close(self) -> None:
        pass


def test_portfolio_is_checked_first_and_wins() -> None:
    backend = FakeBackend(good_scripts={"intros; lia.", "intros; firstorder."})
    result = ProofSearch(THEOREM, backend, budget_s=10).run()
    assert result.solved and result.phase == "portfolio" and result.proof == "intros; lia."
    assert backend.checked == list(PORTFOLIO[: PORTFOLIO.index("intros; lia.") + 1])


def test_phase_two_finds_a_path_after_phase_one_fails() -> None:
    steps = {("intros.",): AFTER_INTROS, ("intros.", "reflexivity."): "No more goals."}
    backend = FakeBackend(steps=steps)
    result = ProofSearch(THEOREM, backend, budget_s=10, mcts_iterations=10).run()
    assert result.solved and result.phase == "mcts"
    assert result.proof == "intros.\nreflexivity."
    assert set(PORTFOLIO) <= set(backend.checked)  # phase 1 ran in full before the tree
    assert result.failures["tactic"] > 0  # failure classes by signal are reported


def test_a_proof_strict_checking_refuses_is_never_counted() -> None:
    backend = FakeBackend(good_scripts={"intros; lia."}, confirm_ok=False)
    result = ProofSearch(THEOREM, backend, budget_s=5, mcts_iterations=3).run()
    assert not result.solved and result.proof is None
    assert "intros; lia." in backend.confirmed


def test_no_phase_two_without_iterations() -> None:
    steps = {("intros.",): AFTER_INTROS, ("intros.", "reflexivity."): "No more goals."}
    result = ProofSearch(THEOREM, FakeBackend(steps=steps), mcts_iterations=0).run()
    assert not result.solved and result.mcts_iterations == 0


def test_a_tactic_that_failed_on_a_goal_is_not_retried_on_the_same_goal_elsewhere() -> None:
    # Two different first moves reach the same goal; what failed there once is not tried again.
    steps = {("intros.",): AFTER_INTROS, ("intro n.",): AFTER_INTROS}
    tried: list[tuple[str, str]] = []

    class Recording(FakeBackend):
        def apply(self, theorem, path, tactic, goals_before):  # type: ignore[override]
            attempt = super().apply(theorem, path, tactic, goals_before)
            if not attempt.signals.ok:
                tried.append((self.steps.get(tuple(path), GOAL), tactic))
            return attempt

    search = ProofSearch(THEOREM, Recording(steps=steps), budget_s=10, mcts_iterations=8)
    search.run()
    assert search.failed_on_goal and tried
    assert len(tried) == len(set(tried))  # no (goal, failing tactic) pair paid for twice


def test_deterministic_candidates_run_before_the_model_dummylm() -> None:
    import pytest

    dummies = pytest.importorskip("dspy.utils.dummies")
    from veristep.formal.agents import Critic, Retriever, Strategist, Tactician
    from veristep.formal.search import Agents

    lm = dummies.DummyLM([{"proofs": ["intros; reflexivity."]}] * 5)
    agents = Agents(Strategist(), Retriever(), Critic(), Tactician(lm))
    backend = FakeBackend(good_scripts={"intros; lia."})
    result = ProofSearch(THEOREM, backend, agents, budget_s=10).run()
    assert result.solved and result.phase == "portfolio"
    assert agents.tactician.trace.model_calls == 0 and not lm.history  # never asked


@dataclass
class _Scripted(FakeBackend):
    """Tactics in ``errors`` fail with that (kind, Coq message) instead of a bare tactic error."""

    errors: dict[str, tuple[FailureKind, str]] = field(default_factory=dict)

    def apply(self, theorem, path, tactic, goals_before):  # type: ignore[override]
        self.calls += 1
        if tactic in self.errors:
            kind, message = self.errors[tactic]
            return Attempt(tactic, Signals.failed(kind, message, goals_before))
        return super().apply(theorem, path, tactic, goals_before)


def _search_offering(backend: FakeBackend, first: list[str], lemmas: list[str]) -> ProofSearch:
    from veristep.formal.agents import Tactician
    from veristep.formal.retriever import Lemma, LemmaIndex
    from veristep.formal.search import Agents

    class Offering(Tactician):
        def tactics(self, state, plan, lemmas, k, advice=""):  # type: ignore[override]
            return list(first)

    agents = Agents(tactician=Offering())
    agents.retriever.index = LemmaIndex([Lemma(name, "forall n : nat, n = n") for name in lemmas])
    return ProofSearch(THEOREM, backend, agents, budget_s=10, mcts_iterations=1, expansion_k=4)


def test_an_unknown_lemma_name_is_repaired_to_the_nearest_real_one_at_the_same_node() -> None:
    """VERITAS feeds Coq's error back to its model; offline the error itself shapes the next
    candidate: the name Coq did not find becomes the nearest name of the lemma index."""
    backend = _Scripted(steps={("apply eq_refl_nat.",): "No more goals."})
    backend.errors = {
        "apply eq_refl_nats.": (
            FailureKind.UNKNOWN_REFERENCE,
            "The reference eq_refl_nats was not found in the current environment.",
        )
    }
    search = _search_offering(backend, ["apply eq_refl_nats."], ["eq_refl_nat", "plus_n_O"])
    result = search.run()
    assert result.solved and result.phase == "mcts"
    assert result.proof == "apply eq_refl_nat."


def test_a_unification_failure_of_apply_is_retried_as_eapply() -> None:
    backend = _Scripted(steps={("eapply f_equal.",): "No more goals."})
    backend.errors = {"apply f_equal.": (FailureKind.TYPE, "Unable to unify")}
    result = _search_offering(backend, ["apply f_equal."], []).run()
    assert result.solved and result.proof == "eapply f_equal."


def test_without_an_error_there_is_no_repair() -> None:
    """A tactic that fails for another reason (a decision procedure gave up) is not rewritten."""
    backend = _Scripted(steps={("eapply f_equal.",): "No more goals."})
    backend.errors = {"apply f_equal.": (FailureKind.TACTIC, "Tactic failure")}
    result = _search_offering(backend, ["apply f_equal."], []).run()
    assert not result.solved


def test_on_attempt_hears_every_attempt_with_its_phase_as_it_is_judged() -> None:
    steps = {("intros.",): AFTER_INTROS, ("intros.", "reflexivity."): "No more goals."}
    backend = FakeBackend(steps=steps)
    heard: list[tuple[str, str, int]] = []
    search = ProofSearch(THEOREM, backend, budget_s=10, mcts_iterations=10)
    search.on_attempt = lambda phase, a: heard.append((phase, a.text, len(search.attempts)))
    result = search.run()
    assert result.phase == "mcts"
    # One event per recorded attempt, in order, each sent right after it was recorded.
    assert [text for _, text, _ in heard] == [a.text for a in search.attempts]
    assert [n for _, _, n in heard] == list(range(1, len(search.attempts) + 1))
    phases = [phase for phase, _, _ in heard]
    assert phases[: len(PORTFOLIO)] == ["portfolio"] * len(PORTFOLIO)
    assert phases[-1] == "mcts" and heard[-1][1] == "reflexivity."
