"""Values of defined functions: ``Q(x) = -11x^2 + 77x - 121`` … ``Q(2) = 11`` is checked exactly.

A step that defines a function of one letter by a closed formula, and then states a value of it
at a number, makes a claim the machine can decide: substitute, evaluate with exact rationals.
Definitions are taken from the problem statement and from the step itself only — a name reused
for another function in a later case ("Case 2: $f(x) = -x$") must not be carried into it — and a
name defined twice in the same place is ambiguous and left alone.

>>> defs = read_definitions("Hence $Q(x)=-11x^2 +77x -121$, which satisfies $Q(2)=Q(5)=11$.")
>>> defs
{'Q': ('x', '-11x^2 +77x -121')}
>>> [(c.latex, c.tier.name_lower) for c in check_applications(
...     "Hence $Q(x)=-11x^2 +77x -121$, which satisfies $Q(2)=Q(5)=11$.", defs)]
[('Q(2) = Q(5)', 'grounded'), ('Q(5) = 11', 'refuted')]
"""

from __future__ import annotations

import re
from fractions import Fraction

from veristep.core.tiers import Tier
from veristep.review.arithmetic import evaluate
from veristep.review.claims import Link, LinkCheck, find_links

Definitions = dict[str, tuple[str, str]]  # name -> (letter, formula)

_DEFINED = re.compile(r"^\s*([A-Za-z])\s*\(\s*([a-z])\s*\)\s*$")
_APPLIED = re.compile(r"^\s*([A-Za-z])\s*\(([^()]*)\)\s*$")


def read_definitions(text: str) -> Definitions:
    """``f(x) = formula`` links whose formula is closed once ``x`` is a number; ambiguous ones
    (the same name defined twice, differently) are dropped."""
    seen: dict[str, set[tuple[str, str]]] = {}
    for link in find_links(text):
        m = _DEFINED.match(link.lhs)
        if link.rel == "=" and m:
            # Every formula counts towards ambiguity, even one we cannot evaluate.
            seen.setdefault(m.group(1), set()).add((m.group(2), link.rhs.strip()))
    out = {}
    for name, forms in seen.items():
        if len(forms) != 1:
            continue
        letter, formula = next(iter(forms))
        # A constant ("f(x) = 0") is how piecewise and functional-equation cases are written
        # ("f(x) = 0 for x ≠ 3"): only a formula in the letter is read as a definition.
        if _mentions(formula, letter) and _substituted(formula, letter, Fraction(3)) is not None:
            out[name] = (letter, formula)
    return out


def _mentions(formula: str, letter: str) -> bool:
    return re.search(rf"(?<![A-Za-z\\]){letter}(?![A-Za-z])", formula) is not None


def check_applications(text: str, definitions: Definitions) -> list[LinkCheck]:
    """Every ``=`` link between values of defined functions at numbers and closed arithmetic."""
    out = []
    for link in find_links(text):
        if link.rel != "=" or _DEFINED.match(link.lhs):
            continue
        left, right = _value(link.lhs, definitions), _value(link.rhs, definitions)
        if left is None or right is None or not _applies(link, definitions):
            continue
        if left == right:
            out.append(LinkCheck(link.latex, Tier.GROUNDED, "definition_value", "holds exactly"))
            continue
        witness = (
            f"{link.latex} is false: with the definition written here, the left side is "
            f"{_show(left)} and the right side is {_show(right)}"
        )
        out.append(
            LinkCheck(link.latex, Tier.REFUTED, "definition_value", "does not hold", witness)
        )
    return out


def _applies(link: Link, definitions: Definitions) -> bool:
    return any(_is_application(side, definitions) for side in (link.lhs, link.rhs))


def _is_application(side: str, definitions: Definitions) -> bool:
    m = _APPLIED.match(side)
    return bool(m) and m.group(1) in definitions and evaluate(m.group(2)) is not None


def _value(side: str, definitions: Definitions) -> Fraction | None:
    """A closed side's value, or a defined function's value at a number."""
    m = _APPLIED.match(side)
    if m and m.group(1) in definitions:
        arg = evaluate(m.group(2))
        if arg is None:
            return None
        letter, formula = definitions[m.group(1)]
        return _substituted(formula, letter, arg)
    return evaluate(side)


def _substituted(formula: str, letter: str, value: Fraction) -> Fraction | None:
    shown = _show(value)
    # The letter as a whole token only: not inside \frac or another name.
    text = re.sub(rf"(?<![A-Za-z\\]){letter}(?![A-Za-z])", f"({shown})", formula)
    return evaluate(text)


def _show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"
