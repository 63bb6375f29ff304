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
from veristep.mathgraph.plain_words import letter_run
from veristep.mathgraph.vocabulary import FUNCTION_NAMES, GREEK

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
    return _exponents(source, _log_bases(tokens))


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


def _matching(tokens: list[Token], k: int) -> int:
    """Index of the ')' closing the '(' at ``k``, or -1."""
    depth = 0
    for m in range(k, len(tokens)):
        if tokens[m].kind == "char" and tokens[m].text == "(":
            depth += 1
        elif tokens[m].kind == "char" and tokens[m].text == ")":
            depth -= 1
            if depth == 0:
                return m
    return -1


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
            close = _matching(out, k + 1) if opened else -1
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


def _exponents(source: str, tokens: list[Token]) -> list[Token]:
    """Brace each script as typed: ``x^23`` → x^{23}, ``x^-1`` → x^{-1}, ``e^(2x)`` → e^{2x},
    ``log_10(x)`` → log_{10}(x), ``x_12`` → x_{12}; ``sin^-1`` is arcsin, as on calculators;
    ``2^3^2`` is 2^(3^2), right to left as in most calculators and programming languages."""
    out: list[Token] = []
    pending = 0  # braces of a tower x^a^b still open
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        base = out[-1] if out else None
        out.append(tok)
        k += 1
        if not (tok.kind == "char" and tok.text in "^_") or k >= len(tokens):
            continue
        if tokens[k].kind == "char" and tokens[k].text == "{":  # from superscript digits
            continue
        if tok.text == "^" and base is not None and _inverse_trig(base, tokens, k):
            out[-2:] = [Token("cmd", "\\arc" + base.text[1:], base.pos, base.end)]
            k += 2
            continue
        found = _script(tokens, k, signed=tok.text == "^")
        if found is None:
            continue
        start, atom, body, end_tok, k = found
        out.append(Token("char", "{", tokens[start].pos, tokens[start].pos))
        out.extend(_exponents(source, body))
        if (
            tok.text == "^"
            and k < len(tokens)
            and tokens[k].text == "^"
            and (_script(tokens, k + 1, signed=True) is not None)
        ):
            pending += 1  # the next power belongs inside this exponent
            continue
        out.extend(Token("char", "}", end_tok.end, end_tok.end) for _ in range(pending + 1))
        pending = 0
        if tok.text == "^":
            _refuse_e_power(source, base, tokens[k] if k < len(tokens) else None, atom)
    return out


def _script(
    tokens: list[Token], k: int, signed: bool
) -> tuple[int, Token, list[Token], Token, int] | None:
    """The script at ``k``: (start, atom, tokens inside the braces, last token, next index)."""
    start = k
    sign = signed and k < len(tokens) and tokens[k].kind == "char" and tokens[k].text in "+-"
    if sign:
        k += 1
    if k >= len(tokens):
        return None
    atom = tokens[k]
    lead = [tokens[start]] if sign else []
    if atom.kind == "char" and atom.text == "(":
        close = _matching(tokens, k)
        if close < 0:
            return None  # the parser reports the unclosed bracket
        # -(x+1) keeps its bracket: the sign is of the whole group
        inner = tokens[k : close + 1] if sign else tokens[k + 1 : close]
        return start, atom, [*lead, *inner], tokens[close], close + 1
    if atom.kind in ("number", "letter") or (atom.kind == "cmd" and _constant(atom)):
        return start, atom, [*lead, atom], atom, k + 1
    closer = {"|": "|", "\\lfloor": "\\rfloor", "\\lceil": "\\rceil"}.get(atom.text)
    if closer is not None:  # x^|y|, 2^floor(x)
        end = next((m for m in range(k + 1, len(tokens)) if tokens[m].text == closer), -1)
        if end > 0:
            return start, atom, [*lead, *tokens[k : end + 1]], tokens[end], end + 1
    if atom.text == "\\left":  # 2^abs(x): \left| … \right|
        end = _closing_right(tokens, k)
        if end > 0:
            return start, atom, [*lead, *tokens[k : end + 1]], tokens[end], end + 1
    after = tokens[k + 1] if k + 1 < len(tokens) else None
    if atom.kind == "cmd" and after is not None and after.kind == "char" and after.text in "({":
        # x^sin(x), e^sqrt(x): a function applied to its bracket
        close = _matching(tokens, k + 1) if after.text == "(" else _closing_brace(tokens, k + 1)
        if close > 0:
            return start, atom, [*lead, *tokens[k : close + 1]], tokens[close], close + 1
    return None


def _closing_right(tokens: list[Token], k: int) -> int:
    """Index of the delimiter after the \\right matching the \\left at ``k``, or -1."""
    depth = 0
    for m in range(k, len(tokens) - 1):
        if tokens[m].text == "\\left":
            depth += 1
        elif tokens[m].text == "\\right":
            depth -= 1
            if depth == 0:
                return m + 1
    return -1


def _closing_brace(tokens: list[Token], k: int) -> int:
    depth = 0
    for m in range(k, len(tokens)):
        if tokens[m].kind == "char" and tokens[m].text == "{":
            depth += 1
        elif tokens[m].kind == "char" and tokens[m].text == "}":
            depth -= 1
            if depth == 0:
                return m
    return -1


_STARTS_FACTOR = GREEK | FUNCTION_NAMES | {"pi", "infty", "sqrt", "frac", "lfloor", "lceil"}
_TRIG = frozenset({"\\sin", "\\cos", "\\tan", "\\sec", "\\csc", "\\cot"})


def _inverse_trig(base: Token, tokens: list[Token], k: int) -> bool:
    """``sin^-1``: the inverse function, as calculators and school books write it."""
    if base.kind != "cmd" or base.text not in _TRIG or k + 1 >= len(tokens):
        return False
    sign, one = tokens[k], tokens[k + 1]
    return sign.kind == "char" and sign.text == "-" and one.kind == "number" and one.text == "1"


def _log_bases(tokens: list[Token]) -> list[Token]:
    """``log2(x)``, ``log10(x)``: a number glued between log and a bracket is the base.
    ``x in R``: R, N, Z, Q, C after ``in`` are the number sets."""
    out: list[Token] = []
    for k, tok in enumerate(tokens):
        prev = tokens[k - 1] if k else None
        if (
            tok.kind == "letter"
            and tok.text in "RNZQC"
            and prev is not None
            and prev.text == "\\in"
        ):
            out.append(Token("text", "\\mathbb", tok.pos, tok.end, tok.text))
            continue
        if (
            tok.kind == "number"
            and prev is not None
            and prev.kind == "cmd"
            and prev.text == "\\log"
            and prev.end == tok.pos
        ):
            out.append(Token("char", "_", tok.pos, tok.pos))
        out.append(tok)
    return out


def _constant(tok: Token) -> bool:
    return tok.text in ("\\pi", "\\infty") or (tok.text[1:].isalpha() and tok.text[1:] in _GREEKISH)


_GREEKISH = frozenset({"alpha", "beta", "gamma", "theta", "lambda", "mu", "phi", "omega", "tau",
                       "sigma", "rho", "delta"})  # fmt: skip


def _refuse_e_power(source: str, base: Token | None, nxt: Token | None, atom: Token) -> None:
    """``e^2x``: e^(2x) or e²·x? Students mean both; a number exponent of e glued to a name."""
    if base is None or base.kind != "letter" or base.text != "e" or atom.kind != "number":
        return
    factor = nxt is not None and (
        nxt.kind == "letter" or (nxt.kind == "cmd" and nxt.text[1:] in _STARTS_FACTOR)
    )
    if nxt is not None and factor and nxt.pos == atom.end:
        raise LatexParseError("e^2x is ambiguous (e^(2x) or e^2 times x?)", source=source,
                              position=base.pos, length=nxt.end - base.pos,
                              hint=f"e^({source[atom.pos:nxt.end]}) or "
                                   f"e^{atom.text}*{source[nxt.pos:nxt.end]}")  # fmt: skip
