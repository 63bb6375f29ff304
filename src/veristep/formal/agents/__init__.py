"""The four agents of the search. Each is a DSPy program when given a model, rules without one."""

from veristep.formal.agents.critic import Critic
from veristep.formal.agents.lm import AgentTrace
from veristep.formal.agents.retrieval import Retriever
from veristep.formal.agents.strategist import STRATEGIES, Plan, Strategist
from veristep.formal.agents.tactician import Tactician

__all__ = ["STRATEGIES", "AgentTrace", "Critic", "Plan", "Retriever", "Strategist", "Tactician"]
