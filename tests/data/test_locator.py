"""The corpus locator looks in exactly two places, and the repository's test slices are honest."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from veristep.core.datasets import fetched_data_dir, require_shared_data, shared_data_dir
from veristep.core.errors import InputError
from veristep.data.catalog import CATALOG

TEST_DATA = Path(__file__).parent
# The two files cut rather than copied whole; PROVENANCE.md describes each cut.
CUT = {("alps_dev", "final_status.jsonl"), ("opc_judge_test", "opc_judge_test.jsonl")}


def test_the_root_variable_wins_and_is_never_overridden(tmp_path: Path) -> None:
    (tmp_path / "fetched" / "corpora").mkdir(parents=True)
    env = {"VERISTEP_DATA_ROOT": str(tmp_path), "VERISTEP_DATA_DIR": str(tmp_path / "fetched")}
    assert shared_data_dir(env) == tmp_path
    env["VERISTEP_DATA_ROOT"] = str(tmp_path / "missing")
    assert shared_data_dir(env) is None  # not silently replaced by the fetched copy


def test_without_the_variable_only_the_fetched_folder_counts(tmp_path: Path) -> None:
    env = {"VERISTEP_DATA_DIR": str(tmp_path)}
    assert fetched_data_dir(env) == tmp_path / "corpora"
    assert shared_data_dir(env) is None
    (tmp_path / "corpora").mkdir()
    assert shared_data_dir(env) == tmp_path / "corpora"


def test_missing_corpora_name_the_command_and_the_variable(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("VERISTEP_DATA_ROOT")
    monkeypatch.setenv("VERISTEP_DATA_DIR", str(tmp_path))
    with pytest.raises(InputError, match=r"veristep data fetch.*VERISTEP_DATA_ROOT"):
        require_shared_data("etp", "equations.txt")
    (tmp_path / "corpora").mkdir()
    with pytest.raises(InputError, match=r"corpus file not found.*veristep data fetch etp"):
        require_shared_data("etp", "equations.txt")


def test_the_test_session_reads_the_repository_slices() -> None:
    assert require_shared_data("etp", "equations.txt") == TEST_DATA / "etp" / "equations.txt"


OWN = {"student_input"}  # corpora made for veristep itself, not slices of a public one
CORPORA = sorted(p.name for p in TEST_DATA.iterdir() if p.is_dir() and p.name[0] not in "._")


@pytest.mark.parametrize("corpus", CORPORA)
def test_each_slice_has_licence_provenance_and_pinned_or_documented_files(corpus: str) -> None:
    folder = TEST_DATA / corpus
    assert any(p.name.startswith("LICENSE") for p in folder.iterdir()), f"{corpus}: no licence"
    provenance = (folder / "PROVENANCE.md").read_text(encoding="utf-8")
    if corpus in OWN:  # written for this repository: no upstream to pin, the project's licence
        assert "written by hand for this repository" in provenance
        assert "Apache-2.0" in (folder / "LICENSE").read_text(encoding="utf-8")
        return
    entry = next(c for c in CATALOG if c.name == corpus)
    assert entry.repo in provenance and entry.commit in provenance
    pinned = {f.path: f.sha256 for f in entry.files}
    for path in folder.rglob("*"):
        rel = path.relative_to(folder).as_posix()
        if path.is_dir() or rel == "PROVENANCE.md" or path.name.startswith("LICENSE."):
            continue
        assert rel in pinned, f"{corpus}/{rel} is not a file of the corpus"
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if (corpus, rel) in CUT:
            assert digest != pinned[rel] and "CUT" in provenance
        else:
            assert digest == pinned[rel], f"{corpus}/{rel} differs from the pinned upstream copy"


def test_the_test_data_stays_small() -> None:
    total = sum(p.stat().st_size for p in TEST_DATA.rglob("*") if p.is_file())
    assert total < 8 * 1024 * 1024, f"tests/data holds {total / 2**20:.1f} MiB"


@pytest.mark.parametrize(
    "argv",
    [
        ["prove", "--bench", "minif2f-rocq", "--limit", "1"],
        ["review", "--bench", "prmbench", "--limit", "1"],
        ["alps", "generate", "--no-progress", "--out", "generated.jsonl"],
    ],
)
def test_benchmark_commands_without_corpora_say_how_to_get_them(
    argv: list[str], tmp_path: Path, monkeypatch, capsys
) -> None:
    from veristep.cli import main

    monkeypatch.delenv("VERISTEP_DATA_ROOT")
    monkeypatch.setenv("VERISTEP_DATA_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "veristep data fetch" in err and "VERISTEP_DATA_ROOT" in err
