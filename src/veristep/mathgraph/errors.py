"""The parser's typed error: where the LaTeX went wrong, what was there, what was probably meant."""

from __future__ import annotations

from dataclasses import dataclass

from veristep.core.errors import InputError


@dataclass
class LatexParseError(InputError):
    """Unparseable or out-of-scope LaTeX (unknown command, ``\\dots``, stray text, bad braces).

    >>> err = LatexParseError("unknown command \\\\fracc", source="\\\\fracc{1}{2}", position=0,
    ...                       length=6, hint="\\\\frac")
    >>> err.fragment, err.hint
    ('\\\\fracc', '\\\\frac')
    """

    kind: str = "latex"


@dataclass
class PlusMinusError(InputError):
    """A bare expression with ± has two values; it has no single SymPy form (use ``branches``)."""

    kind: str = "plus_minus"
