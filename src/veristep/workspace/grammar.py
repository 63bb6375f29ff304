"""The command grammar of the conversational CAS: a phrase a person types → one :class:`Operation`.

Offline and deterministic: each operation kind lists a few regular expressions over the normalised
phrase; the first rule that matches wins. A maths argument ("divide by x − 1", "substitute
u = x + 1") is kept as written, with its column in the phrase, so that a bad argument is reported
where it stands. A phrase that matches nothing is an :class:`InputError` located at the first word
the grammar does not know, with a "did you mean" for a misspelt verb.

>>> parse_command("divide both sides by x - 1")
Operation(kind='divide', text='divide both sides by x - 1', side=None, arg='x - 1', arg_at=21, \
var=None, low=None, high=None)
>>> parse_command("expand the left side").side
'left'
>>> try:
...     parse_command("factr")
... except InputError as err:
...     print(err.headline())
unknown operation 'factr' at column 1 (did you mean factor?)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from veristep.core.errors import InputError, did_you_mean


@dataclass(frozen=True)
class Operation:
    """One structured operation: what to do, on which side, with which maths argument.

    ``arg`` is the maths argument as written (LaTeX or plain), ``arg_at`` its 0-based column in
    ``text``; ``low``/``high`` are the bounds of a definite integral; ``var`` an unknown or the
    variable of differentiation. ``side`` is ``left``/``right`` or None (the whole state).
    """

    kind: str
    text: str
    side: str | None = None
    arg: str | None = None
    arg_at: int | None = None
    var: str | None = None
    low: str | None = None
    high: str | None = None


# Building blocks of the patterns. Maths arguments are captured greedily to the end or up to a
# keyword, and their positions come from the match, so errors can point into the phrase.
_SIDE = (
    r"(?:(?:on\s+|to\s+)?the\s+)?(?P<side>left|right|lhs|rhs|l\.h\.s\.?|r\.h\.s\.?)"
    r"(?:[- ]hand)?(?:[- ]side)?"
)
_BOTH = r"(?:\s+(?:both\s+sides|each\s+side|through|the\s+equation|everything))?"
_OBJ = r"(?:\s+(?:it|this|that|the\s+expression|everything|the\s+equation))?"
_WHERE = rf"(?:\s+{_SIDE})?"
_ARG = r"(?P<arg>.+?)"


def _var(name: str = "var") -> str:
    """A variable name: one letter, optionally subscripted, or a Greek command."""
    return rf"(?P<{name}>[A-Za-z](?:_\{{?\w+\}}?)?|\\[a-z]+)"


def _wrt(name: str) -> str:
    return rf"(?:\s+(?:with\s+respect\s+to|w\.?r\.?t\.?|in|for)\s+{_var(name)})?"


_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # kind, alternative patterns (each matched against the whole normalised phrase, any case);
    # the first kind with a matching alternative wins, so the more specific kinds come first.
    ("complete_square", (rf"complete\s+the\s+square{_WHERE}",)),
    ("simplify_trig", (
        r"simplify\s+(?:the\s+)?trig(?:onometry)?",
        r"apply\s+the\s+pythagorean\s+identity",
        r"use\s+sin\^?2\s*\+\s*cos\^?2\s*=\s*1",
    )),
    ("double_angle", (
        r"(?:apply|use)\s+the\s+double[- ]angle\s+(?:identity|identities|formulas?|formulae)",
        r"expand\s+(?:the\s+)?double\s+angles?",
    )),
    ("expand_trig", (
        r"expand\s+(?:the\s+)?trig(?:onometric)?(?:\s+functions)?",
        r"(?:apply|use)\s+the\s+(?:angle[- ]sum|sum)\s+(?:identity|formulas?)",
    )),
    ("rationalize", (r"rationali[sz]e(?:\s+the\s+denominators?)?",)),
    ("expand_log", (
        r"expand\s+(?:the\s+)?log(?:arithm)?s?",
        r"use\s+(?:the\s+)?log(?:arithm)?\s+(?:rules|laws)",
        r"split\s+the\s+log(?:arithm)?s?",
    )),
    ("combine_log", (r"(?:combine|merge|condense)\s+(?:the\s+)?log(?:arithm)?s?",)),
    ("log_both", (
        r"take\s+(?:the\s+)?(?:natural\s+)?(?:log|logarithm|logs|ln)(?:\s+of)?(?:\s+both\s+sides)?",
        r"log\s+both\s+sides",
    )),
    ("exp_both", (
        r"exponentiate(?:\s+both\s+sides)?",
        r"take\s+(?:the\s+)?exp(?:onential)?\s+of\s+both\s+sides",
    )),
    ("sqrt_both", (r"(?:take\s+(?:the\s+)?)?(?:square[- ]root|sqrt)(?:\s+of)?\s+both\s+sides",)),
    ("square_both", (r"square\s+both\s+sides",)),
    ("power_both", (rf"raise\s+both\s+sides\s+to\s+(?:the\s+)?(?:power\s+(?:of\s+)?)?{_ARG}",)),
    ("reciprocal", (
        r"take\s+(?:the\s+)?reciprocals?(?:\s+of\s+both\s+sides)?",
        r"invert\s+both\s+sides",
        r"flip\s+both\s+fractions",
    )),
    ("cross_multiply", (r"cross[- ]?multiply", r"clear\s+(?:the\s+)?(?:denominators?|fractions)")),
    ("to_one_side", (
        r"(?:move|bring|put)\s+(?:everything|all\s+(?:the\s+)?terms|all)\s+(?:to|on(?:to)?)\s+"
        r"(?:one\s+side|the\s+left(?:[- ]hand)?(?:\s+side)?|lhs)",
        r"(?:set|make)\s+(?:it\s+)?equal\s+to\s+(?:zero|0)",
        r"rearrange\s+to\s+(?:zero|0)",
    )),
    ("swap_sides", (
        r"(?:swap|switch|exchange|flip)\s+(?:the\s+)?(?:two\s+)?sides",
        r"flip\s+the\s+equation",
        r"swap\s+left\s+and\s+right",
    )),
    ("together", (
        rf"combine\s+(?:the\s+)?fractions{_WHERE}",
        rf"put\s+(?:it\s+|everything\s+)?over\s+a\s+common\s+denominator{_WHERE}",
        rf"add\s+the\s+fractions{_WHERE}",
        rf"write\s+as\s+(?:a\s+|one\s+)?single\s+fraction{_WHERE}",
    )),
    ("apart", (
        rf"(?:decompose|split)\s+(?:it\s+)?into\s+partial\s+fractions{_WHERE}",
        rf"partial\s+fractions?(?:\s+decomposition)?{_WHERE}",
    )),
    ("cancel", (rf"cancel(?:\s+(?:the\s+)?common\s+factors)?{_WHERE}",)),
    ("collect", (
        rf"(?:collect|combine|gather|group)\s+(?:the\s+)?(?:like\s+)?terms"
        rf"(?:\s+in\s+{_var()})?{_WHERE}",
    )),
    ("expand", (
        rf"(?:expand|multiply\s+out|distribute|open)"
        rf"(?:\s+the\s+(?:brackets|parentheses|product))?{_OBJ}{_WHERE}",
    )),
    ("factor", (rf"(?:factor(?:i[sz]e)?|factori[sz]e){_OBJ}{_WHERE}(?:\s+completely)?",)),
    ("simplify", (rf"(?:simplify|tidy(?:\s+up)?|clean\s+up){_OBJ}{_WHERE}",)),
    ("evaluate", (
        rf"(?:evaluate|compute|calculate|work\s+out|do\s+the\s+arithmetic){_OBJ}{_WHERE}",
    )),
    ("solve", (
        rf"solve(?:\s+(?:it|the\s+equation|the\s+inequality|this))?(?:\s+for\s+{_var()})?",
        r"find\s+(?:the\s+)?(?:roots|solutions|zeros)",
        rf"find\s+{_var('v2')}",
        rf"isolate\s+{_var('v3')}",
        rf"make\s+{_var('v4')}\s+the\s+subject",
    )),
    ("differentiate", (
        rf"(?:differentiate{_OBJ}|take\s+the\s+derivative(?:\s+of\s+it)?"
        rf"|find\s+the\s+derivative|d/d(?P<v2>[a-z])){_wrt('var')}",
    )),
    ("integrate", (
        rf"(?:integrate{_OBJ}|take\s+the\s+integral|find\s+the\s+(?:anti-?derivative|integral))"
        rf"{_wrt('var')}(?:\s+(?:from|between)\s+(?P<low>.+?)\s+(?:to|and)\s+(?P<high>.+?))?"
        rf"{_wrt('v2')}",
    )),
    ("multiply", (rf"(?:multiply{_BOTH}\s+by|times)\s+{_ARG}",)),
    ("divide", (rf"divide{_BOTH}\s+by\s+{_ARG}",)),
    ("add", (rf"add\s+{_ARG}(?:\s+to\s+(?:both\s+sides|each\s+side))?",)),
    ("subtract", (
        rf"(?:subtract|take\s+away|minus)\s+{_ARG}(?:\s+from\s+(?:both\s+sides|each\s+side))?",
    )),
    ("substitute", (rf"(?:substitute|sub|let|set|plug\s+in|put)\s+{_ARG}",)),
    ("replace", (r"replace\s+(?P<old>.+?)\s+(?:with|by)\s+(?P<arg>.+?)",)),
)  # fmt: skip

# Alternatives of one kind may reuse group names, so each alternative is compiled on its own.
_COMPILED = tuple((kind, re.compile(alt, re.IGNORECASE)) for kind, alts in _RULES for alt in alts)

# Words that start a valid phrase: the candidates of "did you mean".
VERBS: tuple[str, ...] = (
    "simplify", "expand", "factor", "factorise", "collect", "combine", "cancel", "multiply",
    "divide", "add", "subtract", "substitute", "let", "solve", "isolate", "find", "take",
    "square", "raise", "differentiate", "integrate", "complete", "apply", "use", "rationalise",
    "rationalize", "move", "bring", "swap", "flip", "evaluate", "compute", "calculate",
    "cross-multiply", "clear", "replace", "decompose", "exponentiate", "plug", "distribute",
    "tidy", "put", "invert", "set", "make", "rearrange", "split", "merge", "times", "minus",
)  # fmt: skip

_UNICODE = {
    "−": "-", "–": "-", "×": r" \cdot ", "·": r" \cdot ", "÷": "/", "²": "^2", "³": "^3",
    "√": r"\sqrt ", "π": r"\pi ", "≠": r" \ne ", "≤": r" \le ", "≥": r" \ge ", "’": "'",
}  # fmt: skip


def normalise(text: str) -> str:
    """One spacing, ASCII operators, no politeness or final full stop; maths kept as written.

    >>> normalise("  Please divide both sides by  x − 1. ")
    'divide both sides by x - 1'
    """
    out = "".join(_UNICODE.get(ch, ch) for ch in text)
    out = re.sub(r"\s+", " ", out).strip()
    out = re.sub(r"^(?:please|now|then|and|next|ok|okay)[,]?\s+", "", out, flags=re.IGNORECASE)
    out = re.sub(r"\s*(?:,?\s*please)?[.!]*$", "", out, flags=re.IGNORECASE)
    return out.strip()


def parse_command(text: str) -> Operation:
    """The operation a phrase asks for, or an :class:`InputError` located in the phrase."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("empty command: say what to do, e.g. 'factor' or 'solve for x'")
    if len(text) > 500:
        raise InputError("command too long (over 500 characters)", source=text[:500], position=0)
    phrase = normalise(text)
    for kind, pattern in _COMPILED:
        m = pattern.fullmatch(phrase)
        if m is not None:
            return _operation(kind, phrase, m)
    raise _unknown(phrase)


def _operation(kind: str, phrase: str, m: re.Match[str]) -> Operation:
    groups = {k: v for k, v in m.groupdict().items() if v is not None}
    side = _side(groups.get("side"))
    var = next((groups[k] for k in ("var", "v2", "v3", "v4") if k in groups), None)
    arg = groups.get("arg")
    arg_at = m.start("arg") if arg is not None else None
    if kind == "replace":  # "replace x+1 with u" is the substitution u = x + 1 read backwards
        old = groups["old"]
        return Operation("substitute", phrase, None, f"{old} = {arg}", m.start("old"))
    if arg is not None and not arg.strip():
        raise InputError(f"'{kind}' needs a maths argument", source=phrase, position=len(phrase))
    return Operation(kind, phrase, side, arg, arg_at, var, groups.get("low"), groups.get("high"))


def _side(word: str | None) -> str | None:
    if word is None:
        return None
    return "left" if word.lower().startswith(("l", "lhs")) else "right"


def _unknown(phrase: str) -> InputError:
    """Locate the failure: an unknown first word gets a "did you mean"; a known verb whose phrase
    did not fit gets the usage of that verb."""
    first = re.match(r"[A-Za-z-]+", phrase)
    if first is None:
        return InputError("a command starts with what to do (e.g. 'factor')", source=phrase,
                          position=0, length=1)  # fmt: skip
    word = first.group(0).lower()
    if word not in VERBS:
        return InputError(
            f"unknown operation {word!r}", source=phrase, position=0, length=len(word),
            hint=did_you_mean(word, VERBS, cutoff=0.6),
        )  # fmt: skip
    usage = USAGE.get(word)
    hint = f"'{usage}'" if usage else None
    tail = phrase[len(word) :].lstrip()
    at = len(phrase) - len(tail) if tail else len(phrase)
    return InputError(
        f"cannot read this '{word}' command", source=phrase, position=at,
        length=max(1, len(tail)), hint=hint,
    )  # fmt: skip


USAGE: dict[str, str] = {
    "multiply": "multiply both sides by a",
    "times": "times 3",
    "divide": "divide both sides by x - 1",
    "add": "add 3 to both sides",
    "subtract": "subtract 2x from both sides",
    "minus": "minus 4",
    "substitute": "substitute u = x + 1",
    "let": "let u = x + 1",
    "set": "set x = 0",
    "plug": "plug in x = 2",
    "solve": "solve for x",
    "isolate": "isolate y",
    "find": "find x",
    "take": "take the square root of both sides",
    "square": "square both sides",
    "raise": "raise both sides to the power 3",
    "differentiate": "differentiate with respect to x",
    "integrate": "integrate from 0 to 1",
    "complete": "complete the square",
    "apply": "apply the double-angle identity",
    "use": "use the double angle formula",
    "move": "move everything to the left side",
    "bring": "bring all terms to one side",
    "swap": "swap sides",
    "replace": "replace x + 1 with u",
    "expand": "expand the left side",
    "factor": "factor the right side",
    "simplify": "simplify the left side",
    "collect": "collect like terms in x",
    "combine": "combine like terms",
    "cancel": "cancel common factors",
    "make": "make y the subject",
    "clear": "clear the denominators",
}
