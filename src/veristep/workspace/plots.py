"""Plot blocks: sample a function of one variable in a CAS worker and draw it as inline SVG.

Sampling runs under the workspace's deadline in a killable worker (an expression can be slow or
huge); points where the function is undefined or not real break the line instead of joining it.
"""

from __future__ import annotations

import hashlib
import html
import json
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
    """The function as SVG: a polyline per defined run of values, on a grid with numbered axes.

    The vertical range leaves out the few values that run off towards a pole (``1/x`` near 0),
    so the shape stays visible; the curve is clipped at the frame instead of squashed.
    """
    finite = [v for v in values if v is not None]
    if not finite:
        return _message("nothing to draw: the function is undefined on this interval")
    bottom, top = _vertical_range(finite)
    left, right, up, down = 48, WIDTH - 12, 12, HEIGHT - 28

    def px(i: int) -> float:
        return left + (right - left) * i / (len(values) - 1)

    def py(v: float) -> float:
        return down - (down - up) * (v - bottom) / (top - bottom)

    runs, run = [], []
    for i, v in enumerate(values):
        if v is None:
            runs, run = runs + ([run] if run else []), []
            continue
        run.append(f"{px(i):.1f},{py(min(max(v, 2 * bottom - top), 2 * top - bottom)):.1f}")
    runs += [run] if run else []
    clip = "vs-plot-" + hashlib.sha1(repr((low, high, values)).encode()).hexdigest()[:12]
    parts = [f'<clipPath id="{clip}"><rect x="{left}" y="{up}" width="{right - left}" '
             f'height="{down - up}"/></clipPath>']  # fmt: skip
    for t in nice_ticks(low, high):
        x = left + (right - left) * (t - low) / (high - low)
        grid = f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{up}" y2="{down}" stroke="#e5e7eb"/>'
        parts.append(grid + _text(x, down + 16, "middle", t))
    for t in nice_ticks(bottom, top):
        y = py(t)
        grid = f'<line x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e5e7eb"/>'
        parts.append(grid + _text(left - 6, y + 4, "end", t))
    if bottom < 0 < top:
        parts.append(f'<line x1="{left}" x2="{right}" y1="{py(0):.1f}" y2="{py(0):.1f}" '
                     'stroke="#888"/>')  # fmt: skip
    if low < 0 < high:
        x0 = left + (right - left) * (0 - low) / (high - low)
        parts.append(f'<line x1="{x0:.1f}" x2="{x0:.1f}" y1="{up}" y2="{down}" stroke="#888"/>')
    parts.append(f'<rect x="{left}" y="{up}" width="{right - left}" height="{down - up}" '
                 'fill="none" stroke="#ccc"/>')  # fmt: skip
    parts.extend(f'<polyline points="{" ".join(r)}" fill="none" stroke="#2457c5" '
                 f'stroke-width="2" clip-path="url(#{clip})"/>' for r in runs)  # fmt: skip
    label = html.escape(f"{low:g} … {high:g}")
    return (f'<svg class="vs-plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'font-size="11" font-family="sans-serif" fill="#444" '
            f'{_trace_data(values, low, high, left, right)}'
            f'aria-label="plot on {label}">{"".join(parts)}</svg>')  # fmt: skip


def _trace_data(values: list[float | None], low: float, high: float, left: int, right: int) -> str:
    """What a pointer readout needs: the interval, the frame's x extent in SVG units, and the
    sampled values (null where undefined), so (x, f(x)) is read off without another request."""
    shown = json.dumps([None if v is None else float(f"{v:.6g}") for v in values])
    return (f'data-from="{low:g}" data-to="{high:g}" data-left="{left}" data-right="{right}" '
            f'data-values="{html.escape(shown)}" ')  # fmt: skip


def _vertical_range(finite: list[float]) -> tuple[float, float]:
    """The values' range, without the outer 2 % when they run far beyond the rest (a pole)."""
    ordered = sorted(finite)
    lo, hi = ordered[0], ordered[-1]
    k = len(ordered) // 50
    inner_lo, inner_hi = ordered[k], ordered[-1 - k]
    inner = inner_hi - inner_lo
    if k and inner > 0 and (hi - lo) > 10 * inner:
        lo, hi = inner_lo, inner_hi
    if hi - lo < 1e-12:
        lo, hi = lo - 1.0, hi + 1.0
    pad = 0.05 * (hi - lo)
    return lo - pad, hi + pad


def nice_ticks(low: float, high: float, count: int = 8) -> list[float]:
    """About ``count`` round values (1, 2 or 5 times a power of ten) between ``low`` and ``high``.

    >>> nice_ticks(-3, 3)
    [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0]
    >>> nice_ticks(0, 0.5)
    [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    """
    span = high - low
    if not span > 0 or not math.isfinite(span):
        return []
    raw = span / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9)
    ticks = []
    k = first
    while k * step <= high + 1e-9 * step and len(ticks) < 50:
        ticks.append(float(round(k * step, 12)))
        k += 1
    return ticks


def _text(x: float, y: float, anchor: str, value: float) -> str:
    number = html.escape(f"{value:g}".replace("-", "−"))
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{number}</text>'


def _message(text: str) -> str:
    return f'<p class="vs-plot-error">{html.escape(text)}</p>'
