"""Reading prover output back: ``f(X,f(Y,Y)) = X`` equations (TPTP, Twee, Vampire) as laws.

Saturations and rewrite systems printed by provers write the operation as ``f``; variables are
upper-case names and constants lower-case ones (Twee also writes ``?`` for its minimal
constant). Everything is parsed iteratively and size-checked: prover output is untrusted input.

>>> str(read_equation("f(X1,f(X0,X0)) = X0"))
'x1 ◇ (x0 ◇ x0) = x0'
>>> [str(e) for e in saturation_equations(SAMPLE)]
['x1 ◇ (x0 ◇ x1) = x0']
"""

from __future__ import annotations

import re

from veristep.alps.terms import Law, Op, Term, Var
from veristep.core.errors import InputError

MAX_EQUATION_CHARS = 20_000
_TOKEN = re.compile(r"\s*(?:(?P<name>[A-Za-z][A-Za-z0-9_]*|\?)|(?P<punct>[(),]))")
_CNF = re.compile(r"cnf\(\s*[^,]+,\s*\w+,\s*(.*?)\)\s*\.", re.DOTALL)
SAMPLE = "% SZS output start Saturation.\ncnf(u5,axiom,\n    f(X1,f(X0,X1)) = X0).\n"


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise InputError(f"unexpected character {text[pos]!r} at {pos} in {text[:60]!r}")
        out.append(m.group("name") or m.group("punct"))
        pos = m.end()
    return out


def _leaf(name: str, constants: dict[str, str]) -> Term:
    if name[0].isupper():
        return Var(name.lower())
    # Constants (Skolem or Twee's "?") stay distinct names that cannot clash with variables.
    return Var(constants.setdefault(name, "c_" + ("min" if name == "?" else name)))


def read_term(text: str, constants: dict[str, str] | None = None) -> Term:
    """One ``f``-term; the operation must be the binary symbol ``f``."""
    if len(text) > MAX_EQUATION_CHARS:
        raise InputError(f"term too long: {len(text):,} characters")
    consts = {} if constants is None else constants
    toks = _tokens(text)
    stack: list[list[Term]] = [[]]
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok == "f" and i + 1 < len(toks) and toks[i + 1] == "(":
            stack.append([])
            i += 2
            continue
        if tok == ",":
            pass
        elif tok == ")":
            args = stack.pop()
            if len(args) != 2 or not stack:
                raise InputError(f"f must have two arguments in {text[:60]!r}")
            stack[-1].append(Op(args[0], args[1]))
        elif tok == "(":
            raise InputError(f"unexpected '(' in {text[:60]!r}")
        else:
            stack[-1].append(_leaf(tok, consts))
        i += 1
    if len(stack) != 1 or len(stack[0]) != 1:
        raise InputError(f"not one term: {text[:60]!r}")
    return stack[0][0]


def read_equation(text: str) -> Law:
    """``lhs = rhs`` (or Twee's ``->``, ``<->``, ``~>``) in ``f`` notation."""
    for sep in ("<->", "~>", "->", "="):
        if sep in text:
            left, right = text.split(sep, 1)
            consts: dict[str, str] = {}
            return Law(read_term(left, consts), read_term(right, consts))
    raise InputError(f"not an equation: {text[:60]!r}")


def saturation_equations(output: str) -> list[Law]:
    """The positive unit equations of an ``SZS output start Saturation`` block (E or Vampire);
    disequations such as ``sK0 != sK1`` are left out."""
    start = output.find("SZS output start Saturation")
    end = output.find("SZS output end Saturation", start)
    if start < 0:
        return []
    block = output[start : end if end > 0 else len(output)]
    laws: list[Law] = []
    for m in _CNF.finditer(block):
        clause = " ".join(m.group(1).split())
        if "!=" in clause or "|" in clause or "~" in clause:
            continue
        if clause.startswith("(") and clause.endswith(")"):
            clause = clause[1:-1]
        laws.append(read_equation(clause))
    return laws
