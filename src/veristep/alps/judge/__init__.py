"""ALPS part 2: the automated judge — chain and construction channels, sealed certificates.

>>> judge("x = y ◇ z", {"chain": ["a", "b"]}).status
'rejected'
"""

from veristep.alps.judge.verdict import JudgeConfig, Verdict, judge

__all__ = ["JudgeConfig", "Verdict", "judge"]
