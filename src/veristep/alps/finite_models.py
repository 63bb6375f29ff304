"""Finite magmas: direct evaluation, and a SAT search (CaDiCaL) for a nontrivial model of a law.

A magma of size n ≥ 2 already has two distinct elements, so "nontrivial model of size n" is "any
model of size n". The encoding has one Boolean per table cell value, one-hot values for every
subterm under every assignment of *its own* variables (so subterms are shared across assignments),
and one symmetry-breaking clause. A table the solver returns counts only after :func:`satisfies`
re-checks it by evaluating the law on every assignment.

>>> law = parse_law("x = y ◇ x")
>>> table = find_model(law, 2)
>>> table is not None and satisfies(table, law)
True
>>> find_model(parse_law("x = y ◇ z"), 3) is None
True
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from dataclasses import dataclass

from veristep.alps.terms import Law, Term, Var, leaf_names
from veristep.alps.terms import parse_law as parse_law  # for the doctest
from veristep.core.errors import VeristepError

Table = tuple[tuple[int, ...], ...]  # table[a][b] = a ◇ b


class EncodingError(VeristepError, RuntimeError):
    """The solver's table failed the direct re-check: a bug in the encoding, never a model."""


def evaluate(t: Term, table: Table, env: dict[str, int]) -> int:
    if isinstance(t, Var):
        return env[t.name]
    return table[evaluate(t.left, table, env)][evaluate(t.right, table, env)]


def satisfies(table: Table, law: Law) -> bool:
    """Direct check over all assignments: the authority on every table, whoever found it."""
    n = len(table)
    if n == 0 or any(len(row) != n or any(not 0 <= v < n for v in row) for row in table):
        return False
    names = law.variables()
    for values in itertools.product(range(n), repeat=len(names)):
        env = dict(zip(names, values, strict=True))
        if evaluate(law.lhs, table, env) != evaluate(law.rhs, table, env):
            return False
    return True


def counterexample(table: Table, law: Law) -> dict[str, int] | None:
    """An assignment where ``law`` fails in ``table``, or None."""
    n = len(table)
    names = law.variables()
    for values in itertools.product(range(n), repeat=len(names)):
        env = dict(zip(names, values, strict=True))
        if evaluate(law.lhs, table, env) != evaluate(law.rhs, table, env):
            return env
    return None


class _Encoder:
    def __init__(self, n: int) -> None:
        self.n = n
        self.count = 0
        self.clauses: list[list[int]] = []
        self.cell = {(a, b, c): self.fresh() for a in range(n) for b in range(n) for c in range(n)}
        self.values: dict[tuple[Term, tuple[int, ...]], list[int]] = {}
        for a, b in itertools.product(range(n), repeat=2):
            lits = [self.cell[a, b, c] for c in range(n)]
            self.clauses.append(lits)
            self.at_most_one(lits)

    def fresh(self) -> int:
        self.count += 1
        return self.count

    def at_most_one(self, lits: list[int]) -> None:
        self.clauses.extend([-p, -q] for p, q in itertools.combinations(lits, 2))

    def value(self, t: Term, env: dict[str, int]) -> list[int] | int:
        """One-hot literals for the value of ``t`` under ``env``; an int for a bare variable."""
        if isinstance(t, Var):
            return env[t.name]
        names = sorted(set(leaf_names(t)))
        key = (t, tuple(env[v] for v in names))
        if key in self.values:
            return self.values[key]
        left, right = self.value(t.left, env), self.value(t.right, env)
        out = [self.fresh() for _ in range(self.n)]
        for a, b, c in itertools.product(range(self.n), repeat=3):
            guard = [] if isinstance(left, int) else [-left[a]]
            if isinstance(left, int) and left != a:
                continue
            if isinstance(right, int):
                if right != b:
                    continue
            else:
                guard.append(-right[b])
            self.clauses.append([*guard, -self.cell[a, b, c], out[c]])
        self.at_most_one(out)
        self.values[key] = out
        return out

    def require_equal(self, lhs: Term, rhs: Term, env: dict[str, int]) -> None:
        lv, rv = self.value(lhs, env), self.value(rhs, env)
        if isinstance(lv, int) and isinstance(rv, int):
            if lv != rv:
                self.clauses.append([])  # a plain x = y under this assignment: unsatisfiable
        elif isinstance(lv, int):
            self.clauses.append([rv[lv]])  # type: ignore[index]
        elif isinstance(rv, int):
            self.clauses.append([lv[rv]])
        else:
            for c in range(self.n):
                self.clauses.append([-lv[c], rv[c]])


def encode(laws: Iterable[Law], n: int) -> tuple[list[list[int]], dict[tuple[int, int, int], int]]:
    """CNF for "a magma on {0..n-1} satisfying every law", with 0 ◇ 0 ∈ {0, 1}.

    The symmetry breaking is sound: rename any model so that some element is 0; if 0 ◇ 0 is not
    0, rename 0 ◇ 0 to 1.
    """
    enc = _Encoder(n)
    for law in laws:
        names = law.variables()
        for values in itertools.product(range(n), repeat=len(names)):
            enc.require_equal(law.lhs, law.rhs, dict(zip(names, values, strict=True)))
    if n >= 2:
        enc.clauses.append([enc.cell[0, 0, 0], enc.cell[0, 0, 1]])
    return enc.clauses, enc.cell


def find_model(law: Law | list[Law], n: int, forbid: list[Law] | None = None) -> Table | None:
    """A verified table of size ``n`` satisfying ``law`` (or all of a list), else None.

    ``forbid``: laws the model must *violate* — used to separate laws (a model of A that fails B).
    Violation is checked by direct evaluation, with models enumerated until one qualifies.
    """
    from pysat.solvers import Solver

    laws = law if isinstance(law, list) else [law]
    clauses, cell = encode(laws, n)
    if any(len(c) == 0 for c in clauses):
        return None
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = set(lit for lit in solver.get_model() if lit > 0)
            table = tuple(
                tuple(next(c for c in range(n) if cell[a, b, c] in model) for b in range(n))
                for a in range(n)
            )
            if not all(satisfies(table, lw) for lw in laws):
                raise EncodingError(f"SAT encoding returned a non-model {table}")
            if not forbid or all(not satisfies(table, f) for f in forbid):
                return table
            solver.add_clause([-cell[a, b, table[a][b]] for a in range(n) for b in range(n)])
    return None


@dataclass(frozen=True)
class ModelSearch:
    """Result of searching sizes 2..max_size: the first verified table, and the sizes tried."""

    table: Table | None
    sizes: tuple[int, ...]
    ms: float


def search(law: Law, max_size: int = 5, min_size: int = 2) -> ModelSearch:
    start = time.perf_counter()
    tried: list[int] = []
    for n in range(min_size, max_size + 1):
        tried.append(n)
        table = find_model(law, n)
        if table is not None:
            return ModelSearch(table, tuple(tried), (time.perf_counter() - start) * 1000)
    return ModelSearch(None, tuple(tried), (time.perf_counter() - start) * 1000)


def format_table(table: Table) -> str:
    """Rows of the operation table, ``a ◇ b`` at row a, column b."""
    return "\n".join(" ".join(str(v) for v in row) for row in table)
