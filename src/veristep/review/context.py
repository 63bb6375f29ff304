"""The local context of a claim: which values its letters range over ("let x > 0", "n ≥ 2").

A claim is judged against the hypotheses in force where it is made. This module reads the
declarations a proof writes in prose — "let $x > 0$", "for all integers $n \\ge 1$", "suppose
$p$ is prime", "for complex $z$" — into :class:`Domain` records. A letter whose domain this
reader cannot pin down (an adjective it does not know, "odd", "distinct", "such that ...") is
marked *opaque*: no value may be tried for it, so nothing can be refuted through it.

>>> d = read_declarations("For all integers $n \\\\ge 2$, the sum is even.")["n"]
>>> (d.kind, d.lower, d.strict_lower)
('integer', Fraction(2, 1), False)
>>> read_declarations("Suppose $p$ is prime.")["p"].kind
'prime'
>>> read_declarations("Let $z$ be a complex number.")["z"].kind
'complex'
>>> read_declarations("Let $n$ be an odd integer.")["n"].opaque
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction

from veristep.review.arithmetic import evaluate

KINDS = ("prime", "natural", "integer", "rational", "real", "complex")

# Nouns and adjectives that name a kind of number, in the order they are tried.
_KIND_WORDS: tuple[tuple[str, str], ...] = (
    (r"primes?|prime numbers?", "prime"),
    (r"natural numbers?|\\mathbb\s*\{?N\}?|ℕ", "natural"),
    (r"integers?|\\mathbb\s*\{?Z\}?|ℤ", "integer"),
    (r"rationals?|rational numbers?|\\mathbb\s*\{?Q\}?|ℚ", "rational"),
    (r"reals?|real numbers?|\\mathbb\s*\{?R\}?|ℝ", "real"),
    (r"complex(?: numbers?)?|\\mathbb\s*\{?C\}?|ℂ", "complex"),
)
# Qualifiers that narrow a kind in a way the sampler does not model: the letter becomes opaque.
_OPAQUE_WORDS = re.compile(
    r"\b(odd|even|distinct|coprime|relatively prime|composite|square-?free|perfect|nonzero|"
    r"non-zero|irrational|such that|with|satisfying|where)\b",
    re.IGNORECASE,
)
_LETTER = r"[a-zA-Z]"
_MATH = r"(?:\$([^$]{1,80})\$|\\\(([^)]{1,80})\\\))"
_BOUND = re.compile(rf"^\s*({_LETTER})\s*(\\geq?|\\ge|≥|>|\\leq?|\\le|≤|<|\\in)\s*(.+?)\s*$")


@dataclass(frozen=True)
class Domain:
    """The values one letter ranges over: a kind and optional bounds; opaque = do not sample."""

    kind: str = "unknown"  # one of KINDS, or "unknown" (no kind was written)
    lower: Fraction | None = None
    strict_lower: bool = False
    upper: Fraction | None = None
    strict_upper: bool = False
    opaque: bool = False

    def admits(self, value: Fraction) -> bool:
        """True when a rational ``value`` lies inside the bounds (the kind is checked apart)."""
        if self.lower is not None and (
            value < self.lower or (self.strict_lower and value == self.lower)
        ):
            return False
        return not (
            self.upper is not None
            and (value > self.upper or (self.strict_upper and value == self.upper))
        )

    def describe(self) -> str:
        """A short reading for reports and fixtures: "integer ≥ 2", "prime > 3", "complex".

        >>> Domain("integer", Fraction(2)).describe(), Domain(opaque=True).describe()
        ('integer ≥ 2', 'opaque')
        """
        if self.opaque:
            return "opaque"
        parts = [self.kind]
        if self.lower is not None:
            parts.append(f"{'>' if self.strict_lower else '≥'} {self.lower}")
        if self.upper is not None:
            parts.append(f"{'<' if self.strict_upper else '≤'} {self.upper}")
        return " ".join(parts)

    def merged(self, other: Domain) -> Domain:
        """Both declarations together: the narrower kind, every bound, opaque if either is."""
        kind = other.kind if other.kind != "unknown" else self.kind
        if "unknown" not in (self.kind, other.kind):
            kind = min(self.kind, other.kind, key=KINDS.index)
        out = replace(self, kind=kind, opaque=self.opaque or other.opaque)
        if other.lower is not None and (out.lower is None or other.lower >= out.lower):
            out = replace(out, lower=other.lower, strict_lower=other.strict_lower)
        if other.upper is not None and (out.upper is None or other.upper <= out.upper):
            out = replace(out, upper=other.upper, strict_upper=other.strict_upper)
        return out


def kind_in(phrase: str) -> str | None:
    """The number kind a phrase names ("positive integers" → integer), if any.

    >>> kind_in("every positive integer"), kind_in("each prime"), kind_in("all n")
    ('integer', 'prime', None)
    """
    for pattern, kind in _KIND_WORDS:
        if re.search(rf"(?<![A-Za-z])(?:{pattern})(?![A-Za-z])", phrase, re.IGNORECASE):
            return kind
    return None


def bound_of(formula: str) -> tuple[str, Domain] | None:
    """``n \\ge 2`` → ("n", lower 2); ``x \\in \\mathbb{R}`` → ("x", real); else None.

    >>> bound_of("x > 0")
    ('x', Domain(kind='unknown', lower=Fraction(0, 1), strict_lower=True, upper=None, \
strict_upper=False, opaque=False))
    """
    m = _BOUND.match(formula)
    if not m:
        return None
    letter, rel, rest = m.groups()
    if rel == "\\in":
        kind = kind_in(rest)
        return (letter, Domain(kind)) if kind else (letter, Domain(opaque=True))
    value = evaluate(rest)
    if value is None:
        return None
    strict = rel in (">", "<")
    if rel in (">", "\\ge", "\\geq", "≥"):
        return letter, Domain(lower=value, strict_lower=strict)
    return letter, Domain(upper=value, strict_upper=strict)


def positive_words(phrase: str) -> Domain:
    """ "positive" / "non-negative" / "negative" as bounds."""
    low = phrase.lower()
    if re.search(r"non-?negative", low):
        return Domain(lower=Fraction(0))
    if "positive" in low:
        return Domain(lower=Fraction(0), strict_lower=True)
    if "negative" in low:
        return Domain(upper=Fraction(0), strict_upper=True)
    return Domain()


def read_declarations(text: str) -> dict[str, Domain]:
    """Every letter a sentence declares ("let", "suppose", "for all", …) with its domain."""
    out: dict[str, Domain] = {}
    for letter, domain in _declared(text):
        out[letter] = out[letter].merged(domain) if letter in out else domain
    return out


_INTRO = re.compile(
    r"\b(let|suppose|assume|for\s+(?:all|every|each|any)|fix|take|given)\b", re.IGNORECASE
)


def _declared(text: str) -> list[tuple[str, Domain]]:
    found: list[tuple[str, Domain]] = []
    for intro in _INTRO.finditer(text):
        # The declaration runs to the end of the clause: a comma, a period, "then", "we".
        clause = re.split(r"[,.;:]\s|\bthen\b|\bwe\b", text[intro.end() :], maxsplit=1)[0]
        found.extend(clause_declarations(clause))
    return found


def clause_declarations(clause: str) -> list[tuple[str, Domain]]:
    formulas = [a or b for a, b in re.findall(_MATH, clause)]
    words = re.sub(_MATH, " ", clause)
    kind = kind_in(words)
    base = replace(positive_words(words), kind=kind or "unknown")
    if _OPAQUE_WORDS.search(words):
        base = replace(base, opaque=True)
    out: list[tuple[str, Domain]] = []
    for formula in formulas:
        bound = bound_of(formula)
        if bound is not None:
            out.append((bound[0], base.merged(bound[1])))
            continue
        letters = [x.strip() for x in formula.split(",")]
        if all(re.fullmatch(_LETTER, x) for x in letters):
            out.extend((x, base) for x in letters)
        else:
            # A formula we cannot read as a declaration: its letters take no sampled values.
            out.extend((x, Domain(opaque=True)) for x in set(re.findall(_LETTER, formula)))
    return out
