"""The dispatcher's own contract: version, help, exit codes, bad environment."""

from __future__ import annotations

import subprocess
import sys

import pytest

from veristep import __version__
from veristep.cli import SUBCOMMANDS, build_parser, main


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "veristep.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_version_prints_the_package_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"veristep {__version__}"


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


def test_unknown_command_is_a_usage_error() -> None:
    result = run_cli("frobnicate")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr
    assert "Traceback" not in result.stderr


def test_every_subcommand_module_is_present() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    assert set(subparsers.choices) == set(SUBCOMMANDS)


def test_malformed_environment_value_is_a_located_input_error(tmp_path) -> None:
    import os

    env = dict(os.environ, VERISTEP_STEP_TIMEOUT="soon")
    result = run_cli("parse", "x+1", env=env)
    assert result.returncode == 2
    assert "VERISTEP_STEP_TIMEOUT" in result.stderr
    assert "Traceback" not in result.stderr


# --- arguments that begin with a minus sign are mathematics in derive, check and do ----------


def _json_of(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    import json

    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_check_reads_states_beginning_with_minus_as_maths(capsys) -> None:
    d = _json_of(capsys, ["check", "-2x + 4 = 0", "-2x = -4", "x = 2", "--json"])
    assert [s["latex"] for s in d["states"]] == ["-2x + 4 = 0", "-2x = -4", "x = 2"]
    assert d["endpoint"]["math_correct"]


def test_derive_reads_a_start_and_target_beginning_with_minus_as_maths(capsys) -> None:
    d = _json_of(capsys, ["derive", "-x + 3 = 1", "x = 2", "--json"])
    assert d["start"] == "-x + 3 = 1"
    assert d["endpoint"]["reached"]
    d = _json_of(capsys, ["derive", "x^2 - 6x + 9 - x^2", "-6x + 9", "--json"])
    assert d["target"] == "-6x + 9"
    assert d["endpoint"]["reached"]


def test_do_reads_a_state_beginning_with_minus_as_maths(capsys) -> None:
    d = _json_of(capsys, ["do", "-x + 3 = 1", "solve for x", "--json"])
    assert d["start"] == "-x + 3 = 1"
    assert d["states"][-1]["latex"].replace(" ", "") == "x=2"


def test_a_double_dash_still_separates_values(capsys) -> None:
    d = _json_of(capsys, ["check", "--json", "--", "-x = 1", "x = -1"])
    assert [s["latex"] for s in d["states"]] == ["-x = 1", "x = -1"]


def test_an_unknown_long_option_is_still_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["derive", "x = 1", "--frobnicate"])
    assert exit_info.value.code == 2


def test_a_derive_run_parses_without_importing_other_subsystems() -> None:
    probe = (
        "import sys\n"
        "from veristep.cli import _parse\n"
        "_parse(['derive', 'x + 1 = 3', 'x = 2'])\n"
        "heavy = ('veristep.web', 'veristep.alps', 'veristep.formal', 'veristep.review', 'dspy',"
        " 'sympy')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    # Not even SymPy: the CAS workers start (and import it) while this process imports its own.
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]"
