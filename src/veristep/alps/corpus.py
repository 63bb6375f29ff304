"""Growing the corpus order by order: generate, screen, take the Austin laws as the next seeds.

Yield per order is what tells whether the corpus stays renewable. The paper's measure is
``austin_per_1000``: AUSTIN_PROVEN laws per thousand *screened* candidates (those that survive the
small-model filter and reach the prover), with new equivalence classes per thousand screened beside
it (``alps yield`` computes the same from any status file). ``admissible_per_1000`` (AUSTIN_PROVEN
+ NO_FINITE_MODEL over *raw* candidates) is kept for comparison; it is about ten times higher.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from veristep.alps.dedup import equivalence_classes
from veristep.alps.generate import OrderReport, generate_order
from veristep.alps.screen import make_prover, screen_many
from veristep.alps.stages import ScreenBudget
from veristep.alps.store import ScreenStore
from veristep.alps.terms import Law, canonical, parse_law

if TYPE_CHECKING:
    from veristep.core.batch import Backend


@dataclass
class Yield:
    report: OrderReport
    admissible: int = 0
    austin: int = 0
    new_classes: int = 0
    screened: bool = False

    def to_json(self) -> dict[str, object]:
        row = self.report.to_json()
        if self.screened:
            per_k = 1000 / max(1, self.report.candidates)
            per_screened = 1000 / max(1, self.report.after_screen)
            row |= {
                "admissible": self.admissible,
                "austin_proven": self.austin,
                "new_classes": self.new_classes,
                "austin_per_1000": round(self.austin * per_screened, 1),
                "new_classes_per_1000": round(self.new_classes * per_screened, 1),
                "admissible_per_1000": round(self.admissible * per_k, 1),
            }
        return row


def grow(
    seeds: list[Law],
    orders: int,
    out: Path,
    store: ScreenStore | None,
    budget: ScreenBudget,
    prover_name: str = "e/auto",
    workers: int = 2,
    screen_size: int = 3,
    progress: bool = True,
    backend: Backend | None = None,
) -> list[Yield]:
    """Generate ``orders`` successive orders; with a store, screen each order's survivors and
    recurse from its AUSTIN_PROVEN laws (without one, recursion goes on from all survivors)."""
    seen = {str(canonical(s)) for s in seeds}
    yields: list[Yield] = []
    known_reps: list[Law] = []
    with open(out, "w", encoding="utf-8") as fh:
        for _ in range(orders):
            rep = generate_order(seeds, screen_size, seen, progress, backend)
            seen |= {str(s) for s in rep.survivors}
            y = Yield(rep)
            if store is not None and rep.survivors:
                texts = [str(s) for s in rep.survivors]
                screen_many(texts, store, budget, prover_name, workers, progress, backend)
                rows = {t: store.load(t) for t in texts}
                status = {t: r.status if r else "OPEN" for t, r in rows.items()}
                austin = [parse_law(t) for t in texts if status[t] == "AUSTIN_PROVEN"]
                admissible = ("AUSTIN_PROVEN", "NO_FINITE_MODEL")
                y.admissible = sum(s in admissible for s in status.values())
                y.austin, y.screened = len(austin), True
                y.new_classes = _new_classes(known_reps, austin, make_prover(prover_name), budget)
                next_seeds = austin
            else:
                status = {}
                next_seeds = rep.survivors
            for law in rep.survivors:
                row = {"law": str(law), "order": law.order}
                if status:
                    row["status"] = status[str(law)]
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            yields.append(y)
            seeds = next_seeds
            if not seeds:
                break
    return yields


def _new_classes(known: list[Law], fresh: list[Law], prover, budget: ScreenBudget) -> int:
    """Classes among ``fresh`` that contain no earlier law; ``known`` grows by their
    representatives."""
    before = len(known)
    result = equivalence_classes(fresh, prover, min(budget.prover_s, 5.0), known=known)
    reps = [parse_law(c[0]) for c in result.classes]
    new = len(reps) - before
    known[:] = reps
    return max(0, new)
