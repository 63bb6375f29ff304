"""Plain maths as people type it → the LaTeX parser's tokens, with positions in the typed text.

The plain reader does not translate text into a LaTeX string: it emits the token stream the
LaTeX parser already reads (``sqrt(`` becomes ``\\sqrt{``, ``<=`` becomes ``\\le``, ``x^23``
becomes ``x^{23}``), so both readers build the same graph and every error points at a column of
what the student typed. Added tokens (the braces around an exponent) have zero width.

>>> [t.text for t in tokenize_plain("sqrt(x) <= 2pi")]
['\\\\sqrt', '{', 'x', '}', '\\\\le', '2', '\\\\pi']
>>> [t.text for t in tokenize_plain("x^-2 + sinx")]
['x', '^', '{', '-', '2', '}', '+', '\\\\sin', 'x']
"""

from __future__ import annotations

import re

from veristep.mathgraph.errors import LatexParseError
from veristep.mathgraph.lexer import MAX_DIGITS, Token
from veristep.mathgraph.plain_scripts import exponents, log_bases, matching
from veristep.mathgraph.plain_words import letter_run

# Longest first: "<=>" before "<=", "**" before "*".
_OPERATORS = (
    ("<=>", "cmd", "\\iff"), ("<->", "cmd", "\\iff"), ("==>", "cmd", "\\Rightarrow"),
    ("<=", "cmd", "\\le"), (">=", "cmd", "\\ge"), ("=>", "cmd", "\\Rightarrow"),
    ("->", "cmd", "\\Rightarrow"), ("!=", "cmd", "\\ne"), ("<>", "cmd", "\\ne"),
    ("=/=", "cmd", "\\ne"), ("==", "char", "="), ("**", "char", "^"), ("+-", "cmd", "\\pm"),
    ("-+", "cmd", "\\mp"),
)  # fmt: skip
_PLAIN_UNICODE = {
    "±": ("cmd", "\\pm"), "∓": ("cmd", "\\mp"), "≤": ("cmd", "\\le"), "≥": ("cmd", "\\ge"),
    "≠": ("cmd", "\\ne"), "≈": ("cmd", "\\approx"), "·": ("char", "*"), "⋅": ("char", "*"),
    "×": ("char", "*"), "÷": ("char", "/"), "π": ("cmd", "\\pi"), "∞": ("cmd", "\\infty"),
    "⇒": ("cmd", "\\Rightarrow"), "→": ("cmd", "\\Rightarrow"), "⇔": ("cmd", "\\iff"),
    "−": ("char", "-"), "–": ("char", "-"), "√": ("cmd", "\\sqrt"), "∈": ("cmd", "\\in"),
    "∨": ("cmd", "\\lor"), "∧": ("cmd", "\\land"), "θ": ("cmd", "\\theta"),
    "α": ("cmd", "\\alpha"), "β": ("cmd", "\\beta"), "λ": ("cmd", "\\lambda"),
    "φ": ("cmd", "\\phi"), "ω": ("cmd", "\\omega"), "μ": ("cmd", "\\mu"),
}  # fmt: skip
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_DIGITS = frozenset("0123456789")
_PUNCT = set("+-*/=<>()[]^_!'|,;:")
# After these a line break continues the statement; before these too.
_CONTINUES_AFTER = {"+", "-", "*", "/", "^", "=", "<", ">", "(", "[", ",", "\\le", "\\ge", "\\ne",
                    "\\pm", "\\mp", "\\Rightarrow", "\\iff", "\\approx", "\\in"}  # fmt: skip
_CONTINUES_BEFORE = {"=", "<", ">", "\\le", "\\ge", "\\ne", "\\Rightarrow", "\\iff", "\\approx",
                     ")", "]", "*", "/", "^"}  # fmt: skip
# Words that take a bracketed argument and become a construct of their own.
# (kind, text) of the tokens that replace "word(" and ")"; abs uses \left| … \right| so that
# abs(1 + abs(x)) nests without the ambiguity of bare bars.
_BRACKETED = {
    "\\sqrt": ([("cmd", "\\sqrt"), ("char", "{")], [("char", "}")]),
    "floor": ([("cmd", "\\lfloor")], [("cmd", "\\rfloor")]),
    "ceil": ([("cmd", "\\lceil")], [("cmd", "\\rceil")]),
    "abs": ([("cmd", "\\left"), ("char", "|")], [("cmd", "\\right"), ("char", "|")]),
}


def tokenize_plain(source: str) -> list[Token]:
    """Split typed maths into parser tokens; raise a located error for what cannot be read."""
    tokens: list[Token] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\n":
            tokens.append(Token("sep", "\n", i, i + 1))
            i += 1
        elif ch.isspace():
            i += 1
        elif ch in _DIGITS or (ch == "." and i + 1 < n and source[i + 1] in _DIGITS):
            i = _number(source, i, tokens)
        elif ch == "d" and (found := _derivative(source, i)) is not None:
            tokens.extend(found[0])
            i = found[1]
        elif ch.isascii() and ch.isalpha():
            j = i
            while j < n and source[j].isascii() and source[j].isalpha():
                j += 1
            tokens.extend(letter_run(source, i, j))
            i = j
        elif ch in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻":
            j = i
            while j < n and source[j] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻":
                j += 1
            digits = source[i:j].translate(_SUPERSCRIPTS)
            tokens.append(Token("char", "^", i, i))
            tokens.extend(_digits_tokens(digits, i, j))
            i = j
        else:
            i = _symbol(source, i, tokens)
    tokens = _separators(source, tokens)
    tokens = _bracket_words(source, tokens)
    return exponents(source, log_bases(tokens))


_DERIVATIVE = re.compile(r"d([A-Za-z])?[ \t]*/[ \t]*d([A-Za-z])(?![A-Za-z])")


def _derivative(source: str, i: int) -> tuple[list[Token], int] | None:
    """``d/dx`` and ``dy/dx``: Leibniz's notation, not the quotient d·y/(d·x)."""
    m = _DERIVATIVE.match(source, i)
    if m is None:
        return None
    end = m.end()
    top = [Token("letter", "d", i, i + 1)]
    if m.group(1):
        top.append(Token("letter", m.group(1), i + 1, i + 2))
    var = m.start(2)
    return (
        [Token("cmd", "\\frac", i, i), Token("char", "{", i, i), *top,
         Token("char", "}", i, i), Token("char", "{", var - 1, var - 1),
         Token("letter", "d", var - 1, var), Token("letter", source[var], var, end),
         Token("char", "}", end, end)],
        end,
    )  # fmt: skip


def _number(source: str, i: int, tokens: list[Token]) -> int:
    n, j = len(source), i
    while j < n and source[j] in _DIGITS:
        j += 1
    if j < n and source[j] == "." and j + 1 < n and source[j + 1] in _DIGITS:
        j += 1
        while j < n and source[j] in _DIGITS:
            j += 1
    if j - i > MAX_DIGITS:
        raise LatexParseError(f"number literal longer than {MAX_DIGITS} digits", source=source,
                              position=i, length=j - i)  # fmt: skip
    tokens.append(Token("number", source[i:j], i, j))
    return j


def _digits_tokens(digits: str, pos: int, end: int) -> list[Token]:
    """A run of superscript digits: its exponent, braced (``x²³`` is x^{23})."""
    out = [Token("char", "{", pos, pos)]
    if digits.startswith("-"):
        out.append(Token("char", "-", pos, pos))
        digits = digits[1:]
    out.append(Token("number", digits, pos, end))
    out.append(Token("char", "}", end, end))
    return out


def _symbol(source: str, i: int, tokens: list[Token]) -> int:
    for text, kind, spelled in _OPERATORS:
        if source.startswith(text, i):
            if text == "!=" and i > 0 and not source[i - 1].isspace():
                raise LatexParseError("'!=' right after a value is ambiguous (a factorial n! = … "
                                      "or 'not equal'?)", source=source, position=i, length=2,
                                      hint="n! = 5 or n != 5")  # fmt: skip
            tokens.append(Token(kind, spelled, i, i + len(text)))
            return i + len(text)
    ch = source[i]
    if ch in _PUNCT:
        kind, text = ("sep", ";") if ch == ";" else ("char", ch)
        tokens.append(Token(kind, text, i, i + 1))
        return i + 1
    if ch in _PLAIN_UNICODE:
        kind, text = _PLAIN_UNICODE[ch]
        tokens.append(Token(kind, text, i, i + 1))
        return i + 1
    hint = {"%": "5/100 for 5 %", "&": "and", "~": "≈ (approximately)"}.get(ch)
    raise LatexParseError(f"unexpected character {ch!r}", source=source, position=i, hint=hint)


def _separators(source: str, tokens: list[Token]) -> list[Token]:
    """Top-level commas and semicolons separate statements; so does a line break between two
    complete lines (one that ends or begins with an operator continues the statement)."""
    out: list[Token] = []
    depth = 0
    for k, tok in enumerate(tokens):
        if tok.kind == "char" and tok.text in "([":
            depth += 1
        elif tok.kind == "char" and tok.text in ")]":
            depth = max(depth - 1, 0)
        if tok.kind == "char" and tok.text == "," and depth == 0:
            tok = Token("sep", ",", tok.pos, tok.end)
        if tok.kind == "sep" and tok.text == "\n":
            prev = out[-1] if out else None
            nxt = tokens[k + 1] if k + 1 < len(tokens) else None
            if depth or prev is None or nxt is None or prev.kind == "sep" or nxt.kind == "sep":
                continue
            if prev.text in _CONTINUES_AFTER or nxt.text in _CONTINUES_BEFORE:
                continue
            if nxt.kind == "text" or prev.kind == "text":  # a line that starts with "or"
                continue
        out.append(tok)
    return out


def _bracket_words(source: str, tokens: list[Token]) -> list[Token]:
    """``sqrt(x)`` → ``\\sqrt{x}``, ``floor(x)`` → ⌊x⌋, ``abs(x)`` → |x|, ``cbrt(x)`` → ∛x."""
    out = list(tokens)
    k = 0
    while k < len(out):
        tok = out[k]
        word = tok.text if tok.kind in ("cmd", "word") else ""
        if word == "cbrt":
            out[k : k + 1] = [Token("cmd", "\\sqrt", tok.pos, tok.end),
                              Token("char", "[", tok.end, tok.end),
                              Token("number", "3", tok.end, tok.end),
                              Token("char", "]", tok.end, tok.end)]  # fmt: skip
            word, k = "\\sqrt", k + 3
        if word in _BRACKETED:
            opened = k + 1 < len(out) and out[k + 1].kind == "char" and out[k + 1].text == "("
            close = matching(out, k + 1) if opened else -1
            if opened and close > 0:
                heads, tails = _BRACKETED[word]
                end = out[close]
                out[close : close + 1] = [Token(kd, tx, end.pos, end.end) for kd, tx in tails]
                head = [Token(kd, tx, tok.pos, out[k + 1].end) for kd, tx in heads]
                if word == "\\sqrt":  # keep \sqrt (or cbrt's "]") and open the brace
                    head[0] = out[k]
                out[k : k + 2] = head
            elif word == "\\sqrt":
                _unbracketed_root(source, out, k)
            else:
                raise LatexParseError(f"{source[tok.pos:tok.end]} needs its argument in brackets",
                                      source=source, position=tok.pos, length=tok.end - tok.pos,
                                      hint=f"{source[tok.pos:tok.end]}(x)")  # fmt: skip
        k += 1
    return out


def _unbracketed_root(source: str, tokens: list[Token], k: int) -> None:
    """``sqrt 2`` and ``sqrt x`` take one token; ``sqrt 2x`` could mean √(2x): refused."""
    arg = tokens[k + 1] if k + 1 < len(tokens) else None
    after = tokens[k + 2] if k + 2 < len(tokens) else None
    tok = tokens[k]
    if arg is None or arg.kind not in ("number", "letter", "cmd") or arg.text == "\\sqrt":
        raise LatexParseError(
            "a square root needs its argument",
            source=source,
            position=tok.pos,
            length=tok.end - tok.pos,
            hint="sqrt(x)",
        )
    if (
        after is not None and after.pos == arg.end and after.kind in ("letter", "number", "cmd")
    ) or (after is not None and after.pos == arg.end and after.text == "("):
        raise LatexParseError(
            "an unbracketed square root is ambiguous here",
            source=source,
            position=tok.pos,
            length=after.end - tok.pos,
            hint=f"sqrt({source[arg.pos : after.end]}) or "
            f"sqrt({source[arg.pos : arg.end]}){source[after.pos : after.end]}",
        )
