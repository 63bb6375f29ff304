"""LaTeX → tokens. Positions are kept so that every later error can point at the source.

>>> [t.text for t in tokenize(r"2x^{10}\\,+\\sin\\left(y\\right)")]
['2', 'x', '^', '{', '10', '}', '+', '\\\\sin', '\\\\left', '(', 'y', '\\\\right', ')']
>>> [(t.kind, t.arg) for t in tokenize(r"x=1 {\\text{ or }} x=2") if t.kind == "text"]
[('text', 'or')]
"""

from __future__ import annotations

from dataclasses import dataclass

from veristep.mathgraph.errors import LatexParseError
from veristep.mathgraph.function_words import latex_unknown_word
from veristep.mathgraph.vocabulary import ELEMENTARY_FUNCTIONS, SPACING, UNICODE

# Commands whose braced argument is raw text rather than mathematics.
TEXT_COMMANDS = frozenset({"text", "mbox", "textrm", "mathrm", "mathbf", "mathbb", "operatorname",
                           "mathit", "rm"})  # fmt: skip
_ENVIRONMENT = frozenset({"\\begin", "\\end"})
# Words that mean something when spelled in letters, and what to write instead.
SPELLED_WORDS = {
    **{name: f"\\{name}" for name in ELEMENTARY_FUNCTIONS},
    "pi": "\\pi", "lim": "\\lim", "sqrt": "\\sqrt", "infty": "\\infty", "or": "\\text{or}",
    "and": "\\text{and}", "iff": "\\iff", "if": "\\text{if}", "then": "\\Rightarrow",
    "for": "\\text{for}", "where": "\\text{where}", "not": "\\neg",
}  # fmt: skip
MAX_DIGITS = 1000  # Python refuses int() of very long strings; no real step needs more
_PUNCT = set("+-*/=<>()[]{}^_!'|,&.:;?")


@dataclass(frozen=True, slots=True)
class Token:
    """kind: "cmd" (``\\name``), "letter", "number", "char", "text" (``\\text{..}`` and friends)."""

    kind: str
    text: str
    pos: int
    end: int
    arg: str = ""  # for "text" tokens: the command's raw argument, stripped

    @property
    def name(self) -> str:
        """A command's name without the backslash."""
        return self.text[1:] if self.kind == "cmd" else self.text


def tokenize(source: str) -> list[Token]:
    """Split ``source`` into tokens; spacing commands and whitespace are dropped."""
    tokens: list[Token] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch.isspace() or ch == "~":
            i += 1
        elif ch == "\\":
            i = _command(source, i, tokens)
        elif ch.isdigit() or (ch == "." and i + 1 < n and source[i + 1].isdigit()):
            j = i
            while j < n and source[j].isdigit():
                j += 1
            if j < n and source[j] == "." and j + 1 < n and source[j + 1].isdigit():
                j += 1
                while j < n and source[j].isdigit():
                    j += 1
            if j - i > MAX_DIGITS:
                raise LatexParseError(f"number literal longer than {MAX_DIGITS} digits",
                                      source=source, position=i, length=j - i)  # fmt: skip
            tokens.append(Token("number", source[i:j], i, j))
            i = j
        elif ch.isascii() and ch.isalpha():
            tokens.append(Token("letter", ch, i, i + 1))
            i += 1
        elif ch in _PUNCT:
            tokens.append(Token("char", ch, i, i + 1))
            i += 1
        elif ch in UNICODE:
            spelled = UNICODE[ch]
            kind = "cmd" if spelled.startswith("\\") else "char"
            tokens.append(Token(kind, spelled, i, i + 1))
            i += 1
        else:
            raise LatexParseError(f"unexpected character {ch!r}", source=source, position=i)
    _check_braces(source, tokens)
    _refuse_spelled_words(source, tokens)
    return _collapse_braced_text(tokens)


def _command(source: str, i: int, tokens: list[Token]) -> int:
    n = len(source)
    j = i + 1
    if j < n and source[j].isascii() and source[j].isalpha():
        while j < n and source[j].isascii() and source[j].isalpha():
            j += 1
    elif j < n:
        j += 1
    else:
        raise LatexParseError("a lone backslash", source=source, position=i)
    name = source[i + 1 : j]
    if name in SPACING:
        return j
    if name in TEXT_COMMANDS:
        return _text_argument(source, i, j, name, tokens)
    tokens.append(Token("cmd", "\\" + name, i, j))
    return j


def _text_argument(source: str, start: int, j: int, name: str, tokens: list[Token]) -> int:
    """``\\text{...}`` and friends carry raw text; ``{\\rm word}`` runs to the closing brace."""
    n = len(source)
    if name == "rm":
        k = j
        while k < n and source[k] != "}":
            k += 1
        tokens.append(Token("text", "\\rm", start, k, " ".join(source[j:k].split())))
        return k
    k = j
    while k < n and source[k].isspace():
        k += 1
    if k < n and source[k].isascii() and source[k].isalnum() and name != "text":
        # \mathrm d: a single-character argument without braces
        tokens.append(Token("text", "\\" + name, start, k + 1, source[k]))
        return k + 1
    if k >= n or source[k] != "{":
        raise LatexParseError(f"\\{name} needs a braced argument", source=source, position=start,
                              length=j - start)  # fmt: skip
    depth, m = 0, k
    while m < n:
        if source[m] == "{":
            depth += 1
        elif source[m] == "}":
            depth -= 1
            if depth == 0:
                break
        m += 1
    if m >= n:
        raise LatexParseError("unbalanced braces: '{' is never closed", source=source, position=k)
    raw = source[k + 1 : m]
    tokens.append(Token("text", "\\" + name, start, m + 1, " ".join(raw.split())))
    return m + 1


def _refuse_spelled_words(source: str, tokens: list[Token]) -> None:
    """``sin x``, ``x=1 or 2``, ``pi``: words spelled in letters would silently become products."""
    i = 0
    while i < len(tokens):
        j = i
        while (
            j + 1 < len(tokens)
            and tokens[j].kind == tokens[j + 1].kind == "letter"
            and tokens[j].end == tokens[j + 1].pos
        ):
            j += 1
        word = "".join(t.text for t in tokens[i : j + 1])
        environment = i >= 2 and tokens[i - 1].text == "{" and tokens[i - 2].text in _ENVIRONMENT
        if j > i and not environment:
            hit = _spelled_word(word)
            if hit is not None:
                raise LatexParseError(f"{hit!r} spelled in letters would be a product of letters",
                                      source=source, position=tokens[i].pos,
                                      length=tokens[j].end - tokens[i].pos,
                                      hint=SPELLED_WORDS[hit])  # fmt: skip
            _refuse_unknown_word(source, tokens, i, j, word)
        i = j + 1


def _refuse_unknown_word(source: str, tokens: list[Token], i: int, j: int, word: str) -> None:
    """``floor(x)``, ``max(a,b)``: a function name the reader does not know is never read as the
    product of its letters (f·l·o²·r·x); two letters before a bracket (``xy(x+y)``) still are."""
    nxt = tokens[j + 1] if j + 1 < len(tokens) else None
    bracket = nxt is not None and (nxt.text in ("(", "\\left") and nxt.kind in ("char", "cmd"))
    why = latex_unknown_word(word, bracket)
    if why is not None:
        hint = {"floor": "\\lfloor x \\rfloor", "ceil": "\\lceil x \\rceil",
                "abs": "\\left| x \\right|", "cbrt": "\\sqrt[3]{x}"}.get(word)  # fmt: skip
        raise LatexParseError(
            why,
            source=source,
            position=tokens[i].pos,
            length=tokens[j].end - tokens[i].pos,
            hint=hint,
        )


def _spelled_word(word: str) -> str | None:
    if word in SPELLED_WORDS:
        return word
    for name in ELEMENTARY_FUNCTIONS:
        if len(name) >= 3 and word.startswith(name):
            return name
    return None


def _check_braces(source: str, tokens: list[Token]) -> None:
    opened: list[Token] = []
    for tok in tokens:
        if tok.kind != "char":
            continue
        if tok.text == "{":
            opened.append(tok)
        elif tok.text == "}":
            if not opened:
                raise LatexParseError("unbalanced braces: '}' closes nothing", source=source,
                                      position=tok.pos)  # fmt: skip
            opened.pop()
    if opened:
        raise LatexParseError("unbalanced braces: '{' is never closed", source=source,
                              position=opened[-1].pos)  # fmt: skip


def _collapse_braced_text(tokens: list[Token]) -> list[Token]:
    """``{\\text{ or }}`` (STACK's spelling) is the same token as ``\\text{or}``."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        if (
            i + 2 < len(tokens)
            and tokens[i].text == "{"
            and tokens[i].kind == "char"
            and tokens[i + 1].kind == "text"
            and tokens[i + 2].text == "}"
            and tokens[i + 2].kind == "char"
            and tokens[i + 1].text in ("\\text", "\\rm", "\\mbox", "\\textrm")
        ):
            out.append(tokens[i + 1])
            i += 3
        else:
            out.append(tokens[i])
            i += 1
    return out
