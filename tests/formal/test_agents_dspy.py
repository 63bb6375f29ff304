"""The four agents as DSPy programs, driven by dspy's scripted DummyLM (no network, no model)."""

from __future__ import annotations

import pytest

from veristep.formal.agents import Critic, Plan, Retriever, Strategist, Tactician
from veristep.formal.backends.base import Attempt
from veristep.formal.portfolio import PORTFOLIO
from veristep.formal.retriever import Lemma, LemmaIndex
from veristep.formal.signals import FailureKind, Signals
from veristep.formal.state import THEOREM_EXAMPLE, ProofState

DummyLM = pytest.importorskip("dspy.utils.dummies").DummyLM

GOALS = "1 goal\n  n : nat\n  H : n > 2\n  ============================\n  n * n > 4\n"


def _state() -> ProofState:
    state = ProofState.from_goals(THEOREM_EXAMPLE, GOALS)
    failure = Signals.failed(FailureKind.TACTIC, "Error: Tactic failure: Cannot find witness.")
    state.negatives.append(Attempt("intros; lia.", failure))
    return state


def test_strategist_dummylm_answer_is_used() -> None:
    strategist = Strategist(DummyLM([{"strategy": "induction", "depth": "4"}]))
    assert strategist.plan(_state()) == Plan("induction", 4, "model")
    assert strategist.trace.model_calls == 1


def test_strategist_dummylm_unknown_strategy_falls_back_visibly() -> None:
    strategist = Strategist(DummyLM([{"strategy": "magic", "depth": "2"}]))
    plan = strategist.plan(_state())
    assert plan.source == "rules"
    assert strategist.trace.fallbacks == 1 and "magic" in strategist.trace.last_error


def test_strategist_dummylm_exhausted_model_falls_back() -> None:
    strategist = Strategist(DummyLM([]))
    assert strategist.plan(_state()).source == "rules"
    assert strategist.trace.sources == ["fallback"]


def test_tactician_dummylm_tactics_filtered_and_negatives_in_prompt() -> None:
    lm = DummyLM([{"tactics": ["nia.", "admit.", "intros. lia.", "```coq\nnra.\n```"]}])
    tactics = Tactician(lm).tactics(_state(), Plan("direct", 1), [], k=4)
    assert tactics[:2] == ["nia.", "nra."]  # model first; admit and a two-sentence step dropped
    assert "admit." not in tactics and "intros. lia." not in tactics
    prompt = str(lm.history[-1]["messages"])
    assert "Cannot find witness" in prompt  # the failure is shown to the model as a negative


def test_tactician_dummylm_whole_proofs_keep_the_portfolio_first() -> None:
    lm = DummyLM(
        [{"proofs": ["Proof. intros; nia. Qed.", "intros. Admitted.", "intros; psatz R 3."]}]
    )
    proofs = Tactician(lm).whole_proofs(
        ProofState(THEOREM_EXAMPLE, "", 1), Plan("direct", 1), [], n=40
    )
    assert proofs[: len(PORTFOLIO)] == list(PORTFOLIO)  # the monotonicity anchor
    assert "intros; psatz R 3." in proofs
    assert not any("Admitted" in p for p in proofs)


def test_retriever_dummylm_rerank_cannot_invent_names() -> None:
    index = LemmaIndex(
        [
            Lemma(
                "Nat.mul_le_mono",
                "forall n m p q : nat, n <= m -> p <= q -> n * p <= m * q",
                "PeanoNat.Nat",
            ),
            Lemma("Nat.add_comm", "forall n m : nat, n + m = m + n", "PeanoNat.Nat"),
        ]
    )
    lm = DummyLM([{"chosen": ["Invented.lemma", "Nat.mul_le_mono"]}])
    lemmas = Retriever(index, lm, k=2).lemmas(_state())
    assert lemmas[0].name == "Nat.mul_le_mono"
    assert all(lem.name != "Invented.lemma" for lem in lemmas)


def test_critic_dummylm_advice_and_rule_value() -> None:
    critic = Critic(DummyLM([{"value": "0.3", "advice": "try nia after destructing H"}]))
    assert critic.advise(_state()) == "try nia after destructing H"
    closed = Signals(True, True, 1, 0, False)
    opened = Signals(True, True, 1, 3, False)
    assert critic.value(closed, 1, 10) == 1.0
    assert critic.value(opened, 1, 10) < critic.value(Signals(True, True, 1, 1, False), 1, 10)
    assert critic.value(Signals.failed(FailureKind.TYPE, "x"), 1, 10) == 0.0


def test_offline_agents_need_no_model() -> None:
    state = _state()
    plan = Strategist().plan(state)
    assert plan.source == "rules"
    assert Tactician().tactics(state, plan, [], k=3)
    assert "nonlinear" in Critic().advise(state)
