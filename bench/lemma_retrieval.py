"""Lemma retrieval: does the lemma a user needs for a goal come back in the first k?

Goals are written as Coq prints them in a proof session (``bench/lemma_goals.jsonl``), each with
the standard-library lemmas that close it by ``apply`` or ``rewrite``. The "dev" part was looked
at while the shape ranking was written; the "held-out" part was written down before either
ranking was run on it. A goal whose lemma the harvested index does not hold (its module is not
harvested) is reported, not scored: no ranking can return it.

Compares the shape ranking (``LemmaIndex.retrieve``) with keyword overlap alone
(``by_shape=False``, the ranking before shapes) at k = 1, 3, 6 (the Retriever hands the search 6)::

    python bench/lemma_retrieval.py [--goals bench/lemma_goals.jsonl]

Needs Coq (the index is harvested from the installed libraries once, then cached).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from veristep.core.settings import Settings
from veristep.formal.retriever import DOMAIN_MODULES, LemmaIndex, cached_index

KS = (1, 3, 6)


def _rank(index: LemmaIndex, row: dict, by_shape: bool) -> int | None:
    """The 1-based rank of the first wanted lemma in the top 20, or None."""
    modules = frozenset().union(*DOMAIN_MODULES.values())
    found = index.retrieve(row["goal"], k=20, modules=modules, domain=row["domain"],
                           by_shape=by_shape)  # fmt: skip
    for rank, lemma in enumerate(found, 1):
        if lemma.name.split(".")[-1] in row["lemmas"]:
            return rank
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--goals", type=Path, default=Path(__file__).parent / "lemma_goals.jsonl")
    args = parser.parse_args()
    index = cached_index(Settings().data_dir / "formal")
    held = {lemma.name.split(".")[-1] for lemma in index.lemmas}
    rows = [json.loads(line) for line in args.goals.read_text(encoding="utf-8").splitlines()]
    for part in ("dev", "held-out", "held-out-2"):
        mine = [r for r in rows if r["part"] == part]
        scored = [r for r in mine if set(r["lemmas"]) & held]
        missing = [r["goal"] for r in mine if not set(r["lemmas"]) & held]
        print(f"{part}: {len(scored)} goals scored, {len(missing)} whose lemma is not harvested")
        for by_shape, label in ((False, "keywords"), (True, "shape")):
            started = time.perf_counter()
            ranks = [_rank(index, r, by_shape) for r in scored]
            ms = 1000 * (time.perf_counter() - started) / max(len(scored), 1)
            hits = "  ".join(
                f"top {k}: {sum(1 for x in ranks if x and x <= k):2d}/{len(scored)}" for k in KS
            )
            print(f"  {label:9s} {hits}   ({ms:.0f} ms a goal)")
        for r in scored:
            old, new = _rank(index, r, False), _rank(index, r, True)
            if old != new:
                print(f"    {r['goal']!r}: rank {old} -> {new}")
        for goal in missing:
            print(f"    not harvested: {goal!r}")


if __name__ == "__main__":
    main()
