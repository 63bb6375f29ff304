"""Claims about the problem's own letters, tried on points that satisfy the problem's hypotheses.

An inequality problem fixes its letters once ("Let $a, b, c$ be positive real numbers such that
$abc = 1$. Prove that …"), and a proof of it states inequalities about those letters — a lemma
("$a^5 + b^5 + c^2 \\ge a + b + c$"), a bound ("$\\frac{16}{6(a+b+c+d)+40} \\ge \\frac{16}{64}$").
Each such statement claims to hold wherever the hypotheses hold, so one admissible point where
it fails is a witness anybody can re-check with exact arithmetic, and the step is FLAWED.
Agreement on every point tried is evidence only.

What is read, and what is left alone because it is not a claim about every admissible point:

- the hypotheses: letters declared real (positive, nonnegative or any) in one sentence of the
  problem, with at most one equation among them (``such that $abc = 1$``), which is solved for
  one letter so that every sampled point satisfies it exactly; anything else (a second
  condition, subscripts, a function) and nothing is read;
- sentences that suppose, restrict or define (a case, "without loss of generality", "if",
  "let", a question, a negation) assert nothing about every point. The relations between the
  problem's letters that they contain are *collected*: a witness must satisfy every one met so
  far, so a claim made inside "Case 1: $a \\ge 1$" is only ever refuted by a point with
  $a \\ge 1$ (and after two exclusive cases, or an assumed $a = b$, by hardly any point at all).
  Sentences that only try or describe values ("equality when $a = b = c$", "test $a = 2$")
  assert nothing and restrict nothing;
- once a proof redefines one of the problem's letters ("let $a = x^2$"), its later claims are
  not about the problem's $a$ any more, and nothing after it is tried.

>>> s = read_standing("Let \\\\(a, b, c\\\\) be positive reals such that \\\\(abc = 1\\\\). Prove")
>>> s.letters, s.lower, s.constraint
(('a', 'b', 'c'), Fraction(0, 1), 'abc = 1')
>>> r = search_standing("a^5+b^5+c^2 \\\\ge a+b+c", s, ())
>>> r.status, r.assignment
('counterexample', (('a', '1'), ('b', '4/5'), ('c', '5/4')))
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from veristep.review.claims import Link
from veristep.review.smallcases import CaseResult, _case, _parse, _show, shown_claim

ORDER_RELATIONS = ("<", "<=", ">", ">=")
MAX_POINTS = 400
_LETTERS = r"((?:[a-z]\s*,\s*)*[a-z](?:\s*,?\s*(?:and\s+)?[a-z])?)"
_MATH = r"(?:\\\(|\$)\s*{}\s*(?:\\\)|\$)"
_DECLARATION = re.compile(
    r"(?:let|given|suppose|if)\s+(?:the\s+)?(?:(?:positive|nonnegative|non-negative)\s+)?"
    r"(?:real\s+numbers?\s+)?"
    + _MATH.format(_LETTERS)
    + r"(?:\s*(?:,\s*)?(?:and|,)\s*"
    + _MATH.format(r"([a-z])")
    + r")?\s*(?:be|are)?\s*(?:(positive|nonnegative|non-negative)\s+)?(?:real\s+numbers?|reals)?"
    r"\s*,?\s*(?:(?:such\s+that|with|satisfying)\s+"
    + _MATH.format(r"([^$]{1,60}?)")
    + r")?\s*[.,]",
    re.IGNORECASE,
)
_SIGN_WORD = re.compile(r"(positive|nonnegative|non-negative)\s+real", re.IGNORECASE)
# A sentence that supposes, restricts, defines, tests or denies asserts nothing about every point.
_NOT_ASSERTED = re.compile(
    r"suppos|assum|\bif\b|\bcase|wlog|without loss|\bwhen|\bwhere\b|\blet\b|\bset\b|\bput\b|"
    r"denot|defin|otherwise|either|\bor\b|\bequality|consider|example|e\.g\.|\btry|\btest|check|"
    r"instance|would|could|might|\bno\b|\bnot\b|n't|false|\bfail|contradict|impossible|absurd|"
    r"\?|approx|\bnear|close to|sufficiently|limit|tends|\bonly\b|\bsay\b|e\.g|i\.e\.,? when|"
    r"substitut|plug|numerical|sample",
    re.IGNORECASE,
)
# Of those, the ones that try or describe values rather than restrict them ("equality holds
# when $a = b = c$", "let us test $a = 2$") add no assumption.
_TRIES_VALUES = re.compile(
    r"\bequality|\bequal when|\btest|check|example|e\.g|instance|\btry|plug|substitut|numerical|"
    r"sample|\bsay\b|attain|achiev|extremal",
    re.IGNORECASE,
)
_INLINE = r"(?:\$([^$]{1,120})\$|\\\(((?:(?!\\\)).){1,120})\\\))"
_EXTREMUM = re.compile(
    r"\b(maximum|max|largest|greatest|minimum|min|smallest|least)\s+(?:possible\s+)?"
    r"(?:value\s+)?of\s+" + _INLINE + r"\s+(?:is|equals)\s+" + _INLINE,
    re.IGNORECASE,
)
_ASSUMES = re.compile(
    r"suppos|assum|\bcase|wlog|without loss|\bif\b|\blet\b|\bset\b|\bput\b|otherwise",
    re.IGNORECASE,
)
_POSITIVE_POOL = [
    Fraction(n, d)
    for n, d in (
        (1, 1),
        (2, 1),
        (1, 2),
        (3, 1),
        (1, 3),
        (3, 2),
        (2, 3),
        (4, 1),
        (1, 4),
        (5, 4),
        (4, 5),
        (10, 1),
        (1, 10),
        (7, 5),
        (5, 7),
    )
]


@dataclass(frozen=True)
class Standing:
    """The problem's letters, their sign, and at most one equation among them."""

    letters: tuple[str, ...]
    lower: Fraction | None  # 0 for positive and nonnegative reals, None for any real
    strict: bool
    constraint: str | None


def read_standing(problem: str) -> Standing | None:
    """The problem's standing hypotheses on real letters, or None when they are not all read."""
    found = None
    for m in _DECLARATION.finditer(problem):
        letters = tuple(re.findall(r"[a-z]", re.sub(r"\band\b", ",", m.group(1))))
        if m.group(2):
            letters += (m.group(2),)
        head = problem[m.start() : m.end()]
        if not re.search(r"real", head, re.IGNORECASE) or len(set(letters)) != len(letters):
            continue
        if found is not None or not 1 <= len(letters) <= 4:
            return None  # two declarations, or too many letters: not read
        sign = (m.group(3) or "") or (
            _SIGN_WORD.search(head).group(1) if _SIGN_WORD.search(head) else ""
        )
        lower = Fraction(0) if sign else None
        strict = sign.lower() == "positive"
        constraint = (m.group(4) or "").strip() or None
        if constraint is not None and constraint.count("=") != 1:
            return None
        if constraint and re.search(r"[<>≤≥]|\\(?:le|ge|ne|neq|leq|geq)\b", constraint):
            return None
        found = Standing(letters, lower, strict, constraint)
    return found


def asserted(sentence: str) -> bool:
    """False for a sentence that supposes, restricts, defines or denies (see the module doc)."""
    return not _NOT_ASSERTED.search(sentence)


def extremum_claims(sentence: str) -> list[Link]:
    """ "The maximum of $E$ is $M$" claims $E \\le M$ at every admissible point (and "the
    minimum", $E \\ge M$): a point where $E$ passes $M$ refutes the claimed extremum.

    >>> [(x.lhs, x.rel, x.rhs) for x in extremum_claims("So the maximum value of $xy$ is $1$.")]
    [('xy', '<=', '1')]
    """
    out = []
    for m in _EXTREMUM.finditer(sentence):
        word, expr, value = m.group(1).lower(), m.group(2) or m.group(3), m.group(4) or m.group(5)
        rel = "<=" if word in ("maximum", "max", "largest", "greatest") else ">="
        out.append(Link(expr.strip(), rel, value.strip(), m.start(), False))
    return out


def assumptions(sentence: str, relations: list[str]) -> list[str]:
    """The relations of a sentence that restrict what follows ("Case 1: $a \\ge 1$").

    An order relation restricts whenever the sentence is not asserted and not a try of values;
    an equation only where the sentence says it assumes ("if", "suppose", "case", "let"), since
    "the sum is 3 when $a = b = c = 1$" names a point, and restricts nothing.
    """
    if asserted(sentence) or _TRIES_VALUES.search(sentence):
        return []
    if _ASSUMES.search(sentence):
        return relations
    return [r for r in relations if not re.fullmatch(r"[^=]*=[^=]*", r)]


def redefines(sentence: str, standing: Standing) -> bool:
    """True when the sentence gives one of the problem's letters a new meaning (``let a = x^2``)."""
    letters = "".join(standing.letters)
    pattern = rf"(?:let|set|put|define|denote|substitut\w*)\s+(?:\$|\\\()\s*[{letters}]\s*(?:=|:=)"
    return bool(re.search(pattern, sentence, re.IGNORECASE))


def search_standing(claim: str, standing: Standing, assumed: tuple[str, ...]) -> CaseResult:
    """Try ``claim`` on points satisfying the hypotheses and every assumption collected so far.

    Runs SymPy: call it in a CAS worker (``core.pool.run_cas``), where a deadline bounds it.
    """
    import sympy as sp

    parsed = _parse(claim)
    if parsed is None or parsed[0] not in ORDER_RELATIONS:
        return CaseResult("undecided", reason="not an order relation between two expressions")
    kind, sides = parsed
    symbols = {s.name for side in sides for s in side.free_symbols}
    if not symbols or not symbols <= set(standing.letters):
        return CaseResult("undecided", reason="not a claim about the problem's letters alone")
    conditions = [c for c in (_parse(a) for a in assumed) if c is not None]
    solved = _solve_constraint(sp, standing)
    if solved is None:
        return CaseResult("undecided", reason="the problem's equation is not solved for a letter")
    dependent, formula = solved
    free = [x for x in standing.letters if x != dependent]
    pool = _pool(standing)
    cases = 0
    for combo in _points(pool, len(free)):
        values = {
            x: sp.Rational(v.numerator, v.denominator) for x, v in zip(free, combo, strict=True)
        }
        if dependent is not None:
            value = formula.xreplace({s: values[s.name] for s in formula.free_symbols})
            if not _admits(sp, standing, value):
                continue
            values[dependent] = value
        if any(_case(k, s, values) is not True for k, s in conditions):
            continue  # outside an assumption in force
        verdict = _case(kind, sides, values)
        if verdict is None:
            continue
        cases += 1
        if verdict is not True:
            shown = ", ".join(f"{k} = {_show(v)}" for k, v in sorted(values.items()))
            return CaseResult(
                "counterexample",
                cases,
                f"{shown} (satisfies the problem's hypotheses): {shown_claim(claim)} fails, "
                f"{verdict}",
                tuple((k, _show(v)) for k, v in sorted(values.items())),
            )
    if cases < 5:
        return CaseResult("undecided", cases, reason=f"only {cases} admissible point(s)")
    return CaseResult("agrees", cases, reason=f"holds at {cases} admissible points (evidence)")


@functools.lru_cache(maxsize=64)  # a worker solves each problem's equation once, not per claim
def _solve_constraint(sp: Any, standing: Standing) -> tuple[str | None, Any] | None:
    """(letter, its value in terms of the others) from the problem's equation; (None, None) if
    there is no equation; None when no letter has exactly one solution."""
    if standing.constraint is None:
        return None, None
    from veristep.mathgraph import parse_latex, to_sympy

    left, _, right = standing.constraint.partition("=")
    try:
        equation = to_sympy(parse_latex(left)) - to_sympy(parse_latex(right))
    except Exception:  # an unreadable hypothesis: nothing is sampled
        return None
    if not {s.name for s in equation.free_symbols} <= set(standing.letters):
        return None
    symbols = {s.name: s for s in equation.free_symbols}
    for letter in reversed(standing.letters):
        if letter not in symbols:
            continue
        solutions = sp.solve(equation, symbols[letter])
        if len(solutions) == 1:
            return letter, solutions[0]
    return None


def _pool(standing: Standing) -> list[Fraction]:
    pool = list(_POSITIVE_POOL)
    if standing.lower is None:
        pool = [Fraction(0), *[v for p in pool[:8] for v in (p, -p)]]
    elif not standing.strict:
        pool = [Fraction(0), *pool[:-1]]
    return pool


def _points(pool: list[Fraction], arity: int) -> list[tuple[Fraction, ...]]:
    import itertools

    if arity == 0:
        return [()]
    index = sorted(itertools.product(range(len(pool)), repeat=arity), key=lambda i: (sum(i), i))
    return [tuple(pool[i] for i in idx) for idx in index[:MAX_POINTS]]


def _admits(sp: Any, standing: Standing, value: Any) -> bool:
    if not value.is_real or value.has(sp.zoo, sp.nan):
        return False
    if standing.lower is None:
        return True
    return bool(value > standing.lower if standing.strict else value >= standing.lower)
