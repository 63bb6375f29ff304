"""Ask for what you want: task words typed before the maths, read into a goal and a start.

``solve 2x+3=25``, ``factor x^3-1``, ``differentiate x^2 \\sin x``, ``integrate 3x^2 from 0 to 1``,
``limit of \\frac{\\sin x}{x} as x \\to 0``, ``prove (a+b)^2 = a^2+2ab+b^2``. The words are read
here; the maths after them goes to the same parser as any state. A differentiation, integral or
limit is written as the LaTeX construct it asks for, so the planner and the checker see one
object; *prove A = B* becomes the derivation from A to B.

>>> read_task("solve 2x+3=25")
Task(goal='solve', start='2x+3=25', target=None, var=None)
>>> read_task("Factorise: x^3 - 1").start
'x^3 - 1'
>>> read_task("differentiate x^2 \\\\sin x").start
'\\\\frac{d}{dx}\\\\left(x^2 \\\\sin x\\\\right)'
>>> read_task("limit of \\\\frac{\\\\sin x}{x} as x -> 0").start
'\\\\lim_{x \\\\to 0} \\\\left(\\\\frac{\\\\sin x}{x}\\\\right)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.propose.symbolic.finished import GOALS

# Task words, longest first; each maps to a goal.
_WORDS: tuple[tuple[str, str], ...] = (
    (r"find the derivative of|the derivative of|derivative of|differentiate", "differentiate"),
    (r"find the integral of|the integral of|integral of|integrate", "integrate"),
    (r"find the limit of|the limit of|limit of|find the limit", "limit"),
    (r"prove the identity|prove that|prove|show that|verify that|verify", "prove"),
    (r"factori[sz]e|factor|factorise", "factor"),
    (r"simplify|evaluate|compute|calculate|work out", "simplify"),
    (r"expand", "expand"),
    (r"solve", "solve"),
)
_LEAD = re.compile(
    r"^\s*(?P<word>" + "|".join(w for w, _ in _WORDS) + r")\b\s*:?\s*", re.IGNORECASE
)
_FOR_VAR = re.compile(r"\s+for\s+(?P<var>[A-Za-z])\s*$")
_WRT = re.compile(r"\s+(?:with respect to|wrt|w\.r\.t\.)\s+(?P<var>[A-Za-z])\s*$", re.IGNORECASE)
_BOUNDS = re.compile(r"\s+from\s+(?P<lo>\S+)\s+to\s+(?P<hi>\S+)\s*$", re.IGNORECASE)
_AS = re.compile(
    r"\s+as\s+(?P<var>[A-Za-z])\s*(?:->|\\to|→|\\rightarrow)\s*(?P<point>.+?)\s*$", re.IGNORECASE
)
_HAS_DX = re.compile(r"(?:\\,|\s)d[A-Za-z]\s*$")


@dataclass(frozen=True)
class Task:
    goal: str | None  # None: the start's default (a statement is solved, ...)
    start: str
    target: str | None
    var: str | None = None  # the unknown or variable, when the task names it


def read_task(
    text: str, target: str | None = None, goal: str | None = None, settings: Settings | None = None
) -> Task:
    """The goal, the start as LaTeX and the target, from what was typed."""
    if goal is not None and goal not in GOALS:
        raise InputError(f"unknown goal {goal!r}; expected one of: {', '.join(GOALS)}")
    target = target if target and target.strip() else None
    match = _LEAD.match(text)
    if match is None:
        return Task(goal, text, target)
    word = match.group("word").lower()
    said = next(g for w, g in _WORDS if re.fullmatch(w, word))
    if goal is not None and goal != said:
        raise InputError(f"the task says {word!r} but the goal given is {goal!r}")
    rest = text[match.end() :]
    if not rest.strip():
        raise InputError(f"nothing after {word!r}: give the maths to {said}")
    return _build(said, rest, target, settings)


def _build(goal: str, rest: str, target: str | None, settings: Settings | None) -> Task:
    var = None
    if goal == "solve":
        found = _FOR_VAR.search(rest)
        if found:
            var, rest = found.group("var"), rest[: found.start()]
        return Task(goal, rest.strip(), target, var)
    if goal == "differentiate":
        found = _WRT.search(rest)
        if found:
            var, rest = found.group("var"), rest[: found.start()]
        var = var or _variable(rest, settings)
        body = _as_latex(rest, settings)
        return Task(goal, rf"\frac{{d}}{{d{var}}}\left({body}\right)", target, var)
    if goal == "integrate":
        return _integral(rest, target, settings)
    if goal == "limit":
        found = _AS.search(rest)
        if found is None:
            if rest.lstrip().startswith("\\lim"):
                return Task(goal, rest.strip(), target)
            raise InputError("a limit needs its point: 'limit of F as x -> a'")
        var, point = found.group("var"), _as_latex(found.group("point"), settings)
        body = _as_latex(rest[: found.start()], settings)
        return Task(goal, rf"\lim_{{{var} \to {point}}} \left({body}\right)", target, var)
    if goal == "prove" and target is None:
        return _identity(rest, settings)
    return Task(goal, rest.strip(), target)


def _integral(rest: str, target: str | None, settings: Settings | None) -> Task:
    bounds = _BOUNDS.search(rest)
    lo = hi = None
    if bounds:
        lo, hi, rest = bounds.group("lo"), bounds.group("hi"), rest[: bounds.start()]
    body = rest.strip()
    if body.startswith("\\int"):
        return Task("integrate", body, target)
    dx = _HAS_DX.search(body)
    if dx:
        var, body = body[dx.end() - 1], body[: dx.start()].strip()
    else:
        var = _variable(body, settings)
    body = _as_latex(body, settings)
    limits = f"_{{{_as_latex(lo, settings)}}}^{{{_as_latex(hi, settings)}}}" if bounds else ""
    return Task("integrate", rf"\int{limits} \left({body}\right) \, d{var}", target, var)


def _identity(rest: str, settings: Settings | None) -> Task:
    """*prove A = B*: the derivation from A to B (both sides as the parser reads them)."""
    from veristep.mathgraph import parse_math, to_latex
    from veristep.mathgraph.nodes import Kind

    graph = parse_math(rest.strip(), settings)
    root = graph.root
    if root.kind is not Kind.RELATION or root.value != "=" or len(root.children) != 2:
        raise InputError("prove needs an identity to prove: 'prove A = B'")
    left, right = root.children
    return Task("prove", to_latex(left), to_latex(right))


def _as_latex(text: str, settings: Settings | None) -> str:
    """The maths as LaTeX, so that it can sit inside a LaTeX construct (``\\frac{d}{dx}``):
    plain maths (``x^2 sin x``) is read by the plain reader and written back as LaTeX."""
    from veristep.mathgraph import parse_math, to_latex
    from veristep.mathgraph.reader import reader_for

    text = text.strip()
    return to_latex(parse_math(text, settings)) if reader_for(text) == "plain" else text


def _variable(latex: str, settings: Settings | None) -> str:
    """The variable of a differentiation or integral: x when present, else the only (or the
    alphabetically first) letter."""
    from veristep.mathgraph import parse_math
    from veristep.mathgraph.nodes import Kind

    names = {n.value for n in parse_math(latex.strip(), settings).root.walk()
             if n.kind is Kind.SYMBOL and len(n.value) == 1}  # fmt: skip
    for preferred in ("x", "t", "y", "z"):
        if preferred in names:
            return preferred
    return min(names) if names else "x"
