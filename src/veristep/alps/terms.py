"""Terms and laws over one binary operation ◇ (a magma): the central data type of ALPS.

A term is a frozen tree of :class:`Var` leaves and :class:`Op` nodes; a :class:`Law` is
``lhs = rhs``.
Everything else in ``alps`` is a function over these trees.

>>> law = parse_law("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)")
>>> law.order, sorted(law.variables())
(5, ['x', 'y', 'z'])
>>> print(parse_law("x = y * z * x"))
x = (y ◇ z) ◇ x
>>> print(dual(law))
x = (y ◇ (((z ◇ z) ◇ y) ◇ x)) ◇ y
>>> print(canonical(parse_law("a = b ◇ (a ◇ c)")))
x = y ◇ (x ◇ z)
>>> to_star(law.rhs)
'(y*((x*(y*(z*z)))*y))'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property

from veristep.core.errors import InputError

VAR_NAMES = "xyzwuvrst"
OPERATORS = "◇*∘·"
MAX_LAW_CHARS = 20_000
MAX_DEPTH = 400
MAX_OPS = 500  # far above any ALPS law; keeps every recursive pass far from Python's stack limit


@dataclass(frozen=True, slots=True)
class Var:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Op:
    left: Term
    right: Term

    def __str__(self) -> str:
        return show(self)


Term = Var | Op
Position = tuple[int, ...]  # path from the root: 0 = left operand, 1 = right operand


@dataclass(frozen=True)
class Law:
    lhs: Term
    rhs: Term

    def __str__(self) -> str:
        return f"{show(self.lhs)} = {show(self.rhs)}"

    @cached_property
    def order(self) -> int:
        """Number of ◇ in the law."""
        return order(self.lhs) + order(self.rhs)

    def variables(self) -> list[str]:
        """Variable names in first-occurrence order, lhs then rhs."""
        return list(dict.fromkeys(leaf_names(self.lhs) + leaf_names(self.rhs)))


# ---------------------------------------------------------------- structure


def order(t: Term) -> int:
    if isinstance(t, Var):
        return 0
    return 1 + order(t.left) + order(t.right)


def leaf_names(t: Term) -> list[str]:
    """Variable occurrences left to right (with repetitions)."""
    out: list[str] = []
    stack = [t]
    while stack:
        node = stack.pop()
        if isinstance(node, Var):
            out.append(node.name)
        else:
            stack.append(node.right)
            stack.append(node.left)
    return out


def shape(t: Term) -> object:
    """The tree without its variables: None for a leaf, a pair otherwise."""
    if isinstance(t, Var):
        return None
    return (shape(t.left), shape(t.right))


def positions(t: Term, prefix: Position = ()) -> Iterator[tuple[Position, Term]]:
    """Every (position, subterm), pre-order."""
    yield prefix, t
    if isinstance(t, Op):
        yield from positions(t.left, (*prefix, 0))
        yield from positions(t.right, (*prefix, 1))


def subterm_at(t: Term, pos: Position) -> Term:
    for step in pos:
        if not isinstance(t, Op):
            raise KeyError(f"position {pos} is below a variable")
        t = t.right if step else t.left
    return t


def replace_at(t: Term, pos: Position, new: Term) -> Term:
    if not pos:
        return new
    if not isinstance(t, Op):
        raise KeyError(f"position {pos} is below a variable")
    if pos[0]:
        return Op(t.left, replace_at(t.right, pos[1:], new))
    return Op(replace_at(t.left, pos[1:], new), t.right)


def dual_term(t: Term) -> Term:
    if isinstance(t, Var):
        return t
    return Op(dual_term(t.right), dual_term(t.left))


def dual(law: Law) -> Law:
    """The law of the opposite magma: every ◇ with its operands swapped."""
    return Law(dual_term(law.lhs), dual_term(law.rhs))


# ---------------------------------------------------------------- substitution, matching, rewriting


def substitute(t: Term, sigma: Mapping[str, Term]) -> Term:
    if isinstance(t, Var):
        return sigma.get(t.name, t)
    return Op(substitute(t.left, sigma), substitute(t.right, sigma))


def match(pattern: Term, t: Term, binding: dict[str, Term] | None = None) -> dict[str, Term] | None:
    """A substitution σ with σ(pattern) == t, extending ``binding``; None when there is none.

    >>> m = match(parse_term("x ◇ (y ◇ x)"), parse_term("a ◇ (b ◇ a)"))
    >>> {k: str(v) for k, v in m.items()}
    {'x': 'a', 'y': 'b'}
    >>> match(parse_term("x ◇ x"), parse_term("a ◇ b")) is None
    True
    """
    sigma = dict(binding or {})
    stack = [(pattern, t)]
    while stack:
        p, s = stack.pop()
        if isinstance(p, Var):
            bound = sigma.get(p.name)
            if bound is None:
                sigma[p.name] = s
            elif bound != s:
                return None
        elif isinstance(s, Op):
            stack.append((p.right, s.right))
            stack.append((p.left, s.left))
        else:
            return None
    return sigma


def rewrite_at(
    t: Term, pos: Position, lhs: Term, rhs: Term, extra: Mapping[str, Term] | None = None
) -> Term | None:
    """Apply ``lhs -> rhs`` once at ``pos``; variables only in ``rhs`` take values from ``extra``.

    Returns None when ``lhs`` does not match there or an ``rhs``-only variable has no value.

    >>> law = parse_law("x = y ◇ x")
    >>> print(rewrite_at(parse_term("a ◇ b"), (1,), law.lhs, law.rhs, {"y": Var("c")}))
    a ◇ (c ◇ b)
    """
    try:
        target = subterm_at(t, pos)
    except KeyError:
        return None
    sigma = match(lhs, target)
    if sigma is None:
        return None
    for name in set(leaf_names(rhs)) - set(sigma):
        if extra is None or name not in extra:
            return None
        sigma[name] = extra[name]
    return replace_at(t, pos, substitute(rhs, sigma))


# ---------------------------------------------------------------- printing


def show(t: Term, outermost: bool = True) -> str:
    """ETP style: ``◇`` with single spaces, every inner product parenthesised."""
    if isinstance(t, Var):
        return t.name
    body = f"{show(t.left, False)} ◇ {show(t.right, False)}"
    return body if outermost else f"({body})"


def to_star(t: Term) -> str:
    """ALPS's compact witness notation, fully parenthesised: ``(x*(y*z))``."""
    if isinstance(t, Var):
        return t.name
    return f"({to_star(t.left)}*{to_star(t.right)})"


# ---------------------------------------------------------------- canonical form (ETP normal form)


def _shape_cmp(a: object, b: object) -> int:
    # ETP compares shapes structurally with a leaf below any product.
    if a is None or b is None:
        return (a is not None) - (b is not None)
    return _shape_cmp(a[0], b[0]) or _shape_cmp(a[1], b[1])  # type: ignore[index]


def _shape_lt(a: Term, b: Term) -> bool:
    oa, ob = order(a), order(b)
    return oa < ob or (oa == ob and _shape_cmp(shape(a), shape(b)) < 0)


def rhyme(names: list[str]) -> list[int]:
    """Rename variables to 0, 1, ... by first occurrence."""
    seen: dict[str, int] = {}
    return [seen.setdefault(n, len(seen)) for n in names]


def var_name(i: int) -> str:
    q, r = divmod(i, len(VAR_NAMES))
    return VAR_NAMES[r] + (str(q) if q else "")


def _rebuild(t: Term, it: Iterator[int]) -> Term:
    if isinstance(t, Var):
        return Var(var_name(next(it)))
    left = _rebuild(t.left, it)
    return Op(left, _rebuild(t.right, it))


def canonical(law: Law) -> Law:
    """ETP's normal form: smaller side (by order, then shape) on the left, variables renamed
    x, y, z, w, u, v, r, s, t by first occurrence; equal shapes take the smaller renaming."""
    lhs, rhs = law.lhs, law.rhs
    if _shape_lt(rhs, lhs):
        lhs, rhs = rhs, lhs
    names = leaf_names(lhs) + leaf_names(rhs)
    best = rhyme(names)
    if shape(lhs) == shape(rhs):
        swapped = rhyme(leaf_names(rhs) + leaf_names(lhs))
        best = min(best, swapped)
    it = iter(best)
    new_lhs = _rebuild(lhs, it)
    return Law(new_lhs, _rebuild(rhs, it))


# ---------------------------------------------------------------- parsing

_TOKEN = re.compile(r"\s*(?:(?P<var>[A-Za-z][A-Za-z0-9_]*)|(?P<op>[◇*∘·])|(?P<p>[()])|(?P<eq>=))")


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = ops = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None:
            at = len(text) - len(text[pos:].lstrip())
            raise InputError(
                f"unexpected character {text[at]!r} in a law (variables, ◇ or *, parentheses, =)",
                source=text,
                position=at,
            )
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind), m.start(kind)))
        ops += kind == "op"
        if ops > MAX_OPS:
            raise InputError(f"more than {MAX_OPS} operations", source=text, position=m.start())
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def error(self, message: str) -> InputError:
        at = self.toks[self.i][2] if self.i < len(self.toks) else len(self.text)
        return InputError(message, source=self.text, position=at)

    def peek(self) -> str | None:
        return self.toks[self.i][0] if self.i < len(self.toks) else None

    def term(self, depth: int = 0) -> Term:
        # Missing parentheses associate to the left: x ◇ y ◇ z = (x ◇ y) ◇ z.
        t = self.atom(depth)
        while self.peek() == "op":
            self.i += 1
            t = Op(t, self.atom(depth))
        return t

    def atom(self, depth: int) -> Term:
        if depth > MAX_DEPTH:
            raise self.error(f"term nested deeper than {MAX_DEPTH} parentheses")
        kind = self.peek()
        if kind == "var":
            name = self.toks[self.i][1]
            self.i += 1
            return Var(name)
        if kind == "p" and self.toks[self.i][1] == "(":
            self.i += 1
            t = self.term(depth + 1)
            if self.peek() != "p" or self.toks[self.i][1] != ")":
                raise self.error("missing closing parenthesis")
            self.i += 1
            return t
        raise self.error("expected a variable or '('")


def parse_term(text: str) -> Term:
    if len(text) > MAX_LAW_CHARS:
        raise InputError(f"term longer than {MAX_LAW_CHARS} characters")
    p = _Parser(text)
    t = p.term()
    if p.i != len(p.toks):
        raise p.error("unexpected token after the term")
    return t


def parse_law(text: str) -> Law:
    """Parse ``lhs = rhs`` written with ◇ or * (ETP's double spaces are fine)."""
    if len(text) > MAX_LAW_CHARS:
        raise InputError(f"law longer than {MAX_LAW_CHARS} characters")
    p = _Parser(text)
    if not p.toks:
        raise InputError("empty law", source=text, position=0)
    lhs = p.term()
    if p.peek() != "eq":
        raise p.error("expected '=' between the two sides of the law")
    p.i += 1
    rhs = p.term()
    if p.i != len(p.toks):
        raise p.error("unexpected token after the law")
    return Law(lhs, rhs)
