"""ALPS: equational laws over magmas — terms, ETP numbering, generator, finite models, provers,
screening and dedup. The public surface is small; the modules hold the details.

>>> from veristep.alps import parse_law, etp_id
>>> etp_id(parse_law("x = y * ((x * (y * (z * z))) * y)"))
12857
"""

from veristep.alps.etp import etp_id, law_from_id
from veristep.alps.terms import Law, Op, Var, canonical, dual, parse_law, parse_term

__all__ = [
    "Law",
    "Op",
    "Var",
    "canonical",
    "dual",
    "etp_id",
    "law_from_id",
    "parse_law",
    "parse_term",
]
