"""The lemma index, harvested from the installed Coq libraries, and retrieval over it: by the
shape of the goal (relation, head symbols of its sides; :mod:`veristep.formal.shapes`) first,
keyword overlap only to break ties and for queries that are not propositions.

The index is built by asking Coq itself (``Search _ inside M.`` for each library module), so it
holds what is really installed, with each lemma's statement as Coq prints it. Building it takes a
few seconds; it is cached as JSON under the data folder, keyed by Coq's version and the module
list, and rebuilt only when either changes.

>>> idx = LemmaIndex([Lemma("Rplus_le_le_0_compat", "forall r1 r2 : R, 0 <= r1 -> 0 <= r2 -> "
...                         "0 <= r1 + r2"), Lemma("Nat.add_0_r", "forall n : nat, n + 0 = n")])
>>> [lem.name for lem in idx.retrieve("0 <= x * x + y * y", k=1)]
['Rplus_le_le_0_compat']
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import subprocess
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from veristep.formal.backends.coqtop import CoqtopSession
from veristep.formal.shapes import Shape, prop_shape, shape_score

# ``Require`` without ``Import``: Search then prints qualified names (``RIneq.Rle_refl``), which
# work in any theorem whose header loads the module, whatever that header imports.
HARVEST_HEADER = "Require Reals ZArith Arith List Znumtheory."
HARVEST_MODULES: tuple[str, ...] = (
    "RIneq", "Rbasic_fun", "Rfunctions", "R_sqrt", "Rpower", "Rtrigo1", "Rsqrt_def", "Ranalysis1",
    "PeanoNat.Nat", "BinInt.Z", "Znumtheory", "Zdiv", "Zpow_facts", "List",
)  # fmt: skip

INDEX_FORMAT = 2  # bump when parsing changes, so stale caches are not reused
_PLAIN_TYPE = re.compile(r"[\w.']+(\s*->\s*[\w.']+)*")
_ENTRY = re.compile(r"^([A-Za-z_][\w.']*):(?: (.*))?$")
_TOKEN = re.compile(r"[A-Za-z_][\w']*|<=|>=|<>|[-+*/^<>=~]")
# Symbols carry meaning in goals (a "<=" goal wants a "<=" lemma); common binders carry none.
_STOP = frozenset({"forall", "R", "nat", "Z", "Prop", "Type", "fun", "exists", "r", "x", "y", "n"})


@dataclass(frozen=True)
class Lemma:
    name: str
    statement: str
    module: str = ""  # the library module it was harvested from

    def tokens(self) -> list[str]:
        return name_words(self.name) + query_tokens(self.statement)


# Coq's naming convention spells the symbols out (Rplus_le_compat), so a goal's symbols are also
# matched against the words of lemma names.
_SYMBOL_WORDS = {
    "+": "plus", "*": "mult", "-": "minus", "/": "div", "<=": "le", "<": "lt", ">=": "ge",
    ">": "gt", "^": "pow", "<>": "neq", "~": "not", "=": "eq",
}  # fmt: skip


def name_words(name: str) -> list[str]:
    """Words of a lemma name with the type prefix removed: ``Rplus_le`` → plus, le.

    >>> name_words("Z.mul_le_mono_nonneg")
    ['mul', 'le', 'mono', 'nonneg']
    >>> name_words("Rplus_le_le_0_compat")[:2]
    ['plus', 'le']
    """
    words = []
    for part in re.split(r"[._]", name.split(".")[-1]):
        if re.match(r"^[RZN][a-z]", part):
            part = part[1:]
        if part and not part.isdigit():
            words.append(part.lower())
    return words


_QUALIFIER = re.compile(r"\b(?:[A-Za-z_][\w']*\.)+(?=[A-Za-z_])")
DOMAIN_MODULES: dict[str, frozenset[str]] = {
    "R": frozenset({"RIneq", "Rbasic_fun", "Rfunctions", "R_sqrt", "Rpower", "Rtrigo1",
                    "Rsqrt_def", "Ranalysis1"}),
    "Z": frozenset({"BinInt.Z", "Znumtheory", "Zdiv", "Zpow_facts"}),
    "nat": frozenset({"PeanoNat.Nat", "List"}),
}  # fmt: skip


def query_tokens(text: str) -> list[str]:
    """Identifiers and symbols of a goal or statement, plus the name-words of its symbols.

    Qualifiers are dropped (``Rdefinitions.Rle`` reads as ``Rle``, hence also ``le``).
    """
    text = _QUALIFIER.sub("", text).replace("->", " ")
    out = []
    for tok in _TOKEN.findall(text):
        if tok in _STOP:
            continue
        out.append(tok)
        if tok in _SYMBOL_WORDS:
            out.append(_SYMBOL_WORDS[tok])
        elif re.match(r"^[RZ][a-z]", tok):
            out.append(tok[1:].lower())
    return out


class LemmaIndex:
    """Lemmas with their conclusions' shapes, and an inverse-document-frequency weighting for
    overlap ranking."""

    def __init__(self, lemmas: list[Lemma]) -> None:
        self.lemmas = lemmas
        self._tokens = [Counter(lem.tokens()) for lem in lemmas]
        self._shapes: list[Shape | None] = [prop_shape(lem.statement) for lem in lemmas]
        df: Counter[str] = Counter()
        for tokens in self._tokens:
            df.update(tokens.keys())
        n = max(len(lemmas), 1)
        self._idf = {tok: math.log((n + 1) / (count + 0.5)) for tok, count in df.items()}

    def __len__(self) -> int:
        return len(self.lemmas)

    @property
    def modules(self) -> tuple[str, ...]:
        return tuple(sorted({lem.module for lem in self.lemmas if lem.module}))

    def names(self, modules: frozenset[str] | None = None) -> list[str]:
        """The lemma names, only those of ``modules`` (the loaded ones) when given."""
        return [lem.name for lem in self.lemmas if modules is None or lem.module in modules]

    def retrieve(
        self,
        goal: str,
        k: int = 8,
        hypotheses: list[str] | None = None,
        modules: frozenset[str] | None = None,
        domain: str | None = None,
        by_shape: bool = True,
        keywords: str = "",
    ) -> list[Lemma]:
        """The ``k`` lemmas whose conclusion best fits the goal.

        When the goal is a proposition with a relation, a lemma is scored first by the shape of
        its conclusion (:func:`~veristep.formal.shapes.shape_score`: the same relation, the same
        heads on each side, the symbols in common, few premises); keyword overlap with the goal
        and hypotheses (IDF-weighted, divided by a length penalty) adds at most 1, so it orders
        lemmas of equal or nearly equal shape. A query with no relation ("Rabs triangle") is
        ranked by overlap alone. With ``modules``, only lemmas of those (loaded) modules are
        candidates: a name Coq cannot resolve is waste. ``domain`` ("R", "Z" or "nat") favours
        lemmas about the theorem's own number type. ``keywords`` (free text) only add to the
        overlap. ``by_shape=False`` ranks by overlap alone (the ranking before shapes, kept for
        comparison: ``bench/lemma_retrieval.py``).
        """
        home = DOMAIN_MODULES.get(domain or "", frozenset())
        query = Counter(query_tokens(goal))
        for hyp in hypotheses or []:
            query.update(query_tokens(hyp.split(":", 1)[-1]))
        query.update(query_tokens(keywords))
        if not query:
            return []
        wanted = prop_shape(goal) if by_shape else None
        overlaps: list[tuple[float, float, int]] = []  # (shape, overlap, lemma)
        for i, tokens in enumerate(self._tokens):
            if modules is not None and self.lemmas[i].module not in modules:
                continue
            overlap = sum(self._idf.get(t, 0.0) for t in tokens.keys() & query.keys())
            shape = self._shapes[i]
            fit = max(0.0, shape_score(shape, wanted)) if wanted and shape else 0.0
            if overlap > 0 or fit > 0:
                overlaps.append((fit, overlap / math.log(3 + len(tokens)), i))
        if not overlaps:
            return []
        most = max(overlap for _, overlap, _ in overlaps) or 1.0
        scored = []
        for fit, overlap, i in overlaps:
            weight = 1.0 if not home else (2.0 if self.lemmas[i].module in home else 0.5)
            scored.append((weight * (fit + overlap / most), i))
        scored.sort(key=lambda pair: (-pair[0], self.lemmas[pair[1]].name))
        return [self.lemmas[i] for _, i in scored[:k]]

    # -- persistence -----------------------------------------------------------------------
    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps([asdict(lem) for lem in self.lemmas]), encoding="utf-8")
        tmp.replace(path)  # atomic: a concurrent reader never sees half a file

    @classmethod
    def load(cls, path: Path) -> LemmaIndex:
        return cls([Lemma(**row) for row in json.loads(path.read_text(encoding="utf-8"))])


def parse_search_output(text: str, module: str = "") -> list[Lemma]:
    """Lemmas from ``Search`` output: ``name: type`` with indented continuation lines.

    >>> out = "Nat.add_0_r:\\n  forall n : nat, n + 0 = n\\nnonzero: nonzeroreal -> R"
    >>> parse_search_output(out)
    [Lemma(name='Nat.add_0_r', statement='forall n : nat, n + 0 = n', module='')]
    """
    entries: list[list[str]] = []
    for line in text.splitlines():
        match = _ENTRY.match(line)
        if match:
            entries.append([match.group(1), match.group(2) or ""])
        elif entries and line.startswith(" "):
            entries[-1][1] += " " + line.strip()
    lemmas = []
    for name, statement in entries:
        statement = " ".join(statement.split())
        # Only propositions are useful to apply or rewrite with; a definition's type (``R -> R``,
        # ``Set``) is not. Without Import, statements print without notations (``Rle R0 x``).
        if statement and not _PLAIN_TYPE.fullmatch(statement):
            lemmas.append(Lemma(name, statement, module))
    return lemmas


def harvest(modules: tuple[str, ...] = HARVEST_MODULES, timeout_s: float = 120.0) -> LemmaIndex:
    """Ask Coq for every lemma of ``modules`` (one ``Search`` per module, one session)."""
    seen: dict[str, Lemma] = {}
    with CoqtopSession(header=HARVEST_HEADER, start_timeout_s=timeout_s) as session:
        for module in modules:
            reply = session.execute(f"Search _ inside {module}.", timeout_s)
            for lemma in parse_search_output(reply.text, module):
                seen.setdefault(lemma.name, lemma)
    return LemmaIndex(sorted(seen.values(), key=lambda lem: lem.name))


def coq_version() -> str:
    out = subprocess.run(["coqc", "--version"], capture_output=True, text=True, timeout=30)
    return out.stdout.strip().splitlines()[0] if out.stdout.strip() else "unknown"


def cached_index(cache_dir: Path, modules: tuple[str, ...] = HARVEST_MODULES) -> LemmaIndex:
    """The harvested index, from the cache when Coq's version and the module list match."""
    key_text = f"{INDEX_FORMAT}|{coq_version()}|{HARVEST_HEADER}|{modules}"
    key = hashlib.sha256(key_text.encode()).hexdigest()[:16]
    path = cache_dir / f"lemma_index_{key}.json"
    if path.exists():
        try:
            return LemmaIndex.load(path)
        except (ValueError, TypeError, KeyError):
            pass  # a corrupt cache is rebuilt, not trusted
    index = harvest(modules)
    index.save(path)
    return index
