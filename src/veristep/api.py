"""``veristep.grade``: judge many chains of states from Python, e.g. as a reward inside a
training loop.

A :class:`Grader` holds a warm pool of CAS worker processes (sized by the caller) and a few
threads that parse and plan; it is safe to call from many threads at once and meant to be kept
for the whole run. :func:`grade` uses one process-wide grader, created on first use.
:func:`map_batches` is the same for ``ray.data.Dataset.map_batches`` (a module-level function:
each Ray worker process builds its own grader once).

A chain that cannot be judged (bad arguments) gets an ``unchecked`` grade with its error; it
never raises and never costs the other chains.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.core.tiers import Tier

if TYPE_CHECKING:
    from veristep.core.verdicts import Derivation

Chain = Sequence[str]


@dataclass(frozen=True, slots=True)
class Grade:
    """One chain's verdict: the chain's tier (weakest link and gates) and each step's tier."""

    verdict: Tier
    tiers: tuple[Tier, ...]
    summary: str
    derivation: Derivation | None = None
    error: str | None = None

    @property
    def refuted(self) -> bool:
        return self.verdict is Tier.REFUTED

    def _repr_html_(self) -> str:  # a notebook shows the judged chain, or the error
        if self.derivation is not None:
            return self.derivation._repr_html_()
        said = html.escape(self.error or "")
        return f"<p>{self.verdict.icon} {self.verdict.name_lower}: {said}</p>"

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.name_lower,
            "tiers": [t.name_lower for t in self.tiers],
            "summary": self.summary,
            "error": self.error,
        }


class Grader:
    """A warm worker pool and grading threads, reusable and thread-safe.

    ``workers``: CAS worker processes (each holds SymPy warm, ~100 MB); ``threads``: chains
    judged at once (default: two per worker, so the workers stay busy while threads parse).
    """

    def __init__(
        self, workers: int = 2, threads: int | None = None, settings: Settings | None = None
    ) -> None:
        from veristep.core.pool import shared_pool

        self.settings = (settings or Settings()).replace(pool_workers=max(1, workers))
        self._threads = ThreadPoolExecutor(threads or 2 * max(1, workers), "veristep-grade")
        shared_pool(self.settings)  # started now, so the first call finds it warm

    def grade(self, chain: Chain, change_types: Sequence[str] | None = None) -> Grade:
        """Judge one chain (first state to last) in the calling thread."""
        from veristep.grounding.chain import check

        try:
            found = check(
                list(chain), list(change_types) if change_types else None, None, self.settings
            )
        except InputError as err:
            return Grade(Tier.UNCHECKED, (), "not judged", None, err.one_line())
        return _grade_of(found)

    def grade_many(self, chains: Sequence[Chain]) -> list[Grade]:
        """Judge many chains on the grader's threads; grades in the order of ``chains``."""
        return list(self._threads.map(self.grade, chains))

    def close(self) -> None:
        self._threads.shutdown(wait=True)

    def __enter__(self) -> Grader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _grade_of(derivation: Derivation) -> Grade:
    confidence = derivation.confidence
    tiers = tuple(step.tier for step in derivation.steps)
    return Grade(confidence.tier, tiers, confidence.summary, derivation)


_DEFAULT: Grader | None = None
_DEFAULT_LOCK = threading.Lock()


def default_grader(workers: int | None = None) -> Grader:
    """The process-wide grader, created on first use (``workers`` only counts then)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = Grader(workers or Settings().pool_workers)
        return _DEFAULT


def grade(states: Chain | Sequence[Chain], *, grader: Grader | None = None) -> Grade | list[Grade]:
    """Judge one chain (a list of states) or many (a list of lists): a :class:`Grade` each.

    >>> grade(["2x = 4", "x = 2"]).verdict.name_lower
    'grounded'
    """
    grader = grader or default_grader()
    if isinstance(states, str):
        raise TypeError("grade() takes a list of states (or a list of such lists), not a string")
    if states and not isinstance(states[0], str):
        return grader.grade_many(states)  # type: ignore[arg-type]
    return grader.grade(states)  # type: ignore[arg-type]


def map_batches(batch: Mapping[str, Any]) -> dict[str, Any]:
    """For ``ray.data.Dataset.map_batches``: a ``states`` column in, ``verdict`` and ``tiers``
    (lists of tier names) and ``summary`` columns added."""
    chains = [list(chain) for chain in batch["states"]]
    grades = default_grader().grade_many(chains)
    out = dict(batch)
    out["verdict"] = [g.verdict.name_lower for g in grades]
    out["tiers"] = [[t.name_lower for t in g.tiers] for g in grades]
    out["summary"] = [g.summary for g in grades]
    return out


@dataclass(frozen=True, slots=True)
class Animation:
    """A derivation's animation as one self-contained HTML document (KaTeX, its fonts, the player
    and the payload inlined): it plays in a notebook with no network and saves as one file."""

    document: str
    title: str

    def _repr_html_(self) -> str:
        # An iframe keeps the player's page styles and scripts apart from the notebook's page;
        # srcdoc carries the whole document, so nothing is fetched.
        return (
            f'<iframe title="{html.escape(self.title)}" srcdoc="{html.escape(self.document)}" '
            'sandbox="allow-scripts" style="width: 100%; height: 34rem; border: 0"></iframe>'
        )

    def save(self, path: str | Path) -> Path:
        """Write the document (open it in any browser, offline)."""
        target = Path(path)
        target.write_text(self.document, encoding="utf-8")
        return target


def animation(derivation: Derivation | Grade) -> Animation:
    """The animation of a judged derivation (from :func:`veristep.check`, :func:`veristep.derive`
    or a :class:`Grade`), shown inline by a notebook.

    >>> from veristep import check
    >>> shown = animation(check(["2x = 4", "x = 2"]))
    >>> "<iframe" in shown._repr_html_() and "katex" in shown.document
    True
    """
    from veristep.animate import export_html

    if isinstance(derivation, Grade):
        if derivation.derivation is None:
            raise InputError(f"nothing to animate: {derivation.summary}")
        derivation = derivation.derivation
    start, target = derivation.start, derivation.target
    title = f"{start} → {target}" if target else start
    return Animation(export_html(derivation, title=title), title)
