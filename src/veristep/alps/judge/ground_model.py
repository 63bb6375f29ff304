"""ALPS part 2: an independent checker of *ordered* presentations — models given by equations
that cannot all be oriented (ALPS's worked example, law 12857, is one).

A presentation is a set E of equations over the binary operation and one constant ``?``. The
model it presents is the set of ground terms over ``{◇, ?, a, b}`` modulo E, computed by
**ordered rewriting** with the Knuth–Bendix order (every weight 1; constants ``? < a < b``): an
equation ``l = r`` rewrites an instance ``lσ`` to ``rσ`` whenever ``lσ > rσ``, in whichever
direction that holds. This order is total on ground terms and ``?`` is its least element. The
checker establishes, by its own code only:

1. **usable equations** — each equation is oriented (``l > r`` in KBO for every instance, so it
   only ever rewrites left to right), or weakly oriented (``r`` is ``l`` with some variables set
   to ``?``, so ``l ≥ r`` for every instance and it rewrites left to right where it decreases),
   or has the same variables on both sides (each direction applies wherever it decreases).
   Then ordered rewriting terminates (KBO is well-founded) and every peak over a variable is
   joinable;
2. **ground confluence** — every critical pair (each direction's left side unified with a
   non-variable subterm of each direction's left side) is *ground joinable*: for every ground
   instance the two sides reach one normal form. Shown per critical pair by cases on how the
   ground instances of its variables compare (every total preorder of the variables, each
   variable either equal to ``?`` or above it — Martin and Nipkow's method): in each case both
   sides are rewritten with steps that decrease for *every* instance in that case (KBO compared
   under the case's variable order), or the pair is an instance of an equation of E in a
   context. Terminating + locally confluent is confluent (Newman), so every ground term has one
   normal form and the normal forms are the model's elements;
3. **the law holds** — the law's two sides are ground joinable in the same sense, so it holds
   for every choice of elements;
4. **x ≠ y** — the constants ``a`` and ``b`` have different normal forms, so the model has two
   distinct elements.

Nothing is sampled: a presentation that passes is a proof that the law has a nontrivial model
(an infinite one when the law has no finite model). Every loop is paid for in work units;
running out of budget is "not shown", never a certificate.

>>> law = parse_equation("x = y ◇ x")
>>> check_ordered(law, [parse_equation("y ◇ x = x")]).certified
True
>>> check_ordered(law, [parse_equation("x ◇ y = y ◇ x")]).certified
False
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from veristep.alps.judge.limits import BudgetExhausted, Work
from veristep.alps.terms import Law, Op, Var

# A term: a variable (int ≥ 0), a constant (str) or a product (left, right).
Term = int | str | tuple
MIN = "?"  # the least constant; every ground term is ≥ it
WITNESSES = ("a", "b")  # two constants whose normal forms must differ (x ≠ y)
CONSTANT_RANK = {MIN: 0, "a": 1, "b": 2}
MAX_EQUATIONS = 1_000
MAX_CASE_VARIABLES = (
    6  # 4,683 cases by the seventh Fubini number; beyond that the pair is not shown
)
CHECK_WORK = 400_000_000
MAX_EQUATION_CHARS = 20_000
MAX_DEPTH = 200  # far above any presentation (Twee's deepest rule for 12857 nests 9 deep)
MAX_PAIR_NODES = 20_000  # a critical pair bigger than this is not checked: no certificate


@dataclass(frozen=True)
class Equation:
    lhs: Term
    rhs: Term

    def __str__(self) -> str:
        return f"{show(self.lhs)} = {show(self.rhs)}"


@dataclass(frozen=True)
class OrderedCheck:
    certified: bool
    reason: str
    equations: int
    oriented: int = 0
    critical_pairs: int = 0
    case_splits: int = 0
    failures: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "certified": self.certified,
            "reason": self.reason,
            "equations": self.equations,
            "oriented": self.oriented,
            "critical_pairs": self.critical_pairs,
            "case_splits": self.case_splits,
            "failures": self.failures[:5],
        }


# ---------------------------------------------------------------- reading and printing

_TOKENS = re.compile(r"\s*(?:(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<sym>\?|<->|->|~>|[◇*(),=]))")
_ARROWS = {"=", "->", "~>", "<->"}


def _tokenize(text: str) -> list[str]:
    out, pos = [], 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        m = _TOKENS.match(text, pos)
        if m is None:
            raise ValueError(f"unexpected character {text[pos:].lstrip()[:1]!r} at {pos}")
        out.append(m.group("name") or m.group("sym"))
        pos = m.end()
    return out


class _Reader:
    """``x ◇ (y ◇ ?)`` or prover style ``f(X, f(Y, ?))``; names are variables, ``?`` is the
    constant."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens, self.i, self.names = tokens, 0, {}

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise ValueError(f"expected {expected or 'a term'} at token {self.i}, found {tok!r}")
        self.i += 1
        return tok

    def term(self) -> Term:
        left = self.atom()
        while self.peek() in ("◇", "*"):
            self.take()
            left = (left, self.atom())
        return left

    def atom(self) -> Term:
        tok = self.take()
        if tok == "(":
            inner = self.term()
            self.take(")")
            return inner
        if tok == MIN:
            return MIN
        if tok == "f" and self.peek() == "(":
            self.take("(")
            left = self.term()
            self.take(",")
            right = self.term()
            self.take(")")
            return (left, right)
        if tok in _ARROWS or tok in "(),◇*":
            raise ValueError(f"expected a term at token {self.i - 1}, found {tok!r}")
        return self.names.setdefault(tok, len(self.names))


def parse_equation(text: str) -> Equation:
    """One equation; any of ``=``, ``->``, ``~>``, ``<->`` separates the sides (the checker
    decides orientation itself and ignores what the text claims).

    >>> parse_equation("(" * 500 + "x" + ")" * 500 + " = y")
    Traceback (most recent call last):
    ...
    ValueError: nested more than 200 deep
    """
    if len(text) > MAX_EQUATION_CHARS:
        raise ValueError(f"more than {MAX_EQUATION_CHARS:,} characters")
    if _depth(text) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    reader = _Reader(_tokenize(text))
    lhs = reader.term()
    arrow = reader.take()
    if arrow not in _ARROWS:
        raise ValueError(f"expected '=' between the sides, found {arrow!r}")
    rhs = reader.term()
    if reader.peek() is not None:
        raise ValueError(f"unexpected {reader.peek()!r} after the equation")
    if max(_height(lhs), _height(rhs)) > MAX_DEPTH:  # a long chain x ◇ x ◇ … nests to the left
        raise ValueError(f"a side nests more than {MAX_DEPTH} products deep")
    return Equation(lhs, rhs)


def _depth(text: str) -> int:
    deepest = level = 0
    for ch in text:
        level += (ch == "(") - (ch == ")")
        deepest = max(deepest, level)
    return deepest


def _height(t: Term) -> int:
    height, stack = 0, [(t, 0)]
    while stack:
        node, h = stack.pop()
        height = max(height, h)
        if isinstance(node, tuple):
            stack += [(node[0], h + 1), (node[1], h + 1)]
    return height


def show(t: Term, outer: bool = True) -> str:
    if isinstance(t, int):
        return "xyzwuvrst"[t] if t < 9 else f"x{t}"
    if isinstance(t, str):
        return t
    body = f"{show(t[0], False)} ◇ {show(t[1], False)}"
    return body if outer else f"({body})"


def from_law(law: Law) -> Equation:
    """An ALPS law in the checker's representation (variables numbered by first occurrence)."""
    names: dict[str, int] = {}

    def walk(t: Var | Op) -> Term:
        if isinstance(t, Var):
            return names.setdefault(t.name, len(names))
        return (walk(t.left), walk(t.right))

    lhs = walk(law.lhs)
    return Equation(lhs, walk(law.rhs))


# ---------------------------------------------------------------- terms


def size(t: Term) -> int:
    return size(t[0]) + size(t[1]) + 1 if isinstance(t, tuple) else 1


def size_within(t: Term, cap: int) -> int | None:
    """The size of ``t``, or None once it passes ``cap``: unification shares subterms, so a
    critical pair's tree can be exponentially larger than the memory it takes."""
    n, stack = 0, [t]
    while stack:
        node = stack.pop()
        n += 1
        if n > cap:
            return None
        if isinstance(node, tuple):
            stack += node
    return n


def _count_vars(t: Term, counts: dict[int, int], sign: int) -> None:
    if isinstance(t, tuple):
        _count_vars(t[0], counts, sign)
        _count_vars(t[1], counts, sign)
    elif isinstance(t, int):
        counts[t] = counts.get(t, 0) + sign


def variables(t: Term) -> set[int]:
    counts: dict[int, int] = {}
    _count_vars(t, counts, 1)
    return set(counts)


def substitute(t: Term, sigma: dict[int, Term]) -> Term:
    if isinstance(t, tuple):
        return (substitute(t[0], sigma), substitute(t[1], sigma))
    if isinstance(t, int):
        return sigma.get(t, t)
    return t


def match(pattern: Term, t: Term, sigma: dict[int, Term]) -> bool:
    """Extend ``sigma`` so that ``pattern``σ = t (in place); False when impossible."""
    if isinstance(pattern, int):
        bound = sigma.get(pattern)
        if bound is None:
            sigma[pattern] = t
            return True
        return bound == t
    if isinstance(pattern, str):
        return pattern == t
    return (
        isinstance(t, tuple) and match(pattern[0], t[0], sigma) and match(pattern[1], t[1], sigma)
    )


def _walk(t: Term, sigma: dict[int, Term]) -> Term:
    while isinstance(t, int) and t in sigma:
        t = sigma[t]
    return t


def _occurs(v: int, t: Term, sigma: dict[int, Term]) -> bool:
    t = _walk(t, sigma)
    if isinstance(t, tuple):
        return _occurs(v, t[0], sigma) or _occurs(v, t[1], sigma)
    return t == v


def unify(s: Term, t: Term) -> dict[int, Term] | None:
    sigma: dict[int, Term] = {}
    stack = [(s, t)]
    while stack:
        a, b = stack.pop()
        a, b = _walk(a, sigma), _walk(b, sigma)
        if a == b:
            continue
        if isinstance(a, int):
            if _occurs(a, b, sigma):
                return None
            sigma[a] = b
        elif isinstance(b, int):
            if _occurs(b, a, sigma):
                return None
            sigma[b] = a
        elif isinstance(a, tuple) and isinstance(b, tuple):
            stack += [(a[0], b[0]), (a[1], b[1])]
        else:
            return None
    return {v: _resolve(v, sigma) for v in sigma}


def _resolve(t: Term, sigma: dict[int, Term]) -> Term:
    t = _walk(t, sigma)
    if isinstance(t, tuple):
        return (_resolve(t[0], sigma), _resolve(t[1], sigma))
    return t


def positions(t: Term, here: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Term]]:
    yield here, t
    if isinstance(t, tuple):
        yield from positions(t[0], (*here, 0))
        yield from positions(t[1], (*here, 1))


def replace(t: Term, pos: tuple[int, ...], new: Term) -> Term:
    if not pos:
        return new
    assert isinstance(t, tuple)
    if pos[0] == 0:
        return (replace(t[0], pos[1:], new), t[1])
    return (t[0], replace(t[1], pos[1:], new))


def shift(t: Term, offset: int) -> Term:
    """Rename variables apart: v ↦ v + offset."""
    if isinstance(t, tuple):
        return (shift(t[0], offset), shift(t[1], offset))
    return t + offset if isinstance(t, int) else t


# ---------------------------------------------------------------- the order


def greater(s: Term, t: Term, rank: dict[int, int] | None = None) -> bool:
    """``sσ > tσ`` in KBO for every ground σ (respecting ``rank``: rank[x] > rank[y] means
    σx > σy, and every ranked variable is above ``?``).

    The weight test is the instance's: w(sσ) − w(tσ) = (|s| − |t|) + Σ_x d_x·(w(σx) − 1) with
    d_x the occurrences of x in s minus those in t. Ranked variables have weights that do not
    increase down the ranking, so the sum is ≥ 0 whenever every prefix sum of d in rank order
    is ≥ 0 (Abel summation); an unranked variable needs d_x ≥ 0 on its own.

    >>> x, y = 0, 1
    >>> greater((x, y), (y, x)), greater((x, y), (y, x), {x: 2, y: 1})
    (False, True)
    >>> greater((x, (y, y)), (y, (x, x)), {x: 2, y: 1})  # y ◇ (x ◇ x) can be the bigger one
    False
    """
    if s == t:
        return False
    counts: dict[int, int] = {}
    _count_vars(s, counts, 1)
    _count_vars(t, counts, -1)
    if rank is None:
        if any(d < 0 for d in counts.values()):
            return False
    else:
        running = 0
        for v in sorted((v for v in counts if v in rank), key=rank.__getitem__, reverse=True):
            running += counts[v]
            if running < 0:
                return False
        if any(d < 0 for v, d in counts.items() if v not in rank):
            return False
    ws, wt = size(s), size(t)
    if ws != wt:
        return ws > wt
    return _same_weight_greater(s, t, rank)


def _same_weight_greater(s: Term, t: Term, rank: dict[int, int] | None) -> bool:
    if isinstance(s, tuple):
        if not isinstance(t, tuple):
            return False
        if s[0] != t[0]:
            return greater(s[0], t[0], rank)
        return greater(s[1], t[1], rank)
    if isinstance(t, tuple):
        return False
    if isinstance(s, str):
        return isinstance(t, str) and CONSTANT_RANK[s] > CONSTANT_RANK[t]
    if rank is None or s not in rank:
        return False
    if isinstance(t, str):
        return t == MIN  # every ranked variable is above ?
    return t in rank and rank[s] > rank[t]


# ---------------------------------------------------------------- ordered rewriting


@dataclass(frozen=True)
class Direction:
    lhs: Term
    rhs: Term
    oriented: bool  # lhs > rhs for every instance: no comparison needed when it applies
    source: int  # index of its equation


def directions(equations: list[Equation]) -> list[Direction]:
    """Each equation's usable directions (see condition 1; an unusable equation raises)."""
    out: list[Direction] = []
    for i, eq in enumerate(equations):
        if greater(eq.lhs, eq.rhs):
            out.append(Direction(eq.lhs, eq.rhs, True, i))
        elif greater(eq.rhs, eq.lhs):
            out.append(Direction(eq.rhs, eq.lhs, True, i))
        elif _weakly_oriented(eq.lhs, eq.rhs):
            out.append(Direction(eq.lhs, eq.rhs, False, i))
        elif _weakly_oriented(eq.rhs, eq.lhs):
            out.append(Direction(eq.rhs, eq.lhs, False, i))
        elif variables(eq.lhs) == variables(eq.rhs):
            for a, b in ((eq.lhs, eq.rhs), (eq.rhs, eq.lhs)):
                if not isinstance(a, int):  # a variable side never decreases
                    out.append(Direction(a, b, False, i))
        else:
            raise ValueError(f"equation {i + 1} ({eq}) is neither oriented nor balanced")
    return out


def _weakly_oriented(lhs: Term, rhs: Term) -> bool:
    """``rhs`` is ``lhs`` with the variables it lacks set to ``?``: then lσ ≥ rσ for every σ
    (KBO is monotone and ``?`` is least), so the reverse direction never decreases and only
    l → r is usable (where it strictly decreases)."""
    missing = variables(lhs) - variables(rhs)
    return bool(missing) and substitute(lhs, dict.fromkeys(missing, MIN)) == rhs


class Rewriter:
    """Ordered rewriting with a fixed set of directions.

    Left sides are filtered by fingerprints (what sits at the 14 positions down to depth three,
    as in E's fingerprint indexing) before matching; normal forms are remembered per case.
    """

    def __init__(self, dirs: list[Direction], work: Work) -> None:
        self.work = work
        self.dirs = [(d, _pattern_print(d.lhs)) for d in dirs]
        self.by_print: dict[tuple, list[Direction]] = {}
        self.memo: dict[tuple, dict[Term, Term]] = {}

    def normal_form(self, t: Term, rank: dict[int, int] | None = None) -> Term:
        key = tuple(sorted(rank.items())) if rank else ()
        memo = self.memo.setdefault(key, {})
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        return self._normal_form(t, rank, memo)

    def _normal_form(self, t: Term, rank: dict[int, int] | None, memo: dict[Term, Term]) -> Term:
        known = memo.get(t)
        if known is not None:
            return known
        start = t
        if isinstance(t, tuple):
            t = (self._normal_form(t[0], rank, memo), self._normal_form(t[1], rank, memo))
        # A leaf is tried too: an equation with a variable side (x = ?) rewrites constants.
        step = self.step_at_root(t, rank)
        if step is not None:
            t = self._normal_form(step, rank, memo)
        memo[start] = t
        return t

    def candidates(self, t: Term) -> list[Direction]:
        key = _subject_print(t)
        found = self.by_print.get(key)
        if found is None:
            found = [d for d, fp in self.dirs if _compatible(fp, key)]
            self.by_print[key] = found
        return found

    def step_at_root(self, t: Term, rank: dict[int, int] | None) -> Term | None:
        for d in self.candidates(t):
            self.work.spend(8)
            sigma: dict[int, Term] = {}
            if not match(d.lhs, t, sigma):
                continue
            new = substitute(d.rhs, sigma)
            if d.oriented or greater(t, new, rank):
                self.work.spend(size(t))
                return new
        return None


MEMO_LIMIT = 500_000
_PRINT_PATHS = [p for n in (1, 2, 3) for p in itertools.product((0, 1), repeat=n)]


def _pattern_print(t: Term) -> tuple:
    """Per path: "F" a product, "V" a variable, a constant's name, "B" below a variable, "N" no
    such position (below a constant)."""
    out = []
    for path in _PRINT_PATHS:
        node, tag = t, None
        for step in path:
            if isinstance(node, tuple):
                node = node[step]
            else:
                tag = "B" if isinstance(node, int) else "N"
                break
        if tag is None:
            tag = "F" if isinstance(node, tuple) else "V" if isinstance(node, int) else node
        out.append(tag)
    return tuple(out)


def _subject_print(t: Term) -> tuple:
    """Per path: "F", a constant's name, "v" a (rigid) variable, "N" no such position."""
    out = []
    for path in _PRINT_PATHS:
        node = t
        for step in path:
            if not isinstance(node, tuple):
                node = None
                break
            node = node[step]
        if node is None:
            out.append("N")
        else:
            out.append("F" if isinstance(node, tuple) else "v" if isinstance(node, int) else node)
    return tuple(out)


def _compatible(pattern: tuple, subject: tuple) -> bool:
    for p, s in zip(pattern, subject, strict=True):
        if p == "B" or p == s:
            continue
        if p == "V" and s != "N":
            continue
        return False
    return True


# ---------------------------------------------------------------- ground joinability


def _total_preorders(items: list[int]) -> Iterator[list[list[int]]]:
    """Ordered set partitions of ``items`` (blocks from the least upwards)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for blocks in _total_preorders(rest):
        for i in range(len(blocks)):  # join an existing block
            yield [*blocks[:i], [first, *blocks[i]], *blocks[i + 1 :]]
        for i in range(len(blocks) + 1):  # or be a block of its own
            yield [*blocks[:i], [first], *blocks[i:]]


def cases(vs: list[int]) -> Iterator[tuple[dict[int, Term], dict[int, int]]]:
    """Every way ground instances of ``vs`` can compare: (identification, rank of the rest).

    A block may be ``?`` itself (every ground term is ≥ ``?``), which the least block stands for
    when it is marked; the others are strictly above ``?`` and strictly ordered.
    """
    for blocks in _total_preorders(vs):
        for least_is_min in (False, True) if blocks else (False,):
            ident: dict[int, Term] = {}
            rank: dict[int, int] = {}
            for level, block in enumerate(blocks):
                rep: Term = MIN if (least_is_min and level == 0) else block[0]
                for v in block:
                    if v != rep:
                        ident[v] = rep
                if rep != MIN:
                    rank[block[0]] = level + 1
            yield ident, rank


class Joinability:
    def __init__(self, equations: list[Equation], dirs: list[Direction], work: Work) -> None:
        self.equations, self.rewriter, self.work = equations, Rewriter(dirs, work), work
        self.case_splits = 0

    def is_instance(self, s: Term, t: Term) -> bool:
        """s and t differ in one subterm that is an instance of an equation (either way round):
        then every ground instance is joinable by one step, or already equal."""
        while True:
            if self._instance_here(s, t):
                return True
            if not (isinstance(s, tuple) and isinstance(t, tuple)):
                return False
            if s[0] == t[0]:
                s, t = s[1], t[1]
            elif s[1] == t[1]:
                s, t = s[0], t[0]
            else:
                return False

    def _instance_here(self, s: Term, t: Term) -> bool:
        for eq in self.equations:
            self.work.spend(4)
            for a, b in ((eq.lhs, eq.rhs), (eq.rhs, eq.lhs)):
                sigma: dict[int, Term] = {}
                if match(a, s, sigma) and match(b, t, sigma):
                    return True
        return False

    def joinable(self, s: Term, t: Term, rank: dict[int, int] | None = None) -> bool:
        nf_s = self.rewriter.normal_form(s, rank)
        nf_t = self.rewriter.normal_form(t, rank)
        return nf_s == nf_t or self.is_instance(nf_s, nf_t)

    def ground_joinable(self, s: Term, t: Term) -> bool:
        if s == t or self.joinable(s, t):
            return True
        return self.by_cases(s, t)

    def by_cases(self, s: Term, t: Term) -> bool:
        vs = sorted(variables(s) | variables(t))
        if len(vs) > MAX_CASE_VARIABLES:
            return False
        self.case_splits += 1
        for ident, rank in cases(vs):
            a, b = substitute(s, ident), substitute(t, ident)
            if a != b and not self.joinable(a, b, rank):
                return False
        return True


def critical_pairs(dirs: list[Direction]) -> Iterator[tuple[Term, Term]]:
    """Every overlap of one direction's left side into a non-variable subterm of another's."""
    for outer in dirs:
        for inner in dirs:
            yield from overlaps(outer, inner)


def overlaps(outer: Direction, inner: Direction) -> Iterator[tuple[Term, Term]]:
    """``inner``'s left side (renamed apart) unified with each non-variable subterm of
    ``outer``'s, as the two terms the overlapped instance rewrites to."""
    offset = 1 + max(variables(outer.lhs) | variables(outer.rhs), default=-1)
    l1, r1 = shift(inner.lhs, offset), shift(inner.rhs, offset)
    for pos, sub in positions(outer.lhs):
        if not isinstance(sub, tuple) or (not pos and inner is outer):
            continue
        sigma = unify(l1, sub)
        if sigma is None:
            continue
        # Not compared here: the two sides may share subterms, and a caller bounds their size
        # before anything walks them.
        yield substitute(replace(outer.lhs, pos, r1), sigma), substitute(outer.rhs, sigma)


def check_ordered(
    law: Equation | None, equations: list[Equation], work_limit: int = CHECK_WORK
) -> OrderedCheck:
    """Conditions 1–4 (module docstring); the first failing one is the reason. Without a law,
    conditions 1, 2 and 4: the equations themselves have a nontrivial model."""
    n = len(equations)
    if not equations:
        return OrderedCheck(False, "no equations", 0)
    if n > MAX_EQUATIONS:
        return OrderedCheck(False, f"{n} equations (limit {MAX_EQUATIONS})", n)
    try:
        dirs = directions(equations)
    except ValueError as exc:
        return OrderedCheck(False, str(exc), n)
    oriented = len({d.source for d in dirs if d.oriented})
    work = Work(work_limit)
    judge = Joinability(equations, dirs, work)
    pairs = 0
    try:
        for s, t in critical_pairs(dirs):
            pairs += 1
            if size_within(s, MAX_PAIR_NODES) is None or size_within(t, MAX_PAIR_NODES) is None:
                reason = f"a critical pair has more than {MAX_PAIR_NODES:,} nodes (not checked)"
                return OrderedCheck(False, reason, n, oriented, pairs, judge.case_splits)
            if not judge.ground_joinable(s, t):
                bad = [f"{show(s)} = {show(t)}"]
                reason = "a critical pair is not shown ground joinable"
                return OrderedCheck(False, reason, n, oriented, pairs, judge.case_splits, bad)
        if law is not None and not judge.ground_joinable(law.lhs, law.rhs):
            reason = "the law's two sides are not shown ground joinable"
            return OrderedCheck(False, reason, n, oriented, pairs, judge.case_splits)
        a, b = (judge.rewriter.normal_form(c) for c in WITNESSES)
        if a == b:
            reason = "a and b have one normal form: the model is trivial"
            return OrderedCheck(False, reason, n, oriented, pairs, judge.case_splits)
    except BudgetExhausted:
        reason = f"checking budget exhausted ({work_limit:,} units)"
        return OrderedCheck(False, reason, n, oriented, pairs, judge.case_splits)
    except RecursionError:
        return OrderedCheck(False, "terms too deep to check", n, oriented, pairs)
    shown = (
        f"ground convergent: {n} equations ({oriented} oriented), {pairs} critical pairs ground "
        f"joinable ({judge.case_splits} by cases), "
        + ("the law holds, " if law is not None else "")
        + "a ≠ b"
    )
    return OrderedCheck(True, shown, n, oriented, pairs, judge.case_splits)
