"""Graph → SymPy for subscripted names that depend on a bound variable.

A subscripted name (``x_1``, ``x_{n + 1}``) is one symbol. Under ``\\sum_{k=1}^{n}`` or
``\\prod``, ``x_k`` and ``x_{2 k - 1}`` are the terms ``x[k]``, ``x[2k - 1]`` of an indexed family;
under a derivative, integral or limit in the subscript's variable there is no sound reading.

>>> from veristep.mathgraph.parser import parse_latex
>>> from veristep.mathgraph.sympy_bridge import to_sympy
>>> to_sympy(parse_latex(r"\\sum_{k=1}^{3} a_{2k-1}")).doit()
a[1] + a[3] + a[5]
"""

from __future__ import annotations

from typing import Any

import sympy

from veristep.core.errors import InputError
from veristep.core.settings import Settings
from veristep.mathgraph.nodes import Graph, Kind
from veristep.mathgraph.vocabulary import GREEK


def _parse_subscript(sub: str, settings: Settings) -> Graph:
    """``{n + 1}`` (as the parser printed it) → its graph, with e and i read as names."""
    from veristep.mathgraph.parser import parse_latex

    plain = settings.replace(plain_symbols=settings.plain_symbols | {"e", "i"})
    return parse_latex(sub[1:-1], plain)


def subscript_names(sub: str, settings: Settings) -> set[str]:
    """The names a subscript mentions: ``k`` → {k}; ``ab`` → {ab, a, b}; ``{2 k - 1}`` → {k}."""
    if sub.startswith("{"):
        graph = _parse_subscript(sub, settings)
        return {n.value for n in graph.nodes() if n.kind is Kind.SYMBOL}
    if sub.isdigit():
        return set()
    if sub in GREEK:
        return {sub}
    return {sub} | {ch for ch in sub if ch.isalpha()}


class SubscriptBinding:
    """Mixed into the converter, whose settings, bound names and ``convert`` it uses."""

    settings: Settings
    real: bool
    integer_names: list[str]
    calculus_vars: list[str]

    def convert(self, node: Any) -> Any:  # pragma: no cover - provided by the converter
        raise NotImplementedError

    def symbol_plain(self, name: str) -> Any:  # pragma: no cover - provided by the converter
        raise NotImplementedError

    def bound_subscript(self, name: str) -> Any:
        """``x_k`` under ``\\sum_{k=1}^{n}`` is the k-th term ``x[k]``, not one constant name.

        A subscript that mentions the variable of an enclosing derivative, integral or limit
        (``\\lim_{n \\to \\infty} a_n``) has no sound reading as a separate name: an input error.
        """
        base, _, sub = name.partition("_")
        mentioned = subscript_names(sub.rstrip("'"), self.settings)
        calculus = mentioned & set(self.calculus_vars)
        if calculus:
            raise InputError(f"{name} depends on the variable {min(calculus)} of an enclosing "
                             "derivative, integral or limit: a subscripted name is one "
                             "constant symbol, write a function instead", kind="math")  # fmt: skip
        if not mentioned & set(self.integer_names):
            return None
        if sub.endswith("'") or not (sub in self.integer_names or sub.startswith("{")):
            raise InputError(f"{name}: only x_k or x_{{k+1}} may depend on a sum or product "
                             "index", kind="math")  # fmt: skip
        index = (self.symbol_plain(sub) if sub in self.integer_names
                 else self.convert(_parse_subscript(sub, self.settings).root))  # fmt: skip
        terms = sympy.IndexedBase(base, real=True) if self.real else sympy.IndexedBase(base)
        return terms[index]
