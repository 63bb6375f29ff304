"""Silent mis-parse traps: each must mean the right thing or fail loudly with a located error."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from veristep.core.errors import InputError
from veristep.mathgraph import LatexParseError, branches, parse_latex, to_sympy
from veristep.mathgraph.sympy_bridge import Approx

FIXTURE = Path(__file__).parent / "fixtures" / "traps.txt"


def _cases() -> list[tuple[str, str, str]]:
    cases = []
    for line in FIXTURE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        latex, expectation = line.split("\t")
        kind, _, body = expectation.partition(": ")
        cases.append((latex, kind, body))
    return cases


def _namespace() -> dict[str, object]:
    ns: dict[str, object] = {name: getattr(sympy, name) for name in dir(sympy)}
    ns.update({n: sympy.Symbol(n, real=True) for n in "abcknxy"})
    ns["k_int"] = sympy.Symbol("k", integer=True)
    ns["f"] = sympy.Function("f", real=True)
    ns["Approx"] = Approx
    return ns


@pytest.mark.parametrize(("latex", "kind", "body"), _cases(), ids=[c[0] for c in _cases()])
def test_trap(latex: str, kind: str, body: str) -> None:
    if kind == "error":
        with pytest.raises(LatexParseError) as info:
            parse_latex(latex)
        assert body in info.value.headline()
        assert info.value.position is not None and info.value.fragment is not None
        return
    graph = parse_latex(latex)
    if kind == "sympy_error":
        with pytest.raises(InputError, match=body):
            to_sympy(graph)
        return
    expected = eval(body, _namespace())  # fixture data written by us, not user input
    if kind == "branches":
        assert branches(graph) == expected
    else:
        got = to_sympy(graph)
        assert got == expected, f"{latex!r}: {got!r} != {expected!r}"


def test_pm_never_becomes_a_symbol() -> None:
    forms = to_sympy(parse_latex(r"x = \pm 2"))
    assert all(s.name == "x" for s in forms.free_symbols)


def test_approx_is_never_an_equation() -> None:
    form = to_sympy(parse_latex(r"x \approx 2"))
    assert isinstance(form, Approx) and not isinstance(form, sympy.Eq)


def test_constants_are_constants_and_bound_indices_are_symbols() -> None:
    assert to_sympy(parse_latex("i^2")) == -1
    total = to_sympy(parse_latex(r"\sum_{i=1}^{3} i"))
    assert total.doit() == 6
    assert to_sympy(parse_latex(r"x_i")) == sympy.Symbol("x_i", real=True)


def test_declared_plain_symbols_override_constants() -> None:
    from veristep.core.settings import Settings

    settings = Settings().replace(plain_symbols=frozenset({"e"}))
    assert to_sympy(parse_latex("e + 1", settings)) == sympy.Symbol("e", real=True) + 1


def test_log_base_is_a_setting() -> None:
    from veristep.core.settings import Settings

    ten = Settings().replace(log_base="10")
    x = sympy.Symbol("x", real=True)
    assert to_sympy(parse_latex(r"\log x"), settings=ten) == sympy.log(x, 10)
    assert to_sympy(parse_latex(r"\ln x"), settings=ten) == sympy.log(x)


def test_statements_about_integrals_stay_unevaluated_and_fast() -> None:
    import time

    to_sympy(parse_latex("x"))  # the first call pays for importing SymPy
    start = time.perf_counter()
    eq = to_sympy(parse_latex(r"\int_{-\infty}^{\infty} e^{-x^2} \, dx = \sqrt{\pi}"))
    less = to_sympy(parse_latex(r"\int_0^1 x \, dx < 2"))
    floor = to_sympy(parse_latex(r"\lfloor \int_0^1 x \, dx \rfloor"))
    assert time.perf_counter() - start < 1.0
    assert isinstance(eq, sympy.Eq) and eq.lhs.has(sympy.Integral)
    assert isinstance(less, sympy.StrictLessThan) and isinstance(floor, sympy.floor)
