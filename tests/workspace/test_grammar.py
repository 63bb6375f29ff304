"""The command grammar: phrasings from the fixture files → operations, and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from veristep.core.errors import InputError
from veristep.workspace.grammar import Operation, parse_command
from veristep.workspace.operations import KINDS

FIXTURES = Path(__file__).parent / "fixtures"


def _rows(name: str) -> list[list[str]]:
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    return [[p.strip() for p in ln.split(";;")] for ln in lines if ln.strip() and ln[0] != "#"]


PHRASINGS = _rows("phrasings.txt")
BAD = _rows("bad_phrasings.txt")


def test_the_fixture_covers_at_least_forty_phrasings() -> None:
    assert len(PHRASINGS) >= 40
    assert len({kind for _, kind, _ in PHRASINGS}) >= 25


@pytest.mark.parametrize(("phrase", "kind", "fields"), PHRASINGS, ids=[r[0] for r in PHRASINGS])
def test_phrasing_becomes_its_operation(phrase: str, kind: str, fields: str) -> None:
    op = parse_command(phrase)
    assert op.kind == kind
    assert op.kind in KINDS  # every kind the grammar names has an implementation
    expected = {} if fields == "-" else dict(f.split("=", 1) for f in fields.split(", "))
    for name in ("side", "arg", "var", "low", "high"):
        assert getattr(op, name) == expected.get(name), name


@pytest.mark.parametrize(("phrase", "message", "column", "hint"), BAD, ids=[r[0] for r in BAD])
def test_bad_phrasing_is_a_located_error(phrase: str, message: str, column: str, hint: str) -> None:
    with pytest.raises(InputError) as info:
        parse_command(phrase)
    err = info.value
    assert message in err.message
    assert err.position is not None and err.position + 1 == int(column)
    assert err.hint == (None if hint == "-" else hint)
    assert "^" in err.located()  # a caret under the failure


def test_argument_column_points_into_the_phrase() -> None:
    op = parse_command("divide both sides by x - 1")
    assert op.text[op.arg_at :] == "x - 1"


@pytest.mark.parametrize("bad", ["", "   ", "x" * 600])
def test_empty_or_huge_commands_are_input_errors(bad: str) -> None:
    with pytest.raises(InputError):
        parse_command(bad)


def test_non_string_command_is_an_input_error() -> None:
    with pytest.raises(InputError):
        parse_command(None)  # type: ignore[arg-type]


def test_operation_is_a_plain_value() -> None:
    assert parse_command("factor") == Operation("factor", "factor")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_an_operation_or_a_located_input_error(text: str) -> None:
    try:
        op = parse_command(text)
    except InputError as err:
        assert err.message and (err.position is None or err.position >= 0)
        return
    assert op.kind in KINDS or op.kind == "substitute"
