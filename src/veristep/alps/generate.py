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
    from veristep.core.batch import Backend


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


def small_model_task(chunk: list[str], max_size: int) -> dict[str, list[int]]:
    """A batch-engine task: the positions, in ``chunk``, of the laws without a nontrivial model
    of size ≤ max_size."""
    laws = [parse_law(text) for text in chunk]
    return {"kept": [at for at, law in enumerate(laws) if not has_small_model(law, max_size)]}


def _screen_chunks(
    laws: list[Law], max_size: int, backend: Backend | None, progress: bool
) -> list[Law]:
    """The laws without a small model, in order, screened in chunks on the batch engine (in this
    process without a backend). A chunk whose screen failed keeps all its laws: the prover
    screening that follows labels a law with a small model, so nothing is lost or wrongly kept."""
    import sys

    from veristep.core.batch import ResultStore, SerialBackend, run_batch

    chunks = [laws[i : i + _CHUNK] for i in range(0, len(laws), _CHUNK)]
    where = "" if backend is None else f" on {backend.name}"
    summary = run_batch(
        small_model_task, [[str(law) for law in chunk] for chunk in chunks], ResultStore(),
        backend or SerialBackend(), context=max_size, progress=progress,
        label=f"size ≤ {max_size} screen{where} ({_CHUNK} laws a task)",
    )  # fmt: skip
    survivors: list[Law] = []
    for index, chunk in enumerate(chunks):
        result = summary.results[index]
        if "error" in result:
            print(f"size ≤ {max_size} screen failed on {len(chunk)} laws, kept: "
                  f"{result['error']}", file=sys.stderr)  # fmt: skip
        survivors += chunk if "error" in result else [chunk[at] for at in result["kept"]]
    return survivors


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
    start = time.perf_counter()
    cands = extend_all(seeds, exclude)
    keep = [
        law for law in cands if isinstance(law.lhs, Var) and law.lhs.name in leaf_names(law.rhs)
    ]
    survivors = _screen_chunks(keep, screen_size, backend, progress)
    order = cands[0].order if cands else (seeds[0].order + 1 if seeds else 0)
    secs = time.perf_counter() - start
    return OrderReport(order, len(seeds), len(cands), len(survivors), secs, survivors)
