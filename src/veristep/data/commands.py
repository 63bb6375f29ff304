"""``veristep data``: list the pinned corpora, fetch them into the user data directory.

Examples::

    veristep data --list
    veristep data fetch                 # every corpus
    veristep data fetch etp alps_dev    # some of them
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from veristep.core.errors import InputError, did_you_mean
from veristep.core.settings import Settings

HELP = "list the public corpora used by benchmarks, or fetch them at their pinned commits"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=["fetch"], help="fetch the named corpora")
    parser.add_argument("names", nargs="*", metavar="NAME", help="corpora to fetch (default: all)")
    parser.add_argument(
        "--list", action="store_true", help="print each corpus: source, commit, size, hash"
    )
    parser.add_argument(
        "--from",
        dest="base",
        metavar="URL",
        help="download from a mirror laid out as URL/<owner>/<repo>/<commit>/<path>",
    )
    parser.add_argument("--dest", type=Path, help="where to unpack (default: the user data dir)")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.data.catalog import CATALOG

    if args.list:
        print_list(CATALOG)
        return 0
    if args.action != "fetch":
        raise InputError(
            "nothing to do: use `veristep data --list` or `veristep data fetch [NAME…]`"
        )
    corpora = select(args.names)
    dest = args.dest or settings.data_dir / "corpora"
    return fetch_all(corpora, dest, args.base)


def select(names: list[str]) -> list:
    from veristep.data.catalog import CATALOG, corpus

    if not names:
        return list(CATALOG)
    chosen = []
    for name in names:
        found = corpus(name)
        if found is None:
            known = [c.name for c in CATALOG]
            hint = did_you_mean(name, known)
            suffix = f" (did you mean {hint}?)" if hint else f"; known: {', '.join(known)}"
            raise InputError(f"unknown corpus {name!r}{suffix}")
        chosen.append(found)
    return chosen


def fetch_all(corpora: list, dest: Path, base: str | None) -> int:
    from veristep.data.fetch import RAW_BASE, fetch_corpus

    derived: list[str] = []
    for item in corpora:
        report = fetch_corpus(item, dest, base or RAW_BASE)
        derived += report.derived
        print(
            f"{item.name}: {len(report.fetched)} fetched, {len(report.present)} already present"
            f"{f', {len(report.derived)} derived' if report.derived else ''}"
        )
    print(f"corpora folder: {dest}")
    if derived:
        # Derived files (converted, sliced or measured) have no byte-identical upstream copy.
        print(
            f"veristep data: {len(derived)} derived files cannot be fetched from upstream "
            f"(first: {derived[0]}); place a copy of their folder under VERISTEP_DATA_ROOT",
            file=sys.stderr,
        )
        return 2
    return 0


def print_list(catalog) -> None:
    from veristep.core.datasets import shared_data_dir

    root = shared_data_dir(os.environ)
    for item in catalog:
        fetchable = sum(f.upstream is not None for f in item.files)
        print(
            f"{item.name:<15} {item.source}@{item.commit}  {_size(item.size)}  "
            f"sha256:{item.sha256}  {len(item.files)} files ({fetchable} fetchable)  {item.licence}"
        )
        for f in item.files:
            where = "fetchable" if f.upstream else "derived"
            print(f"    {f.path:<40} {_size(f.size):>9}  sha256:{f.sha256}  {where}")
    print(f"corpora folder in use: {root if root else 'none (run `veristep data fetch`)'}")


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB"):
        if n < 1024 or unit == "MiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"
