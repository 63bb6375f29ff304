"""The renewable generator: extend proven laws by one operation, dedup, screen out small models.

From a law ``x = T`` every candidate replaces one variable occurrence ``v`` in ``T`` by
``(v ◇ w)`` or ``(w ◇ v)``, with ``w`` ranging over the law's variables and one fresh one. The
extension often keeps the mechanism that forbids finite models, which is why the yield of
admissible laws stays roughly constant with order (ALPS reports 20-25 per thousand).

>>> seeds = [parse_law("x = y ◇ (x ◇ z)")]
>>> cands = extend_all(seeds)
>>> len(cands), all(c.order == 3 for c in cands)
(19, True)
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from veristep.alps import finite_models
from veristep.alps.terms import Law, Op, Var, canonical, leaf_names, positions, replace_at, var_name
from veristep.alps.terms import parse_law as parse_law  # for the doctest

if TYPE_CHECKING:
    from veristep.alps.sweep import Backend


def _fresh(names: list[str]) -> str:
    i = 0
    while var_name(i) in names:
        i += 1
    return var_name(i)


def extensions(law: Law) -> Iterable[Law]:
    """Every one-operation extension of the law's right-hand side (not deduplicated)."""
    names = law.variables()
    pool = [*names, _fresh(names)]
    for pos, t in positions(law.rhs):
        if not isinstance(t, Var):
            continue
        for w in pool:
            for new in (Op(t, Var(w)), Op(Var(w), t)):
                yield Law(law.lhs, replace_at(law.rhs, pos, new))


def extend_all(seeds: Iterable[Law], exclude: set[str] | None = None) -> list[Law]:
    """Canonical, deduplicated extensions of all seeds, minus ``exclude`` (canonical strings)."""
    seen = set(exclude or ())
    out: list[Law] = []
    for seed in seeds:
        for cand in extensions(seed):
            c = canonical(cand)
            key = str(c)
            if key not in seen:
                seen.add(key)
                out.append(c)
    return out


_CHUNK = 64


def _without_small_model(index: int, laws: list[Law], max_size: int) -> tuple[int, list[Law]]:
    """A backend task: the laws of one chunk that have no nontrivial model of size ≤ max_size."""
    return index, [law for law in laws if not has_small_model(law, max_size)]


def _screen_chunks(laws: list[Law], max_size: int, backend: Backend, progress: bool) -> list[Law]:
    from rich.progress import Progress

    chunks = [(i, laws[i : i + _CHUNK], max_size) for i in range(0, len(laws), _CHUNK)]
    found: dict[int, list[Law]] = {}
    with Progress(disable=not progress, transient=False) as bar:
        task = bar.add_task(f"size ≤ {max_size} screen on {backend.name}", total=len(laws))
        for index, kept in backend.map_unordered(_without_small_model, chunks):
            found[index] = kept
            bar.update(task, advance=min(_CHUNK, len(laws) - index))
    return [law for index in sorted(found) for law in found[index]]


def has_small_model(law: Law, max_size: int = 3) -> bool:
    return any(finite_models.find_model(law, n) is not None for n in range(2, max_size + 1))


@dataclass
class OrderReport:
    order: int
    seeds: int
    candidates: int
    after_screen: int
    secs: float
    survivors: list[Law] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, object]:
        return {
            "order": self.order,
            "seeds": self.seeds,
            "candidates": self.candidates,
            "after_small_model_screen": self.after_screen,
            "secs": round(self.secs, 2),
        }


def generate_order(
    seeds: list[Law],
    screen_size: int = 3,
    exclude: set[str] | None = None,
    progress: bool = False,
    backend: Backend | None = None,
) -> OrderReport:
    """One generation step: extend, dedup, drop laws with a nontrivial model of size ≤ screen_size.

    Laws where x does not occur on the right would be trivial (x = T(y, ...) makes every element
    equal), so they are dropped too before any SAT call. With a ``backend`` (a Ray cluster) the
    SAT screen runs there in chunks; the survivors come back in the same order as here.
    """
    from rich.progress import track

    start = time.perf_counter()
    cands = extend_all(seeds, exclude)
    keep = [
        law for law in cands if isinstance(law.lhs, Var) and law.lhs.name in leaf_names(law.rhs)
    ]
    if backend is None:
        survivors = [
            law
            for law in track(keep, description="size ≤ 3 screen", disable=not progress)
            if not has_small_model(law, screen_size)
        ]
    else:
        survivors = _screen_chunks(keep, screen_size, backend, progress)
    order = cands[0].order if cands else (seeds[0].order + 1 if seeds else 0)
    secs = time.perf_counter() - start
    return OrderReport(order, len(seeds), len(cands), len(survivors), secs, survivors)
