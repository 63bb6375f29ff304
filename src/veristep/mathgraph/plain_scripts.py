"""Scripts in typed maths: each exponent and subscript is braced as the student meant it.

``x^23`` → x^{23}, ``x^-1`` → x^{-1}, ``e^(2x)`` → e^{2x}, ``e^-(x+1)`` → e^{-(x+1)},
``2^3^2`` → 2^{3^{2}} (right to left), ``x^sin(x)``, ``log2(x)`` → log_{2}(x), ``x_12`` →
x_{12}, ``sin^-1`` → arcsin; ``e^2x`` is refused (e^(2x) or e²·x?).

>>> from veristep.mathgraph.plain_lexer import tokenize_plain
>>> "".join(t.text for t in tokenize_plain("2^3^2"))
'2^{3^{2}}'
"""

from __future__ import annotations

from veristep.mathgraph.errors import LatexParseError
from veristep.mathgraph.lexer import Token
from veristep.mathgraph.vocabulary import FUNCTION_NAMES, GREEK


def matching(tokens: list[Token], k: int) -> int:
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


def exponents(source: str, tokens: list[Token]) -> list[Token]:
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
        out.extend(exponents(source, body))
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
        close = matching(tokens, k)
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
        close = matching(tokens, k + 1) if after.text == "(" else _closing_brace(tokens, k + 1)
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


def log_bases(tokens: list[Token]) -> list[Token]:
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
    """A constant or Greek letter: one token of an exponent (``e^pi``, ``x^theta``)."""
    return tok.text in ("\\pi", "\\infty") or tok.text[1:] in GREEK


def _refuse_e_power(source: str, base: Token | None, nxt: Token | None, atom: Token) -> None:
    """``e^2x``: e^(2x) or e²·x? Students mean both; a number exponent of e glued to a name."""
    if base is None or base.kind != "letter" or base.text != "e" or atom.kind != "number":
        return
    factor = nxt is not None and (
        nxt.kind == "letter" or (nxt.kind == "cmd" and nxt.text[1:] in _STARTS_FACTOR)
    )
    if nxt is not None and factor and nxt.pos == atom.end:
        glued = source[base.pos : nxt.end]
        raise LatexParseError(f"{glued} is ambiguous (a power of e times a factor, or one "
                              "exponent?)", source=source,
                              position=base.pos, length=nxt.end - base.pos,
                              hint=f"e^({source[base.end + 1 : nxt.end]}) or "
                                   f"e^{source[base.end + 1 : atom.end]}*"
                                   f"{source[nxt.pos:nxt.end]}")  # fmt: skip
