"""Imported once by the CAS workers' forkserver (never by the main process): SymPy's lazily
imported solvers and simplifier, plus one small call of each, so that every worker forked
afterwards starts with them loaded instead of paying ~0.5 s on its first task. The modules of the
layers above (the grounding checks) are named by those layers: see ``pool.preload_in_workers``.

A warm-up that fails is ignored: it only saves time, and the worker imports what it needs itself.
"""

from __future__ import annotations

import contextlib


def _warm() -> None:
    import sympy as sp

    x = sp.Symbol("x", real=True)
    sp.simplify(sp.sin(x) ** 2 + sp.cos(x) ** 2 + 1 / (x + 1) - x / (x + 1))
    sp.solveset(sp.sin(x) - sp.Rational(1, 2), x, sp.S.Reals)
    sp.solveset(x**2 - 4, x, sp.S.Reals)


with contextlib.suppress(Exception):
    _warm()
