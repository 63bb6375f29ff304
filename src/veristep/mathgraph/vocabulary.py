"""The whitelist: every LaTeX command the parser knows, grouped by what it means.

Anything not listed here is an error with a "did you mean" hint; nothing becomes a symbol silently.
"""

from __future__ import annotations

GREEK = frozenset((
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
    "vartheta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "rho", "varrho",
    "sigma", "varsigma", "tau", "upsilon", "phi", "varphi", "chi", "psi", "omega", "Gamma",
    "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega", "ell"
))  # fmt: skip

# \pi is the constant; a Greek letter used as a variable is any other name above.
CONSTANT_COMMANDS = {"pi": "pi", "infty": "infty"}

ELEMENTARY_FUNCTIONS = frozenset((
    "sin", "cos", "tan", "sec", "csc", "cot", "arcsin", "arccos", "arctan", "arcsec",
    "arccsc", "arccot", "sinh", "cosh", "tanh", "sech", "csch", "coth", "arsinh", "arcosh",
    "artanh", "ln", "log", "exp"
))  # fmt: skip

# \operatorname{...} names SymPy's printer uses, mapped to our function names.
OPERATOR_NAMES = {
    "asin": "arcsin", "acos": "arccos", "atan": "arctan", "acot": "arccot", "asec": "arcsec",
    "acsc": "arccsc", "asinh": "arsinh", "acosh": "arcosh", "atanh": "artanh", "sign": "sgn",
    "sgn": "sgn", "arcsinh": "arsinh", "arccosh": "arcosh", "arctanh": "artanh",
}  # fmt: skip

FUNCTION_NAMES = ELEMENTARY_FUNCTIONS | {"sgn"}

RELATIONS = {
    "=": "=", "<": "<", ">": ">", "ne": "ne", "neq": "ne", "le": "le", "leq": "le",
    "leqslant": "le", "ge": "ge", "geq": "ge", "geqslant": "ge", "approx": "approx", "in": "in",
    "notin": "notin",
}  # fmt: skip

CONNECTIVES = {
    "lor": ("or", "lor"), "vee": ("or", "vee"), "land": ("and", "land"), "wedge": ("and", "wedge"),
    "Rightarrow": ("implies", "Rightarrow"), "implies": ("implies", "implies"),
    "Longrightarrow": ("implies", "Longrightarrow"), "Leftrightarrow": ("iff", "Leftrightarrow"),
    "iff": ("iff", "iff"), "Longleftrightarrow": ("iff", "Longleftrightarrow"),
    "neg": ("not", "neg"), "lnot": ("not", "lnot"),
}  # fmt: skip

# Words allowed inside \text{...}: the connective they stand for. "for"/"where"/"with" attach a
# condition to a statement, which is a conjunction.
CONNECTIVE_WORDS = {
    "or": "or", "and": "and", "for": "and", "where": "and", "with": "and", "if and only if": "iff",
    "iff": "iff", "implies": "implies", "then": "implies", "not": "not",
}  # fmt: skip

# Spacing and sizing commands carry no meaning: \Big( is (.
SPACING = frozenset((
    ",", ";", "!", ":", " ", ">", "quad", "qquad", "displaystyle", "limits", "nolimits",
    "textstyle", "enspace", "thinspace", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl",
    "Bigr", "biggl", "biggr", "Biggl", "Biggr",
))  # fmt: skip

# Logical constants: \top is true, \bot is false (Booleans, never symbols).
BOOL_COMMANDS = frozenset({"top", "bot"})

SETS = {"R": "R", "N": "N", "Z": "Z", "Q": "Q", "C": "C"}

# Known-but-refused commands get a reason instead of a spelling hint.
REFUSED = {
    "dots": "an ellipsis is not a single mathematical object",
    "ldots": "an ellipsis is not a single mathematical object",
    "cdots": "an ellipsis is not a single mathematical object",
    "vdots": "an ellipsis is not a single mathematical object",
    "ddots": "an ellipsis is not a single mathematical object",
}

# Every command the parser accepts somewhere; used for "did you mean".
KNOWN_COMMANDS = (
    GREEK
    | set(CONSTANT_COMMANDS)
    | ELEMENTARY_FUNCTIONS
    | {k for k in RELATIONS if k.isalpha()}
    | set(CONNECTIVES)
    | {w for w in SPACING if w.isalpha()}
    | {
        "frac", "dfrac", "tfrac", "sqrt", "cdot", "times", "div", "pm", "mp", "left", "right",
        "lfloor", "rfloor", "lceil", "rceil", "lvert", "rvert", "vert", "binom", "dbinom", "tbinom",
        "choose", "int", "lim", "sum", "prod", "partial", "to", "rightarrow", "begin", "end",
        "text", "mathrm", "mathbf", "mathbb", "operatorname", "emptyset", "varnothing", "cr",
        "mbox", "textrm", "rm", "mathit", "top", "bot", "star", "cup",
    }
)  # fmt: skip

UNICODE = {
    "±": r"\pm", "∓": r"\mp", "≤": r"\le", "≥": r"\ge", "≠": r"\ne", "≈": r"\approx", "·": r"\cdot",
    "×": r"\times", "÷": r"\div", "π": r"\pi", "∞": r"\infty", "∨": r"\lor", "∧": r"\land",
    "¬": r"\neg", "⇒": r"\Rightarrow", "⇔": r"\Leftrightarrow", "−": "-", "→": r"\to",
    "√": r"\sqrt", "∈": r"\in",
}  # fmt: skip
