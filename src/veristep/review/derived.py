"""A value concluded from an equation must solve it: "$2p = 0.58$. So $p = 0.58$." is false.

When a step states an equation in one letter and then, with only a consequence word between
("so", "hence", "which gives", "leading to"), concludes ``letter = value``, the conclusion claims
that the equation forces that value. SymPy solves the equation over the reals in a killable worker
(``core.pool.run_cas``): when its solutions are a finite, non-empty set and the value is not one of
them, the step is FLAWED, with the solutions as the witness. Anything less certain is no flaw:

- an equation with infinitely many solutions (``\\sin x = 0``), none, or a solver that stops;
- a value that is one of several solutions ("$x^2 = 4$, so $x = 2$": a lost root is a matter of
  the stated domain, judged by the reviewer, not a false computation) — evidence only;
- a decimal value within one unit of its last place of a solution ("$3x = 1$, so $x = 0.33$");
- an equation already solved (``x = 3``), or with another letter, a subscript or a function.

The caller applies the sentence's hedges ("if", "suppose", "is not") exactly as for closed
arithmetic.

>>> found = derivations("We get $3x + 1 = 7$, hence $x = 3$.")
>>> [(p.equation.latex, p.conclusion.latex) for p in found]
[('3x + 1 = 7', 'x = 3')]
>>> derivations("We get $3x + 1 = 7$ in the first case; in the second, $x = 3$.")
[]
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from veristep.review.arithmetic import decimals_shown
from veristep.review.claims import Link, find_links


@dataclass(frozen=True)
class Derivation:
    """An equation in one letter and the value the text concludes from it."""

    equation: Link
    conclusion: Link  # letter = value

    @property
    def letter(self) -> str:
        return self.conclusion.lhs.strip()


@dataclass(frozen=True)
class Solutions:
    """``contains`` / ``rounded`` (a solution, to the decimals shown) / ``misses`` (the value is
    not a solution) / ``unknown``."""

    status: str
    solutions: str = ""
    only: bool = False  # the value is the equation's only solution


_CONSEQUENCE = re.compile(
    r"\b(?:so|thus|hence|therefore|giving|gives|yields?|implies|leading to|leads to|get|obtain)\b"
    r"|\\Rightarrow|\\implies",
    re.IGNORECASE,
)
_GLUE = frozenset(
    {
        "so", "thus", "hence", "therefore", "giving", "gives", "yield", "yields", "implies",
        "leading", "leads", "to", "we", "get", "obtain", "which", "this", "that", "it", "and",
        "then", "simplifies", "solving", "for", "dividing", "both", "sides", "by", "i", "e",
    }
)  # fmt: skip
_SOLVED = re.compile(r"^\s*([A-Za-z])\s*$")
_LETTER = re.compile(r"(?<![A-Za-z\\_])([A-Za-z])(?![A-Za-z_'(])")
_ANY_LETTER = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")
_COMMAND = re.compile(r"\\[A-Za-z]+")
_WORDY = re.compile(r"\\(?:text|mathrm|operatorname|mbox|pmod|bmod|mod)\b")


def derivations(text: str) -> list[Derivation]:
    """Each equation in one letter followed, across consequence words only, by ``x = value``."""
    links = find_links(text)
    out = []
    for equation, conclusion in itertools.pairwise(links):
        m = _SOLVED.match(conclusion.lhs)
        if conclusion.rel != "=" or not m or not _closed_value(conclusion.rhs):
            continue
        if equation.rel != "=" or equation.closed or equation.real:
            continue
        if _SOLVED.match(equation.lhs) or _SOLVED.match(equation.rhs):
            continue  # already a solved form (or a definition): nothing is derived from it
        if _letters(equation) != {m.group(1)}:
            continue
        between = text[_end_of(text, equation) : conclusion.offset]
        if _only_consequence(between):
            out.append(Derivation(equation, conclusion))
    return out


def solve_for(lhs: str, rhs: str, letter: str, value: str) -> Solutions:
    """Whether ``value`` solves ``lhs = rhs`` over the reals (runs SymPy: call it in a worker)."""
    import sympy as sp

    from veristep.mathgraph import parse_latex, to_sympy

    try:
        left, right, number = (to_sympy(parse_latex(x)) for x in (lhs, rhs, value))
    except Exception:  # anything the parser cannot read is simply not judged
        return Solutions("unknown")
    symbols = (left - right).free_symbols
    if len(symbols) != 1 or number.free_symbols or not number.is_real:
        return Solutions("unknown")
    (x,) = symbols
    if str(x) != letter:
        return Solutions("unknown")
    found = sp.solveset(sp.Eq(left, right), x, sp.S.Reals)
    if not isinstance(found, sp.FiniteSet) or not found:
        return Solutions("unknown")
    roots = sorted(found, key=lambda r: float(sp.N(r)))
    shown = ", ".join(str(r) for r in roots)
    if any(sp.simplify(r - number) == 0 for r in roots):
        return Solutions("contains", shown, only=len(roots) == 1)
    if any(_rounded(sp, r, number, value) for r in roots):
        return Solutions("rounded", shown)
    return Solutions("misses", shown)


def _rounded(sp: Any, root: Any, number: Any, written: str) -> bool:
    """The value is a solution shown to the decimals written (truncated or rounded)."""
    places = decimals_shown(written)
    return bool(places) and abs(float(sp.N(root - number, 30))) <= 10.0**-places


def _letters(link: Link) -> set[str]:
    sides = f"{link.lhs} {link.rhs}"
    if _WORDY.search(sides):
        return set()
    every = set(_ANY_LETTER.findall(_COMMAND.sub(" ", sides)))
    plain = _LETTER.findall(sides)
    if len(plain) != len(_ANY_LETTER.findall(_COMMAND.sub(" ", sides))):
        return set()  # a subscript, a prime or an application: not one plain letter
    return every


def _closed_value(side: str) -> bool:
    from veristep.review.arithmetic import evaluate, is_real_arithmetic

    return evaluate(side) is not None or is_real_arithmetic(side)


def _end_of(text: str, link: Link) -> int:
    """Where ``link``'s right side ends in ``text`` (its offset is where its left side starts)."""
    at = text.find(link.rhs, link.offset)
    return at + len(link.rhs) if at >= 0 else link.offset


def _only_consequence(between: str) -> bool:
    prose = re.sub(r"\\[\[\]()]|\$", " ", between)
    if not _CONSEQUENCE.search(prose):
        return False
    words = re.findall(r"[A-Za-z]+", _COMMAND.sub(" ", prose))
    return all(w.lower() in _GLUE for w in words)
