"""ALPS part 2: untrusted submissions, parsed defensively into chains and presentations.

A submission arrives as bytes or text from a model or a user. Everything here is bounded (bytes,
terms, nesting, list lengths) and every failure becomes a :class:`SubmissionError` whose message
is the feedback the solver sees — never a traceback. The messages follow ALPS's harness
wording, so recorded runs can be compared line by line.

>>> parse_chain_submission('{"chain": ["a", "a ◇ a", "b"]}')
[Var(name='a'), Op(left=Var(name='a'), right=Var(name='a')), Var(name='b')]
>>> parse_chain_submission('{"chain": ["a", "c", "b"]}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
veristep.alps.judge.submission.SubmissionError: term 2 uses illegal symbol(s): c. Every term ...
>>> [str(e) for e in parse_presentation_submission({"E": ["x ◇ y = y ◇ x"]})]
['x ◇ y = y ◇ x']
"""

from __future__ import annotations

import json
import re
from typing import Any

from veristep.alps.judge import limits
from veristep.alps.terms import Law, Op, Term, Var, parse_law, parse_term
from veristep.core.errors import InputError, VeristepError

MAX_SUBMISSION_BYTES = 1_000_000
MAX_TERM_CHARS = 4_000
MAX_NESTING = 64  # parentheses; also the tree depth we accept (matching recurses on it)
MAX_TERM_NODES = limits.MAX_TERM_NODES
MAX_CHAIN = limits.MAX_CHAIN_TERMS
MAX_EQUATIONS = limits.MAX_EQUATIONS
CONSTANTS = frozenset({"a", "b"})
_CONNECTIVES = ("⇒", "=>", "->", "→", "!=", "≠", "&", "|", "∧", "∨", "↔", "<->", "¬", "~")
_ATOM = re.compile(r"[A-Za-z][A-Za-z0-9_]*'*")
_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


class SubmissionError(VeristepError, ValueError):
    """The submission is malformed; ``str(err)`` is the feedback given back verbatim."""


def decode(raw: bytes | str) -> str:
    """Size-limited UTF-8 text of a raw submission."""
    size = len(raw.encode("utf-8", errors="surrogatepass") if isinstance(raw, str) else raw)
    if size > MAX_SUBMISSION_BYTES:
        raise SubmissionError(f"submission too large: over the {MAX_SUBMISSION_BYTES:,}-byte limit")
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SubmissionError(f"submission is not valid UTF-8 (byte {err.start})") from None


def load_object(raw: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """The JSON object inside a submission; model answers may wrap it in prose or code fences."""
    if isinstance(raw, dict):
        return raw
    text = decode(raw)
    found = _JSON_OBJECT.search(text)
    if found is None:
        raise SubmissionError("no JSON")
    try:
        obj = json.loads(found.group(0))
    except (json.JSONDecodeError, RecursionError) as err:
        raise SubmissionError(f"bad JSON: {err}") from None
    if not isinstance(obj, dict):
        raise SubmissionError("no JSON")
    return obj


def _nesting(text: str) -> int:
    depth = deepest = 0
    for ch in text:
        if ch == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == ")":
            depth -= 1
    return deepest


def tree_limits(t: Term) -> tuple[int, int]:
    """(nodes, depth) of a term, iteratively, so a hostile term cannot exhaust the stack."""
    nodes = deepest = 0
    stack: list[tuple[Term, int]] = [(t, 1)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        deepest = max(deepest, depth)
        if isinstance(node, Op):
            stack.append((node.left, depth + 1))
            stack.append((node.right, depth + 1))
    return nodes, deepest


def check_size(text: str, what: str) -> None:
    if len(text) > MAX_TERM_CHARS:
        raise SubmissionError(
            f"{what} is too long: {len(text):,} characters (limit {MAX_TERM_CHARS:,})"
        )
    if _nesting(text) > MAX_NESTING:
        raise SubmissionError(f"{what} is nested deeper than {MAX_NESTING} parentheses")


def check_tree(t: Term, what: str) -> Term:
    nodes, depth = tree_limits(t)
    if nodes > MAX_TERM_NODES or depth > MAX_NESTING:
        raise SubmissionError(
            f"{what} is too big: {nodes} nodes, depth {depth} "
            f"(limits {MAX_TERM_NODES} nodes, depth {MAX_NESTING})"
        )
    return t


# ---------------------------------------------------------------- chain channel


def _chain_term(i: int, text: str) -> Term:
    check_size(text, f"term {i}")
    if text.count("(") != text.count(")"):
        raise SubmissionError(
            f"term {i} has unbalanced parentheses ({text.count('(')} '(' vs "
            f"{text.count(')')} ')'): {text!r}"
        )
    bad = sorted({t for t in _ATOM.findall(text) if t not in CONSTANTS})
    if bad:
        raise SubmissionError(
            f"term {i} uses illegal symbol(s): {', '.join(bad)}. Every term must be GROUND — "
            "built ONLY from the two elements `a` and `b` and the operator ◇"
        )
    try:
        return check_tree(parse_term(text), f"term {i}")
    except InputError as err:
        raise SubmissionError(f"term {i} failed to parse: {err.one_line()}") from None


def parse_chain_submission(raw: bytes | str | dict[str, Any]) -> list[Term]:
    obj = load_object(raw)
    chain = obj.get("chain")
    if not isinstance(chain, list) or len(chain) < 2 or not all(isinstance(s, str) for s in chain):
        raise SubmissionError("chain must be a list of term strings")
    if len(chain) > MAX_CHAIN:
        raise SubmissionError(f"chain has {len(chain)} terms (limit {MAX_CHAIN})")
    terms = [_chain_term(i, s) for i, s in enumerate(chain, start=1)]
    _check_total(sum(tree_limits(t)[0] for t in terms), "chain")
    if terms[0] != Var("a") or terms[-1] != Var("b"):
        raise SubmissionError("the chain must start at exactly `a` and end at exactly `b`")
    return terms


# ---------------------------------------------------------------- construction channel


def _equation(text: str) -> Law:
    if any(c in text for c in _CONNECTIVES):
        raise SubmissionError(
            f"equation {text!r} is not a plain equation: E must be a set of unconditional "
            "identities 'LHS = RHS' — no implications, disequations, or logical connectives"
        )
    if text.count("=") != 1:
        raise SubmissionError(f"equation {text!r} must contain exactly one '='")
    left, right = (s.strip() for s in text.split("=", 1))
    if _ATOM.fullmatch(left) and _ATOM.fullmatch(right):
        raise SubmissionError(f"degenerate equation {text!r}")
    check_size(text, f"equation {text[:40]!r}")
    try:
        law = parse_law(text)
    except InputError as err:
        raise SubmissionError(f"equation {text!r} failed to parse: {err.one_line()}") from None
    check_tree(law.lhs, f"equation {text[:40]!r}")
    check_tree(law.rhs, f"equation {text[:40]!r}")
    return law


def parse_presentation_submission(raw: bytes | str | dict[str, Any]) -> list[Law]:
    obj = load_object(raw)
    eqs = obj.get("E")
    if not isinstance(eqs, list) or not eqs or not all(isinstance(s, str) for s in eqs):
        raise SubmissionError("E must be a nonempty list of 'LHS = RHS' strings")
    if len(eqs) > MAX_EQUATIONS:
        raise SubmissionError(f"E has {len(eqs)} equations (limit {MAX_EQUATIONS})")
    laws = [_equation(s) for s in eqs]
    _check_total(sum(tree_limits(e.lhs)[0] + tree_limits(e.rhs)[0] for e in laws), "E")
    return laws


def _check_total(nodes: int, what: str) -> None:
    if nodes > limits.MAX_SUBMISSION_NODES:
        raise SubmissionError(
            f"{what} is too big: {nodes:,} term nodes in all "
            f"(limit {limits.MAX_SUBMISSION_NODES:,})"
        )
