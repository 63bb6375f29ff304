"""``veristep parse MATHS [--json]``: the graph, its SymPy form and the LaTeX it was read as.

The input may be LaTeX or plain typed maths (``sqrt(x) = 2``); the text picks the reader, and
the LaTeX printed back shows what was understood."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings

HELP = "parse one state (LaTeX or plain maths) and print its graph, SymPy form and LaTeX"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("latex", metavar="MATHS",
                        help="the state to parse, as LaTeX or plain maths (quote it)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--ids", action="store_true", help="also print the LaTeX with node ids")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from veristep.mathgraph import (
        PlusMinusError,
        branches,
        parse_math,
        reader_for,
        to_latex,
        to_sympy,
    )
    from veristep.mathgraph.display import tree_text
    from veristep.mathgraph.sympy_bridge import locate

    graph = parse_math(args.latex, settings)
    reader = reader_for(args.latex)
    try:
        sympy_forms = [_text(to_sympy(graph, settings=settings))]
    except PlusMinusError:
        sympy_forms = [_text(b) for b in branches(graph, settings=settings)]
    except InputError as err:
        raise locate(err, args.latex) from None
    latex = to_latex(graph)
    if args.json:
        doc = {
            "latex": latex,
            "reader": reader,
            "latex_ids": to_latex(graph, with_ids=True),
            "sympy": sympy_forms[0] if len(sympy_forms) == 1 else None,
            "branches": sympy_forms if len(sympy_forms) > 1 else None,
            "graph": graph.to_json(),
        }
        print(json.dumps(doc, ensure_ascii=False))
        return 0
    if reader == "plain":
        print("read as:", latex)
    print("graph:")
    print(tree_text(graph))
    label = "sympy:" if len(sympy_forms) == 1 else "sympy branches (±):"
    print(label, " | ".join(sympy_forms))
    print("latex:", latex)
    if args.ids:
        print("latex with ids:", to_latex(graph, with_ids=True))
    return 0


def _text(expr: Any) -> str:
    """``str`` of a SymPy form; integers too long for Python to print (over 4300 digits) are
    shown by their size instead of failing the whole command.

    >>> import sympy
    >>> _text(sympy.Integer(2) ** 20000 + sympy.Symbol("x"))
    'x + <integer of about 6021 digits>'
    """
    try:
        return str(expr)
    except ValueError:
        return _sized_printer().doprint(expr)


def _sized_printer() -> Any:
    from sympy.printing.str import StrPrinter

    class SizedIntegers(StrPrinter):
        def _print_Integer(self, expr: Any) -> str:
            try:
                return str(expr)
            except ValueError:
                digits = int(abs(int(expr)).bit_length() * math.log10(2)) + 1
                return f"<integer of about {digits} digits>"

        def _print_Rational(self, expr: Any) -> str:
            try:
                return str(expr)
            except ValueError:
                num, den = (self._print_Integer(n) for n in (expr.numerator, expr.denominator))
                return f"{num}/{den}"

    return SizedIntegers()
