"""The shape of a proposition, for ranking lemmas by what their conclusion looks like.

A goal ``0 <= sqrt x * sqrt y`` and a lemma ending ``Rle (IZR Z0) (Rmult r1 r2)`` (Coq prints
harvested statements without notations) have the same shape: relation ``le``, a constant on the
left, a product on the right. Keyword overlap cannot see that (the goal says ``*``, the lemma
``Rmult``; the goal mentions ``sqrt``, which the lemma need not); the shape can: it is read off
the conclusion's relation and the head symbol of each side, with infix and prefix spellings
mapped to one name, and ``>=``/``>`` turned round to ``<=``/``<``.

>>> shape = prop_shape("forall x : R, 0 <= x -> sqrt x * sqrt x = x")
>>> shape.relation, shape.left, shape.right, sorted(shape.heads), shape.premises
('eq', 'mult', 'var', ['mult', 'sqrt'], 1)
>>> prop_shape("Rdefinitions.Rle (Rdefinitions.IZR BinNums.Z0) (RbaseSymbolsImpl.Rmult r1 r2)")
Shape(relation='le', left='const', right='mult', heads=frozenset({'mult'}), premises=0)
>>> prop_shape("x > 2 + y").relation, prop_shape("x > 2 + y").left
('lt', 'plus')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MAX_TEXT = 2000  # characters: longer conclusions are not read (no shape, keyword ranking only)
_QUALIFIER = re.compile(r"\b(?:[A-Za-z_][\w']*\.)+(?=[A-Za-z_])")
_SCOPE = re.compile(r"%\w+")
_TOKEN = re.compile(r"<->|->|<=|>=|<>|/\\|\\/|[-+*/^<>=(),~]|[A-Za-z_][\w']*|\d+(?:\.\d+)?|\S")

# Prefix names (qualifiers dropped) and infix operators, mapped to one vocabulary.
_RELATIONS = {
    "=": "eq", "<>": "neq", "<=": "le", "<": "lt", ">=": "ge", ">": "gt",
    "Rle": "le", "Rlt": "lt", "Rge": "ge", "Rgt": "gt", "le": "le", "lt": "lt", "ge": "ge",
    "gt": "gt", "eq": "eq", "divide": "divide", "Zdivide": "divide",
}  # fmt: skip
_FUNCTIONS = {
    "+": "plus", "-": "minus", "*": "mult", "/": "div", "^": "pow",
    "Rplus": "plus", "add": "plus", "Rminus": "minus", "sub": "minus", "Rmult": "mult",
    "mul": "mult", "Rdiv": "div", "div": "div", "Rinv": "inv", "Ropp": "opp", "opp": "opp",
    "pow": "pow", "Rpower": "pow", "Zpower": "pow", "Rsqr": "sqr", "square": "sqr",
    "sqrt": "sqrt", "Rsqrt": "sqrt", "ln": "ln", "exp": "exp", "Rabs": "abs", "abs": "abs",
    "IZR": "cast", "INR": "cast", "of_nat": "cast", "Z_of_nat": "cast", "to_nat": "cast",
    "sin": "sin", "cos": "cos", "tan": "tan", "modulo": "mod", "mod": "mod", "gcd": "gcd",
    "Rmax": "max", "Rmin": "min", "max": "max", "min": "min", "fact": "fact",
}  # fmt: skip
_LITERALS = frozenset({"R0", "R1", "Z0", "Zpos", "Zneg", "xH", "xO", "xI", "O", "S", "PI"})
_OPENERS = frozenset({"(", ",", "+", "-", "*", "/", "^", "=", "<>", "<=", "<", ">=", ">", "mod"})
_PRECEDENCE = (("+", "-"), ("*", "/", "mod"), ("^",))  # lowest binding first


@dataclass(frozen=True)
class Shape:
    """A conclusion's relation, the heads of its two sides, every function symbol in it, and
    how many premises lead to it."""

    relation: str
    left: str
    right: str
    heads: frozenset[str]
    premises: int


def prop_shape(text: str) -> Shape | None:
    """The shape of a statement or goal, or None when it has no relation to read."""
    if len(text) > _MAX_TEXT:
        return None
    tokens = _TOKEN.findall(_SCOPE.sub("", _QUALIFIER.sub("", text)))
    tokens, premises = _conclusion(tokens)
    while _wrapped(tokens):
        tokens = tokens[1:-1]
    found = _infix_relation(tokens) or _prefix_relation(tokens)
    if found is None:
        return None
    relation, left, right = found
    if relation in ("ge", "gt"):  # a >= b is b <= a
        relation, left, right = {"ge": "le", "gt": "lt"}[relation], right, left
    return Shape(relation, _head(left), _head(right), _heads(tokens), premises)


def shape_score(lemma: Shape, goal: Shape) -> float:
    """How well a lemma of shape ``lemma`` fits a goal of shape ``goal``: the relation, the heads
    of the two sides, the symbols in common; premises cost a little (each is a new goal).

    An equation fits either way round, and one whose left head appears in the goal scores as a
    rewrite even when the goal's relation differs (``sqrt x * sqrt x = x`` rewrites inside
    ``0 <= sqrt x * sqrt x + 1``).
    """
    score = 0.0
    if lemma.relation == goal.relation:
        score += 3.0
        sides = _side(lemma.left, goal.left) + _side(lemma.right, goal.right)
        if lemma.relation in ("eq", "neq"):  # used either way round (rewrite <-, symmetry)
            sides = max(sides, _side(lemma.left, goal.right) + _side(lemma.right, goal.left))
        score += sides
    elif lemma.relation == "eq" and lemma.left in goal.heads:
        score += 2.0
    union = lemma.heads | goal.heads
    if union:
        score += 2.0 * len(lemma.heads & goal.heads) / len(union)
    return score - 0.25 * lemma.premises


def _side(lemma_head: str, goal_head: str) -> float:
    if lemma_head == goal_head:
        return 0.5 if lemma_head == "var" else 2.0
    return 0.5 if lemma_head == "var" else 0.0  # a bare letter unifies with anything


def _conclusion(tokens: list[str]) -> tuple[list[str], int]:
    """The tokens after the binders and the top-level premises, and how many premises."""
    premises = 0
    while True:
        if tokens[:1] == ["forall"] or tokens[:1] == ["exists"]:
            comma = _top_level(tokens, ",")
            if not comma:
                return tokens, premises
            tokens = tokens[comma[0] + 1 :]
            continue
        arrows = _top_level(tokens, "->")
        if not arrows:
            return tokens, premises
        premises += len(arrows)
        tokens = tokens[arrows[-1] + 1 :]


def _top_level(tokens: list[str], *wanted: str) -> list[int]:
    """Positions of ``wanted`` tokens outside every parenthesis."""
    depth, out = 0, []
    for i, tok in enumerate(tokens):
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
        elif depth == 0 and tok in wanted:
            out.append(i)
    return out


def _wrapped(tokens: list[str]) -> bool:
    """``( … )`` whose first parenthesis closes at the end."""
    if len(tokens) < 2 or tokens[0] != "(" or tokens[-1] != ")":
        return False
    depth = 0
    for i, tok in enumerate(tokens):
        depth += tok == "("
        depth -= tok == ")"
        if depth == 0 and i < len(tokens) - 1:
            return False
    return True


def _infix_relation(tokens: list[str]) -> tuple[str, list[str], list[str]] | None:
    if _top_level(tokens, "/\\", "\\/", "<->"):
        return None  # a conjunction or an equivalence has no single relation
    at = _top_level(tokens, "=", "<>", "<=", "<", ">=", ">")
    if len(at) == 2 and tokens[at[0]] in ("<=", "<") and tokens[at[1]] in ("<=", "<"):
        return None  # a chain a <= b < c
    if len(at) != 1:
        return None
    i = at[0]
    return _RELATIONS[tokens[i]], tokens[:i], tokens[i + 1 :]


def _prefix_relation(tokens: list[str]) -> tuple[str, list[str], list[str]] | None:
    if not tokens or tokens[0] not in _RELATIONS or not tokens[0][0].isalpha():
        return None
    arguments = _arguments(tokens[1:])
    if len(arguments) != 2:
        return None
    return _RELATIONS[tokens[0]], arguments[0], arguments[1]


def _arguments(tokens: list[str]) -> list[list[str]]:
    """The arguments of a prefix application: atoms and parenthesised terms."""
    out: list[list[str]] = []
    i = 0
    while i < len(tokens):
        if tokens[i] == "(":
            depth, j = 0, i
            while j < len(tokens):
                depth += tokens[j] == "("
                depth -= tokens[j] == ")"
                if depth == 0:
                    break
                j += 1
            out.append(tokens[i : j + 1])
            i = j + 1
        else:
            out.append([tokens[i]])
            i += 1
    return out


def _head(tokens: list[str]) -> str:
    """The head symbol of a term: its loosest infix operator, its function, const or var."""
    while _wrapped(tokens):
        tokens = tokens[1:-1]
    if not tokens:
        return "var"
    for operators in _PRECEDENCE:
        # a binary operator: not the first token (that is a unary minus) nor after another one
        at = [i for i in _top_level(tokens, *operators) if i > 0 and tokens[i - 1] not in "+-*/^"]
        if at:
            return _FUNCTIONS[tokens[at[-1]]]
    if tokens[0] == "-":
        return "opp" if not _literal(tokens[1:]) else "const"
    if tokens[0] == "/":
        return "inv"  # Coq's "/ x" is 1 / x
    if _literal(tokens):
        return "const"
    if tokens[0] in _FUNCTIONS:
        name = _FUNCTIONS[tokens[0]]
        return "const" if name == "cast" and _literal(tokens[1:]) else name
    return "var" if len(tokens) == 1 else "app"


def _heads(tokens: list[str]) -> frozenset[str]:
    """Every function symbol of a term; a ``-`` or ``/`` with nothing on its left is ``opp`` or
    ``inv`` (``Rabs (- x)`` is about a negation, not a difference)."""
    out = set()
    for i, tok in enumerate(tokens):
        if tok not in _FUNCTIONS:
            continue
        unary = tok in "-/" and (i == 0 or tokens[i - 1] in _OPENERS)
        out.add({"-": "opp", "/": "inv"}[tok] if unary else _FUNCTIONS[tok])
    return frozenset(out - {"cast"})


def _literal(tokens: list[str]) -> bool:
    """A numeral, in digits or in Coq's binary constructors (``IZR (Zpos (xO xH))``)."""
    inner = [t for t in tokens if t not in ("(", ")", "IZR", "INR")]
    return bool(inner) and all(t.isdigit() or t in _LITERALS for t in inner)
