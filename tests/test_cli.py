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
