#!/usr/bin/env python3
"""Cut the small slices of the public corpora that the tests read into tests/data/.

Usage: python scripts/slice-test-data.py FULL_CORPORA_ROOT

FULL_CORPORA_ROOT holds the full corpora (the layout `veristep data fetch` unpacks). Each cut is
described in tests/data/<corpus>/PROVENANCE.md; this script is the exact recipe, so the slices can
be rebuilt and checked. It copies licence files verbatim and never edits a row it keeps.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data"

# corpus -> files copied whole (relative to the corpus folder)
WHOLE = {
    "stack_equiv": ["README.md", "stack_pairs.jsonl", "stack_equiv_latex.json"],
    "etp": ["LICENSE", "equations.txt", "eq_size5.txt", "duals.json"],
    "alps_dev": [
        "LICENSE",
        "order5_seeds.jsonl",
        "classes_full.json",
        "llm_runs/llm_construct_gpt41_hard25.jsonl",
        "llm_runs/llm_construct_o4mini_hard25.jsonl",
    ],
    "minif2f_rocq": ["LICENSE", "minif2f_rocq.jsonl"],
    "opc_judge_test": ["LICENSE.upstream.md", "README.md"],
    "prmbench_slice": ["LICENSE.upstream", "README.md", "prmbench_subset_slice.jsonl"],
}
ALPS_MAX_ORDER = 6  # final_status.jsonl keeps the laws of order <= 6 (the tests' generator order)
OPC_DROPPED_FIELDS = ("reference_solution",)  # not read by veristep; a third of the file


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    path.write_text(text, encoding="utf-8")


def copy_whole(src: Path) -> None:
    for corpus, files in WHOLE.items():
        for name in files:
            target = OUT / corpus / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / corpus / name, target)


def cut_alps_final_status(src: Path) -> None:
    rows = _jsonl(src / "alps_dev" / "final_status.jsonl")
    kept = [row for row in rows if row["law"].count("◇") <= ALPS_MAX_ORDER]
    _write_jsonl(OUT / "alps_dev" / "final_status.jsonl", kept)


def cut_opc(src: Path) -> None:
    rows = _jsonl(src / "opc_judge_test" / "opc_judge_test.jsonl")
    kept = [{k: v for k, v in row.items() if k not in OPC_DROPPED_FIELDS} for row in rows]
    _write_jsonl(OUT / "opc_judge_test" / "opc_judge_test.jsonl", kept)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: slice-test-data.py FULL_CORPORA_ROOT", file=sys.stderr)
        return 2
    src = Path(argv[0])
    copy_whole(src)
    cut_alps_final_status(src)
    cut_opc(src)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
