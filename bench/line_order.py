"""What a learner watches: how often a derivation's next line moves a part the last line had.

    python bench/line_order.py [--pairs bench/derive_syllabus.jsonl] [--every K] [--limit N]
                               [--split tuned|held_out|all] [--show N]

Every task of the syllabus bench is derived (symbolic planner, in this process) and each pair of
consecutive lines is compared:

- branches: the cases of a disjunction (``x = 2 \\lor x = 3``), each known by the value it gives
  the unknown; a branch that persists but changes position counts.
- factors: the bracketed factors ``\\left(…\\right)`` of each side, known by their text.
- terms: the top-level terms of each side, known by their text and sign, compared side by side:
  each side of a line against the side of the line before that shares most of its terms, so
  swapping the two sides (a move of its own) or a term crossing to the other side is not counted
  as a reorder, while ``m x = y - c`` written ``m x = - c + y`` after ``m x + c = y`` is.

A pair counts for a kind when it shares at least two parts of that kind with the line before; it
is a change when those shared parts are in a different order. The target for branches and
factors is 0.

Glyph crossings are counted from the rendered animation (``veristep.animate.payload``): a glyph
kept from one frame to the next (same id) keeps its reading order unless the animation slides it
across another kept glyph; each such inverted pair of glyphs is one crossing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
KINDS = ("branches", "factors", "terms")
# A glyph: an id whose content is plain text (a letter, a digit, an operator sign).
_GLYPH = re.compile(r"\\htmlData\{n=(\d+)(?:,role=op)?\}\{([^{}\\]*)\}")


def top_level_split(text: str, separators: tuple[str, ...]) -> list[str]:
    """``text`` cut at each separator that is outside every brace and ``\\left … \\right``."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        if text.startswith("\\left", i) or text[i] == "{":
            depth += 1
        elif text.startswith("\\right", i) or text[i] == "}":
            depth -= 1
        elif depth == 0:
            sep = next((s for s in separators if text.startswith(s, i)), None)
            if sep is not None and i > start:
                parts.append(text[start:i].strip())
                start = i + (len(sep) if sep.strip() not in "+-" else 0)
                i += len(sep)
                continue
        i += 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def sides(line: str) -> list[str]:
    return [s for b in top_level_split(line, (" \\lor ",)) for s in
            top_level_split(b, (" = ", " < ", " > ", " \\le ", " \\ge "))]  # fmt: skip


def factors(line: str) -> list[str]:
    """The bracketed factors of each side, in reading order."""
    out = []
    for side in sides(line):
        if len(top_level_split(side, (" + ", " - "))) == 1:
            out += re.findall(r"\\left\((?:[^()]|\([^()]*\))*?\\right\)(?:\^\{[^}]*\})?", side)
    return out


def terms(line: str) -> list[str]:
    """The top-level terms of each side with their signs, in reading order."""
    return [t for side in sides(line) for t in top_level_split(side, (" + ", " - "))]


def side_terms(line: str) -> list[list[str]]:
    """The top-level terms of each side separately, each with its sign (a leading term gets +)."""
    signed = [[t if t[0] in "+-" else "+ " + t for t in top_level_split(side, (" + ", " - "))]
              for side in sides(line)]  # fmt: skip
    return signed


def terms_changed(before: str, after: str) -> bool | None:
    """Whether a side of ``after`` has the terms it shares with its side of ``before`` (the one
    sharing most) in another order; None when no side shares two terms.

    >>> terms_changed("m x + c = y", "m x = - c + y"), terms_changed("y = m x + c", "m x + c = y")
    (None, False)
    >>> terms_changed("a + b + c = 0", "c + b + a = 0")
    True
    """
    previous = side_terms(before)
    verdicts = []
    for side in side_terms(after):
        match = max(previous, key=lambda p: len(set(p) & set(side)), default=[])
        verdict = order_changed(match, side)
        if verdict is not None:
            verdicts.append(verdict)
    return any(verdicts) if verdicts else None


def branch_values(line: str, settings: Any) -> list[float]:
    """Each case of a disjunction as the value it gives its unknown (empty when not a
    disjunction of equations with a value each)."""
    from veristep.propose.symbolic.printer import case_value
    from veristep.propose.symbolic.proposer import latex_to_sympy

    cases = top_level_split(line, (" \\lor ",))
    if len(cases) < 2:
        return []
    try:
        return [round(case_value(latex_to_sympy(c, settings)), 9) for c in cases]
    except Exception:  # a case the reader or the value cannot take: no branch to follow
        return []


def order_changed(before: list[Any], after: list[Any]) -> bool | None:
    """Whether the parts present once in both lines appear in another order; None when fewer
    than two parts persist."""
    common = [p for p in before if before.count(p) == 1 and after.count(p) == 1]
    if len(common) < 2:
        return None
    return [p for p in after if p in common] != common


def glyph_crossings(derivation: dict[str, Any]) -> list[int]:
    """Per consecutive frame pair of the rendered animation: kept glyphs whose reading order
    is inverted."""
    from veristep.animate.payload import build_payload

    frames = build_payload(derivation)["frames"]
    out = []
    for a, b in pairwise(frames):
        order_a, order_b = _reading_order(a.get("tex", "")), _reading_order(b.get("tex", ""))
        kept = [g for g in order_a if g in order_b]
        pos = {g: i for i, g in enumerate(order_b)}
        out.append(sum(pos[g] > pos[h] for g, h in combinations(kept, 2)))
    return out


def _reading_order(tex: str) -> list[int]:
    """Glyph ids by first appearance in the rendered LaTeX (the reading order)."""
    seen: dict[int, None] = {}
    for m, _ in _GLYPH.findall(tex):
        seen.setdefault(int(m), None)
    return list(seen)


def measure(lines: list[str], settings: Any) -> dict[str, list[bool]]:
    """Per kind, one entry per consecutive pair sharing two or more parts: changed or not."""
    out: dict[str, list[bool]] = {k: [] for k in KINDS}
    readers = {"branches": lambda s: branch_values(s, settings), "factors": factors}
    for a, b in pairwise(lines):
        for kind, read in readers.items():
            changed = order_changed(read(a), read(b))
            if changed is not None:
                out[kind].append(changed)
        changed = terms_changed(a, b)
        if changed is not None:
            out["terms"].append(changed)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=HERE / "derive_syllabus.jsonl")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--split", choices=("tuned", "held_out", "all"), default="all")
    parser.add_argument("--show", type=int, default=10, help="list this many changed pairs")
    args = parser.parse_args(argv)

    from veristep.core.errors import InputError
    from veristep.core.settings import Settings
    from veristep.propose import derive

    settings = Settings()
    pairs = [json.loads(line) for line in args.pairs.read_text().splitlines() if line.strip()]
    if args.split != "all":
        pairs = [p for p in pairs if p.get("split", "tuned") == args.split]
    pairs = pairs[:: args.every][: args.limit] if args.limit else pairs[:: args.every]
    totals: dict[str, list[bool]] = {k: [] for k in KINDS}
    crossings: list[int] = []
    shown: list[str] = []
    per_task: dict[str, int] = {}
    for pair in pairs:
        try:
            d = derive(pair["start"], pair["target"], settings=settings).to_json()
        except InputError:
            continue
        lines = [s["latex"] for s in d["states"]]
        found = measure(lines, settings)
        for kind in KINDS:
            totals[kind] += found[kind]
            if any(found[kind]) and len(shown) < args.show:
                shown.append(f"  {pair['id']} ({kind}): " + "  →  ".join(lines))
        found_crossings = glyph_crossings(d)
        crossings += found_crossings
        per_task[pair["id"]] = sum(found_crossings)
        print(f"{pair['id']}: {per_task[pair['id']]} crossings", file=sys.stderr)
    print(f"{len(pairs)} derivations, {len(crossings)} consecutive line pairs")
    for kind in KINDS:
        n, changed = len(totals[kind]), sum(totals[kind])
        share = 100 * changed / n if n else 0.0
        print(f"  {kind:<9} {changed:>4} of {n:>4} pairs with persisting parts reordered "
              f"({share:.1f} %)")  # fmt: skip
    moved = sum(c > 0 for c in crossings)
    print(f"  glyph crossings in the animation: {sum(crossings)} in {moved} of {len(crossings)} "
          f"frame pairs")  # fmt: skip
    most = sorted(per_task.items(), key=lambda kv: -kv[1])[:5]
    print("  most crossings: " + ", ".join(f"{k} ({v})" for k, v in most))
    if shown:
        print("reordered (first ones):")
        print("\n".join(shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
