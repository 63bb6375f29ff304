"""Parse speed on the STACK corpus: median and p95 milliseconds per parse (and per round trip).

Also counts the STACK transitions (``stack_pairs.jsonl``) whose two states both parse and have a
SymPy form, i.e. that the grounding engine can check at all.

Usage: python bench/parse.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from veristep.core.datasets import require_shared_data
from veristep.core.errors import InputError
from veristep.mathgraph import LatexParseError, PlusMinusError, parse_latex, to_latex, to_sympy


def stack_lines() -> list[str]:
    path = require_shared_data("stack_equiv", "stack_equiv_latex.json")
    seen: dict[str, None] = {}
    for argument in json.loads(path.read_text()):
        for line in argument["lines"]:
            seen.setdefault(line["latex"], None)
    return list(seen)


def checkable_pairs() -> tuple[int, int]:
    """(transitions, transitions whose states all parse and convert to SymPy)."""
    path = require_shared_data("stack_equiv", "stack_pairs.jsonl")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    good = 0
    for row in rows:
        try:
            for latex in row["states"]:
                to_sympy(parse_latex(latex), real=True)
        except PlusMinusError:
            good += 1  # a bare ± expression has branches, which the checker handles
        except (LatexParseError, InputError):
            continue
        else:
            good += 1
    return len(rows), good


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="timing rounds over the corpus")
    args = parser.parse_args()
    lines = stack_lines()
    parsed, refused = [], 0
    for latex in lines:
        try:
            parsed.append(parse_latex(latex))
        except LatexParseError:
            refused += 1
    parse_ms: list[float] = []
    trip_ms: list[float] = []
    for _ in range(args.repeat):
        for latex in lines:
            start = time.perf_counter()
            try:
                graph = parse_latex(latex)
            except LatexParseError:
                parse_ms.append((time.perf_counter() - start) * 1000)
                continue
            parse_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            parse_latex(to_latex(graph))
            trip_ms.append((time.perf_counter() - start) * 1000)
    print(f"STACK lines: {len(lines)} distinct, parsed {len(parsed)}, refused {refused} "
          f"(parse rate {len(parsed) / len(lines):.1%})")  # fmt: skip
    print(f"parse ms/line over {args.repeat} rounds: median {statistics.median(parse_ms):.3f}, "
          f"p95 {percentile(parse_ms, 0.95):.3f}, max {max(parse_ms):.3f}")  # fmt: skip
    print(f"print+reparse ms/line: median {statistics.median(trip_ms):.3f}, "
          f"p95 {percentile(trip_ms, 0.95):.3f}")  # fmt: skip
    total, good = checkable_pairs()
    print(f"STACK transitions: {total}, both states parse and have a SymPy form: {good} "
          f"({good / total:.1%})")  # fmt: skip


if __name__ == "__main__":
    main()
