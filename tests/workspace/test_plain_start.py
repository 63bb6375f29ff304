"""A workspace started from plain typed maths shows the LaTeX it was read as."""

from __future__ import annotations

import pytest

from veristep.core.errors import InputError
from veristep.workspace.session import Workspace


def test_plain_start_is_shown_as_read_and_solved() -> None:
    ws = Workspace("3/4 y = 6")
    assert ws.path()[0].latex == r"\frac{3}{4} y = 6"
    last = ws.apply("solve for y")[-1]
    assert last.latex == "y = 8"


def test_ambiguous_plain_start_is_refused_with_its_column() -> None:
    with pytest.raises(InputError, match="column 8"):
        Workspace("y = 1/2x")
