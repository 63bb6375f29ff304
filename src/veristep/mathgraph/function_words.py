"""Function names spelled in letters: the ones the reader knows, and the ones it refuses.

Both readers use these lists: the plain reader (``plain_words``) turns a known name into its
command, and the LaTeX lexer refuses an unknown one rather than read it as a product of letters.
They live below both so that neither reader imports the other.
"""

from __future__ import annotations

from veristep.mathgraph.vocabulary import ELEMENTARY_FUNCTIONS, OPERATOR_NAMES

# Spelled function names → the parser's command (cosec and friends are British spellings).
FUNCTIONS = {
    **{name: name for name in ELEMENTARY_FUNCTIONS},
    **OPERATOR_NAMES,
    "cosec": "csc", "arccosec": "arccsc", "arctg": "arctan", "tg": "tan", "ctg": "cot",
    "sine": "sin", "cosine": "cos", "tangent": "tan",
}  # fmt: skip
# Function names the graph has no node for: refused, in plain input and in LaTeX alike, rather
# than read as the product of their letters (m·a·x).
UNKNOWN_FUNCTIONS = frozenset({
    "max", "min", "gcd", "lcm", "mod", "round", "det", "lim", "int", "integral", "integrate",
    "diff", "sum", "prod", "arg", "erf", "deg", "frac", "trunc", "sinc", "cotangent",
    "secant", "cosecant", "root", "fact", "factorial", "binom",
    "choose", "ncr", "nCr", "npr", "nPr", "floor", "ceil", "abs", "cbrt", "sqr", "sgn", "sign",
    "exp", "log", "ln",
})  # fmt: skip
# Two-letter names that are products too (R·e^{iθ}, l·g): refused only before a bracket.
BRACKET_ONLY_UNKNOWN = frozenset({"Re", "Im", "lg"})
_LATEX_ONLY_UNKNOWN = UNKNOWN_FUNCTIONS - set(FUNCTIONS) - {"frac", "int", "lim", "sum", "prod"}


def latex_unknown_word(word: str, followed_by_bracket: bool) -> str | None:
    """For the LaTeX reader: why a run of letters cannot be a product, or None.

    ``floor(x)``, ``max(a,b)`` and ``foo(x)`` in LaTeX input would silently become f·l·o²·r·x;
    a run of two letters before a bracket (``xy(x+y)``) stays a product."""
    if word in _LATEX_ONLY_UNKNOWN:
        return f"unknown function {word!r} spelled in letters would be a product of letters"
    if followed_by_bracket and (len(word) >= 3 or word in BRACKET_ONLY_UNKNOWN):
        return f"unknown function {word!r}: letters side by side would be a product"
    return None
