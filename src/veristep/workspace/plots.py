"""Plot blocks: sample a function of one variable in a CAS worker and draw it as inline SVG.

Sampling runs under the workspace's deadline in a killable worker (an expression can be slow or
huge); points where the function is undefined or not real break the line instead of joining it.
"""

from __future__ import annotations

import html
import math
import re
import threading
import time
from collections import OrderedDict
from typing import Any

from veristep.core.errors import InputError
from veristep.core.settings import Settings

SAMPLES = 161
WIDTH, HEIGHT, PAD = 480, 300, 24


def plot_svg(
    data: dict[str, Any], settings: Settings | None = None, timeout_s: float | None = None
) -> str:
    """The SVG of a plot block ``{"expr": LaTeX, "from": a, "to": b, "var": "x"?}``.

    The LaTeX is read, converted and sampled in the worker, so an expression that is slow to
    build (``1000000!``) costs a worker its deadline, never the server's own thread. Drawings are
    cached by their block data; a failure is cached for a while, so a page that keeps failing does
    not keep a worker busy on every view.
    """
    from veristep.core.pool import run_cas

    settings = settings or Settings()
    low, high = _bounds(data)
    key = (str(data["expr"]), str(data.get("var") or "x"), low, high)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    budget = settings.cas_timeout_s if timeout_s is None else min(timeout_s, settings.cas_timeout_s)
    result = run_cas(sample_latex, key[0], key[1], low, high, settings, settings=settings,
                     timeout_s=budget)  # fmt: skip
    if result.ok:
        return _CACHE.put(key, draw(result.value, low, high), ttl_s=None)
    why = {
        "timeout": "the function took too long to evaluate",
        "memory": "the function needs too much memory to evaluate",
    }.get(result.status) or re.sub(r"^\w+: ", "", result.error or result.status)
    return _CACHE.put(key, _message(f"cannot plot: {why}"), ttl_s=FAILURE_TTL_S)


FAILURE_TTL_S = 300.0


class _Drawings:
    """A small LRU of drawn plots; failures expire, drawings stay until pushed out."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], tuple[str, float | None]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> str | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            svg, expires = item
            if expires is not None and time.monotonic() > expires:
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return svg

    def put(self, key: tuple[Any, ...], svg: str, ttl_s: float | None) -> str:
        with self._lock:
            expires = None if ttl_s is None else time.monotonic() + ttl_s
            self._items[key] = (svg, expires)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return svg

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_CACHE = _Drawings()


def plot_problem(latex: str, var: str, settings: Settings) -> str | None:
    """Why ``latex`` cannot be plotted in ``var`` (read, converted and checked in a worker), or
    None when it can. A check that runs out of time finds no problem: the view says so then."""
    from veristep.core.pool import run_cas

    result = run_cas(_readable, latex, var, settings, settings=settings,
                     timeout_s=min(settings.cas_timeout_s, 2.0))  # fmt: skip
    if result.ok or result.status in ("timeout", "memory"):
        return None
    return re.sub(r"^\w+: ", "", result.error or result.status)


def _readable(latex: str, var: str, settings: Settings) -> None:
    """CAS task: raise ValueError unless ``latex`` reads as a function of ``var`` alone."""
    import sympy as sp

    from veristep.mathgraph import parse_math, to_sympy

    try:
        expr = to_sympy(parse_math(latex, settings), settings=settings)
    except InputError as err:
        raise ValueError(err.message) from None

    if not isinstance(expr, sp.Expr):
        raise ValueError("a plot needs an expression, not an equation or a statement")
    others = sorted(s.name for s in expr.free_symbols if s.name != var)
    if others:
        raise ValueError(f"only {var} may vary, and {', '.join(others)} would too")


def sample_latex(
    latex: str, var: str, low: float, high: float, settings: Settings
) -> list[float | None]:
    """Read ``latex`` and sample it (run in a worker). An unreadable expression is a ValueError
    with the reader's located message."""
    from veristep.mathgraph import parse_math, to_sympy

    try:
        expr = to_sympy(parse_math(latex, settings), settings=settings)
    except InputError as err:
        raise ValueError(err.message) from None
    return sample(expr, var, low, high)


def _bounds(data: dict[str, Any]) -> tuple[float, float]:
    try:
        low, high = float(data.get("from", -5)), float(data.get("to", 5))
    except (TypeError, ValueError):
        raise InputError("a plot's 'from' and 'to' must be numbers") from None
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise InputError("a plot needs finite bounds with from < to")
    return low, high


def sample(expr: Any, var: str, low: float, high: float) -> list[float | None]:
    """Values at evenly spaced points (run in a worker); None where undefined or not real."""
    import sympy as sp

    symbols = {s.name: s for s in expr.free_symbols}
    if set(symbols) - {var}:
        raise ValueError(f"only one variable may be free: {', '.join(sorted(symbols))}")
    x = symbols.get(var, sp.Symbol(var))
    fn = sp.lambdify(x, expr, modules="math")
    out: list[float | None] = []
    for i in range(SAMPLES):
        t = low + (high - low) * i / (SAMPLES - 1)
        try:
            y = float(fn(t))
        except (ArithmeticError, ValueError, TypeError):
            y = None
        out.append(y if y is not None and math.isfinite(y) else None)
    return out


def draw(values: list[float | None], low: float, high: float) -> str:
    """A polyline per defined run of values, in a box scaled to the finite values."""
    finite = [v for v in values if v is not None]
    if not finite:
        return _message("nothing to draw: the function is undefined on this interval")
    top, bottom = max(finite), min(finite)
    span = (top - bottom) or 1.0
    runs, run = [], []
    for i, v in enumerate(values):
        if v is None:
            runs, run = runs + ([run] if run else []), []
            continue
        px = PAD + (WIDTH - 2 * PAD) * i / (len(values) - 1)
        py = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - bottom) / span
        run.append(f"{px:.1f},{py:.1f}")
    runs += [run] if run else []
    lines = "".join(f'<polyline points="{" ".join(r)}" fill="none" stroke="#2457c5" '
                    f'stroke-width="2"/>' for r in runs)  # fmt: skip
    axis = ""
    if bottom < 0 < top:
        y0 = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (0 - bottom) / span
        axis = f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y0:.1f}" y2="{y0:.1f}" stroke="#999"/>'
    label = html.escape(f"{low:g} … {high:g}")
    return (f'<svg class="vs-plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="plot on {label}">{axis}{lines}</svg>')  # fmt: skip


def _message(text: str) -> str:
    return f'<p class="vs-plot-error">{html.escape(text)}</p>'
