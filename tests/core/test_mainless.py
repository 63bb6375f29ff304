"""The caller's script runs once: CAS workers do not re-import a guard-less ``__main__``, and a
script piped on stdin (whose ``__main__`` has no file) does not crash them; veristep.check and
veristep.grade both give the right verdicts there."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

_SCRIPT = textwrap.dedent(
    """
    import os
    import veristep

    with open(os.environ["RUN_MARKS"], "a") as marks:
        marks.write("ran\\n")
    right = veristep.check(["x^2 - 1 = 0", "(x - 1)(x + 1) = 0"])
    wrong = veristep.check(["x^2 - 1 = 0", "(x - 1)(x + 2) = 0"])
    print(right.steps[0].tier.name, wrong.steps[0].tier.name)
    graded = veristep.grade([["2x = 4", "x = 2"], ["2x = 4", "x = 3"]])
    print(*(g.verdict.name for g in graded))
    """
)


@pytest.mark.parametrize("how", ["file", "stdin"])
def test_a_guardless_script_runs_once_with_the_right_verdicts(tmp_path: Path, how: str) -> None:
    script = tmp_path / "guardless.py"
    script.write_text(_SCRIPT)
    marks = tmp_path / "marks"
    env = {**os.environ, "RUN_MARKS": str(marks), "VERISTEP_INLINE_CAS": "0"}
    argv = [sys.executable, str(script)] if how == "file" else [sys.executable, "-"]
    stdin = None if how == "file" else script.open()
    try:
        done = subprocess.run(
            argv, stdin=stdin, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=240
        )
    finally:
        if stdin is not None:
            stdin.close()
    assert done.returncode == 0, done.stderr[-2000:]
    assert marks.read_text() == "ran\n"
    assert done.stdout.split() == ["GROUNDED", "REFUTED", "GROUNDED", "REFUTED"]
