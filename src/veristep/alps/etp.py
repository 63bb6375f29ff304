"""ETP equation numbers: the Equational Theories Project's enumeration, for laws of any order.

ETP lists equations by order (number of ◇); within an order by the lhs order (up to half), the lhs
shape, the rhs shape (shapes in generation order: left-subtree size, then left, then right), and
finally the "rhyme" (variables renamed 0, 1, ... by first occurrence) in lexicographic order. When
both sides have the same shape only one orientation is listed and ``t = t`` is skipped. We count
positions in that enumeration arithmetically, so numbering a law of order 8 costs no enumeration
except within one equal-shape block.

>>> etp_id(parse_law("x = y ◇ ((x ◇ (y ◇ (z ◇ z))) ◇ y)"))
12857
>>> etp_id(parse_law("x = ((y ◇ (((z ◇ z) ◇ y) ◇ x)) ◇ y)"))
33436
>>> str(law_from_id(4))
'x = x ◇ y'
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import islice

from veristep.alps.terms import Law, Op, Term, Var, canonical, leaf_names, order, rhyme, var_name
from veristep.alps.terms import parse_law as parse_law  # re-exported for the doctest above

Shape = object  # None (a leaf) or a pair of shapes


@cache
def shapes(n: int) -> tuple[Shape, ...]:
    """All binary-tree shapes with ``n`` inner nodes, in ETP's generation order."""
    if n == 0:
        return (None,)
    return tuple((a, b) for i in range(n) for a in shapes(i) for b in shapes(n - 1 - i))


@cache
def _shape_index(n: int) -> dict[Shape, int]:
    return {s: i for i, s in enumerate(shapes(n))}


def _shape_cmp(a: Shape, b: Shape) -> int:
    if a is None or b is None:
        return (a is not None) - (b is not None)
    return _shape_cmp(a[0], b[0]) or _shape_cmp(a[1], b[1])  # type: ignore[index]


def _shape_before(a: Shape, b: Shape) -> bool:
    """ETP's side order for two shapes of equal order: structural, a leaf before a product.
    (It differs from generation order from order 4 on, so both are needed.)"""
    return _shape_cmp(a, b) < 0


def _shape_of(t: Term) -> Shape:
    return None if isinstance(t, Var) else (_shape_of(t.left), _shape_of(t.right))


@cache
def _rgs_count(n: int, max_used: int) -> int:
    """Number of ways to fill ``n`` more slots of a restricted growth string whose max is
    ``max_used`` (each slot ≤ current max + 1)."""
    if n == 0:
        return 1
    return (max_used + 1) * _rgs_count(n - 1, max_used) + _rgs_count(n - 1, max_used + 1)


def bell(m: int) -> int:
    """Number of rhymes of length ``m`` (the Bell number).

    >>> [bell(m) for m in range(1, 7)]
    [1, 2, 5, 15, 52, 203]
    """
    return _rgs_count(m - 1, 0) if m > 0 else 1


def rhyme_rank(r: list[int]) -> int:
    """Lexicographic rank of a rhyme among all rhymes of its length."""
    rank, max_used = 0, 0
    for k, v in enumerate(r[1:], start=1):
        rank += v * _rgs_count(len(r) - 1 - k, max_used)
        max_used = max(max_used, v)
    return rank


def rhymes(m: int) -> Iterator[list[int]]:
    """All rhymes of length ``m`` in lexicographic order."""

    def rec(prefix: list[int], max_used: int) -> Iterator[list[int]]:
        if len(prefix) == m:
            yield list(prefix)
            return
        for v in range(max_used + 2):
            prefix.append(v)
            yield from rec(prefix, max(max_used, v))
            prefix.pop()

    if m == 0:
        yield []
    else:
        yield from rec([0], 0)


def _kept_same_shape(r: list[int], split: int) -> bool:
    # Equal shapes: list an orientation only if it is the smaller one, and never t = t.
    flipped = r[split:] + r[:split]
    return not (rhyme(flipped) < r or r == flipped)  # type: ignore[arg-type]


@cache
def same_shape_count(n: int) -> int:
    if n == 0:
        return 2  # x = x and x = y
    split = n // 2 + 1
    return sum(1 for r in rhymes(n + 2) if _kept_same_shape(r, split))


@cache
def count_order(n: int) -> int:
    """How many equations ETP lists with exactly ``n`` operations.

    >>> [count_order(n) for n in range(5)]
    [2, 5, 39, 364, 4284]
    """
    b = bell(n + 2)
    total = 0
    for a in range(n // 2 + 1):
        if 2 * a < n:
            total += len(shapes(a)) * len(shapes(n - a)) * b
        else:
            m = len(shapes(a))
            total += m * same_shape_count(n) + m * (m - 1) // 2 * b  # one orientation per pair
    return total


def etp_id(law: Law) -> int:
    """The ETP equation number of ``law`` (after ETP's normalisation)."""
    c = canonical(law)
    n_lhs, n_rhs = order(c.lhs), order(c.rhs)
    n = n_lhs + n_rhs
    r = rhyme(leaf_names(c.lhs) + leaf_names(c.rhs))
    b = bell(n + 2)
    index = sum(count_order(k) for k in range(n))
    for a in range(n_lhs):
        index += len(shapes(a)) * len(shapes(n - a)) * b
    li = _shape_index(n_lhs)[_shape_of(c.lhs)]
    ri = _shape_index(n_rhs)[_shape_of(c.rhs)]
    if n_lhs != n_rhs:
        return 1 + index + (li * len(shapes(n_rhs)) + ri) * b + rhyme_rank(r)
    s = same_shape_count(n)
    for lj, ls in enumerate(shapes(n_lhs)):
        for rj, rs in enumerate(shapes(n_rhs)):
            if (lj, rj) == (li, ri):
                break
            if not _shape_before(rs, ls):
                index += s if lj == rj else b
        else:
            continue
        break
    if ri != li:
        return 1 + index + rhyme_rank(r)
    split = n_lhs + 1
    if n == 0:
        return 1 + index + rhyme_rank(r)
    rank = sum(1 for q in islice(rhymes(n + 2), rhyme_rank(r)) if _kept_same_shape(q, split))
    return 1 + index + rank


def _build(s: Shape, it: Iterator[int]) -> Term:
    if s is None:
        return Var(var_name(next(it)))
    left = _build(s[0], it)  # type: ignore[index]
    return Op(left, _build(s[1], it))  # type: ignore[index]


def laws_of_order(n: int) -> Iterator[Law]:
    """Every equation of order ``n`` in ETP order (line order of ``eq_size5.txt``)."""
    for a in range(n // 2 + 1):
        for ls in shapes(a):
            for rs in shapes(n - a):
                same = ls == rs
                if 2 * a == n and _shape_before(rs, ls):
                    continue
                for r in rhymes(n + 2):
                    if same and n > 0 and not _kept_same_shape(r, a + 1):
                        continue
                    it = iter(r)
                    lhs = _build(ls, it)
                    yield Law(lhs, _build(rs, it))


def law_from_id(eq_id: int) -> Law:
    """The law numbered ``eq_id`` (1-based); enumerates only within its order."""
    if eq_id < 1:
        raise ValueError("ETP numbers start at 1")
    n, rest = 0, eq_id - 1
    while rest >= count_order(n):
        rest -= count_order(n)
        n += 1
    return next(islice(laws_of_order(n), rest, None))
