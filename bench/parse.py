"""Parse speed on the STACK corpus: median and p95 milliseconds per parse (and per round trip).

Usage: python bench/parse.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from veristep.core.datasets import require_shared_data
from veristep.mathgraph import LatexParseError, parse_latex, to_latex


def stack_lines() -> list[str]:
    path = require_shared_data("stack_equiv", "stack_equiv_latex.json")
    seen: dict[str, None] = {}
    for argument in json.loads(path.read_text()):
        for line in argument["lines"]:
            seen.setdefault(line["latex"], None)
    return list(seen)


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


if __name__ == "__main__":
    main()
