"""ALPS part 2: the sweep's outputs — resolutions per configuration and budget, the cumulative
resolved count vs budget (text table), an SVG plot, and the cells as JSONL.

>>> rows = [{"law": "L1", "config": "e/triv/auto", "budget": 30, "verdict": "TRIVIAL"},
...         {"law": "L2", "config": "e/triv/auto", "budget": 60, "verdict": ""}]
>>> print(tables(rows, ["e/triv/auto"], [30, 60], 2)[2])
config                   30s     60s   total     ran
e/triv/auto                1       0       1       2
cumulative                 1       1
resolved 1/2 laws (50.0 %)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from veristep.alps.sweep import CONFIGS, SweepStore, SweepSummary


def tables(rows: list[dict[str, Any]], configs: list[str], budgets: list[int], n_laws: int):
    """Resolutions per (configuration, budget) and the portfolio's cumulative resolved laws.

    ``ran`` counts the cells each configuration finished, so a partial (interrupted) sweep
    reads as such rather than as a low resolution rate.
    """
    per: dict[tuple[str, int], int] = {}
    first: dict[str, int] = {}
    ran: dict[str, int] = {}
    for row in rows:
        ran[row["config"]] = ran.get(row["config"], 0) + 1
        if row["verdict"]:
            key = (row["config"], row["budget"])
            per[key] = per.get(key, 0) + 1
            first[row["law"]] = min(first.get(row["law"], row["budget"]), row["budget"])
    cumulative = {b: sum(1 for v in first.values() if v <= b) for b in budgets}
    lines = ["config".ljust(20) + "".join(f"{b:>7}s" for b in budgets) + "   total     ran"]
    for c in configs:
        counts = [per.get((c, b), 0) for b in budgets]
        lines.append(
            c.ljust(20) + "".join(f"{n:>8}" for n in counts) + f"{sum(counts):>8}{ran.get(c, 0):>8}"
        )
    lines.append("cumulative".ljust(20) + "".join(f"{cumulative[b]:>8}" for b in budgets))
    pct = 100 * (cumulative[budgets[-1]] if budgets else 0) / max(1, n_laws)
    lines.append(
        f"resolved {cumulative[budgets[-1]] if budgets else 0}/{n_laws} laws ({pct:.1f} %)"
    )
    return per, cumulative, "\n".join(lines)


def svg_plot(
    cumulative: dict[int, int], per: dict[tuple[str, int], int], configs: list[str], n_laws: int
) -> str:
    """Cumulative resolved laws vs budget (log-spaced x), one line per configuration + portfolio.

    Hand-written SVG: no plotting library is a dependency of veristep."""
    budgets = sorted(cumulative)
    w, h, pad = 560, 320, 50
    top = max(max(cumulative.values(), default=0), 1)
    xs = {b: pad + i * (w - 2 * pad) / max(1, len(budgets) - 1) for i, b in enumerate(budgets)}

    def y(v: float) -> float:
        return h - pad - v * (h - 2 * pad) / top

    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-size="11">',
        f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="black"/>',
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="black"/>',
        f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">budget per configuration (s)</text>',
        f'<text x="12" y="{pad - 12}">resolved laws (of {n_laws})</text>',
    ]
    parts += [
        f'<text x="{xs[b]}" y="{h - pad + 15}" text-anchor="middle">{b}</text>' for b in budgets
    ]
    series = [("portfolio", cumulative, "black")]
    for i, c in enumerate(configs):
        running, acc = {}, 0
        for b in budgets:
            acc += per.get((c, b), 0)
            running[b] = acc
        series.append((c, running, colours[i % len(colours)]))
    for i, (name, values, colour) in enumerate(series):
        pts = " ".join(f"{xs[b]:.1f},{y(values[b]):.1f}" for b in budgets)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>')
        parts.append(
            f'<text x="{w - pad + 4 - 100}" y="{pad + 14 * i}" fill="{colour}">{name}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)


def write_outputs(store: SweepStore, summary: SweepSummary, out: Path) -> str:
    import json
    import sys

    # Every configuration the store holds at these budgets, not only this run's: a sweep run
    # one configuration at a time still reports (and exports) the whole portfolio so far.
    every = store.rows()
    rows = [r for r in every if r["budget"] in summary.budgets]
    present = {r["config"] for r in rows} | set(summary.configs)
    configs = [name for name, _, _ in CONFIGS if name in present]
    per, cumulative, table = tables(rows, configs, summary.budgets, summary.laws)
    (out / "table.txt").write_text(table + "\n", encoding="utf-8")
    (out / "cumulative.svg").write_text(
        svg_plot(cumulative, per, configs, summary.laws), encoding="utf-8"
    )
    with open(out / "cells.jsonl", "w", encoding="utf-8") as fh:
        for r in every:
            fh.write(
                json.dumps(
                    {
                        k: r[k]
                        for k in ("config", "budget", "verdict", "secs", "law", "status", "recheck")
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    print(table, file=sys.stderr)
    return table
