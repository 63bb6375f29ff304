"""Runs of letters in typed maths: function names, constants, connectives, products, refusals.

A run of letters is read as the words it contains, then single letters: ``sinx`` is sin x,
``2pir`` is 2·π·r, ``xy`` is x·y. A word the reader does not know is never a product of its
letters: ``max(a, b)``, ``floor`` without brackets, ``area`` and ``foo(x)`` are refused with
their position.

>>> [t.text for t in letter_run("xsinx", 0, 5)]
['x', '\\\\sin', 'x']
>>> [t.text for t in letter_run("pi", 0, 2)]
['\\\\pi']
"""

from __future__ import annotations

from veristep.mathgraph.errors import LatexParseError
from veristep.mathgraph.function_words import BRACKET_ONLY_UNKNOWN, FUNCTIONS, UNKNOWN_FUNCTIONS
from veristep.mathgraph.lexer import Token
from veristep.mathgraph.vocabulary import GREEK

# Words with a construct of their own; the plain lexer brackets their argument.
BRACKET_WORDS = frozenset({"floor", "ceil", "abs", "cbrt"})
CONSTANTS = {"pi": "\\pi", "inf": "\\infty", "infinity": "\\infty", "infty": "\\infty",
             "oo": "\\infty"}  # fmt: skip
CONNECTIVES = {"or": ("text", "or"), "and": ("text", "and"), "not": ("text", "not"),
               "iff": ("cmd", "\\iff"), "implies": ("cmd", "\\Rightarrow"),
               "in": ("cmd", "\\in")}  # fmt: skip
# Words people type around the maths: the reader does not guess a meaning for them.
PROSE = frozenset({
    "so", "is", "if", "then", "let", "the", "we", "get", "thus", "hence", "therefore", "when",
    "where", "for", "of", "to", "solve", "simplify", "factor", "factorise", "factorize",
    "expand", "plot", "find", "evaluate", "answer", "ans", "sol", "solution", "because", "since",
    "with", "all", "any", "undefined", "none", "no", "yes", "true", "false", "or", "and", "not",
})  # fmt: skip
_SPLITTABLE = sorted(
    [w for w in FUNCTIONS if len(w) >= 3] + ["ln", "pi", "sqrt"], key=len, reverse=True
)


def letter_run(source: str, i: int, j: int) -> list[Token]:
    """The tokens for the letters ``source[i:j]`` (a maximal run of ASCII letters)."""
    word = source[i:j]
    whole = _whole_word(source, word, i, j)
    if whole is not None:
        return whole
    if word in UNKNOWN_FUNCTIONS or word.lower() in PROSE - {"or", "and", "not"}:
        _refuse_word(source, word, i, j)
    if word in BRACKET_ONLY_UNKNOWN and _bracket_follows(source, j):
        _refuse_word(source, word, i, j)
    out: list[Token] = []
    k = i
    letters = 0  # length of the current segment of single letters
    while k < j:
        found = next((w for w in _SPLITTABLE if source.startswith(w, k) and k + len(w) <= j), None)
        if found is None:
            out.append(Token("letter", source[k], k, k + 1))
            letters += 1
            k += 1
            continue
        _check_segment(source, k - letters, k, letters, run=(i, j))
        letters = 0
        out.append(_word_token(found, k, k + len(found)))
        k += len(found)
    _check_segment(source, j - letters, j, letters, last=True, run=(i, j))
    if len(out) < j - i:  # a word was found: "second" is not sec(o·n·d), "xsinx" is x·sin x
        _refuse_wordlike(source, i, j, out)
    _refuse_glued_digit(source, out[-1], j)
    return out


def _refuse_wordlike(source: str, i: int, j: int, out: list[Token]) -> None:
    """Three or more single letters beside a function name look like an English word."""
    run = 0
    for tok in [*out, Token("cmd", "", j, j)]:
        if tok.kind == "letter":
            run += 1
            continue
        if run >= 3:
            word = source[i:j]
            raise LatexParseError(f"{word!r} is not a name the reader knows", source=source,
                                  position=i, length=j - i)  # fmt: skip
        run = 0


def _whole_word(source: str, word: str, i: int, j: int) -> list[Token] | None:
    if word in CONNECTIVES:
        kind, text = CONNECTIVES[word]
        if kind == "text":
            return [Token("text", "\\text", i, j, text)]
        return [Token("cmd", text, i, j)]
    if word in BRACKET_WORDS:
        return [Token("word", word, i, j)]
    if word in CONSTANTS or word in GREEK or word in FUNCTIONS or word == "sqrt":
        tok = _word_token(word, i, j)
        _refuse_glued_digit(source, tok, j)
        return [tok]
    return None


def _word_token(word: str, i: int, j: int) -> Token:
    if word in CONSTANTS:
        return Token("cmd", CONSTANTS[word], i, j)
    if word in FUNCTIONS:
        return Token("cmd", "\\" + FUNCTIONS[word], i, j)
    return Token("cmd", "\\" + word, i, j)  # a Greek letter or sqrt


def _check_segment(
    source: str, start: int, end: int, letters: int, last: bool = False,
    run: tuple[int, int] | None = None,
) -> None:  # fmt: skip
    """Single letters side by side are a product (``xy``, ``abc``), but not a word."""
    if letters >= 4:
        i, j = run if run is not None and run != (start, end) else (start, end)
        word = source[i:j]
        hint = " ".join(word) if (i, j) == (start, end) and letters <= 6 else None
        raise LatexParseError(f"{word!r} is not a name the reader knows (letters side by side "
                              "are multiplied)", source=source, position=i, length=j - i,
                              hint=hint)  # fmt: skip
    if last and letters >= 3 and _bracket_follows(source, end):
        _refuse_word(source, source[start:end], start, end)


def _bracket_follows(source: str, j: int) -> bool:
    rest = source[j:].lstrip(" ")
    return rest.startswith("(")


def _refuse_word(source: str, word: str, i: int, j: int) -> None:
    if word.lower() in PROSE:
        raise LatexParseError(
            f"the word {word!r} is not maths the reader can check (type the statements only)",
            source=source,
            position=i,
            length=j - i,
        )
    hint = {"floor": "floor(x)", "ceil": "ceil(x)", "abs": "abs(x) or |x|", "cbrt": "cbrt(x)",
            "sine": "sin", "cosine": "cos", "tangent": "tan", "root": "sqrt(x)",
            "sqr": "x^2", "fact": "n!", "factorial": "n!", "deg": "radians: 30 deg = pi/6",
            "sign": "sgn(x)", "lg": "log_10(x)"}.get(word)  # fmt: skip
    raise LatexParseError(f"unknown function {word!r}: the reader does not know it, and letters "
                          "side by side would be a product", source=source, position=i,
                          length=j - i, hint=hint)  # fmt: skip


def _refuse_glued_digit(source: str, tok: Token, j: int) -> None:
    """``x2`` (x₂? x²? 2x?) and ``log2(x)`` (base 2 or log(2x)?) are refused; ``sin2x`` is fine."""
    if j >= len(source) or source[j] not in "0123456789":
        return
    k = j
    while k < len(source) and source[k] in "0123456789":
        k += 1
    if tok.kind == "cmd" and tok.text == "\\log" and k < len(source) and source[k] == "(":
        return  # log2(x), log10(x): the base, as in programming languages and calculators
    if tok.kind == "cmd" and tok.text in ("\\log",):
        raise LatexParseError("log followed by a number is ambiguous (a base, or a factor?)",
                              source=source, position=tok.pos, length=k - tok.pos,
                              hint=f"log_{source[j:k]}(x) or log({source[j:k]}x)")  # fmt: skip
    if tok.kind == "cmd" and tok.text.lstrip("\\") in FUNCTIONS.values():
        return
    name = source[tok.pos : j]
    raise LatexParseError(f"{source[tok.pos:k]!r} is ambiguous (a name with an index, a power, "
                          "or a product?)", source=source, position=tok.pos, length=k - tok.pos,
                          hint=f"{name}_{source[j:k]}, {name}^{source[j:k]} or "
                               f"{source[j:k]}{name}")  # fmt: skip
