"""Numeric fingerprints of ∨ branches, so that branches pair by meaning, not by position.

A step often rewrites each branch of a disjunction in place but may also reorder them
(``x = p - q ∨ x = p + q`` becomes ``x = (p + q) ∨ x = (p - q)``); pairing by position would
then fly every glyph into the wrong branch. An equation ``l = r`` is fingerprinted by ``l - r``
evaluated at two fixed pseudo-random complex points; two branches describe the same root when
their fingerprints are proportional (``2x = 6`` and ``x = 3`` agree). Anything the tiny
evaluator does not know yields None, and pairing falls back to position.

>>> from veristep.animate.tree import from_sexpr
>>> a = fingerprint(from_sexpr("(= (+ x 1) 0)"))
>>> b = fingerprint(from_sexpr("(= (* 2 x) (neg 2))"))
>>> same_root(a, b), same_root(a, fingerprint(from_sexpr("(= x 1)")))
(True, False)
"""

from __future__ import annotations

import cmath
import hashlib
from collections.abc import Callable

from veristep.animate.tree import Node

_POINTS = 2
_REL_TOL = 1e-7

Fingerprint = tuple[complex, ...]


def _symbol_value(name: str, point: int) -> complex:
    digest = hashlib.blake2b(f"{name}/{point}".encode(), digest_size=8).digest()
    re = int.from_bytes(digest[:4], "big") / 2**32
    im = int.from_bytes(digest[4:], "big") / 2**32
    return complex(0.5 + 1.5 * re, 0.3 + 1.2 * im)


def _product(values: list[complex]) -> complex:
    out = 1 + 0j
    for v in values:
        out *= v
    return out


_OPS: dict[str, Callable[[list[complex]], complex]] = {
    "+": sum,
    "*": _product,
    "neg": lambda v: -v[0],
    "frac": lambda v: v[0] / v[1],
    "/": lambda v: v[0] / v[1],
    "^": lambda v: v[0] ** v[1],
    "sqrt": lambda v: cmath.sqrt(v[0]) if len(v) == 1 else v[0] ** (1 / v[1]),
    "=": lambda v: v[0] - v[1],
}


def _value(node: Node, point: int) -> complex | None:
    label = node.label.split(":", 1)[-1] if node.label.startswith(("num:", "sym:")) else node.label
    if not node.children:
        try:
            return complex(float(label))
        except ValueError:
            return _symbol_value(label, point) if label.isidentifier() else None
    op = _OPS.get(_CANONICAL.get(node.label, node.label))
    if op is None:
        return None
    args = [_value(c, point) for c in node.children]
    if any(a is None for a in args):
        return None
    try:
        return op(args)  # type: ignore[arg-type]
    except (ZeroDivisionError, OverflowError, ValueError):
        return None


# mathgraph labels (see veristep.animate.graphs) onto the evaluator's operators
_CANONICAL = {
    "pow": "^",
    "frac:frac": "frac",
    "frac:dfrac": "frac",
    "frac:tfrac": "frac",
    "div:/": "/",
    "div:div": "/",
    "rel:=": "=",
}


def fingerprint(node: Node) -> Fingerprint | None:
    values = []
    for point in range(_POINTS):
        v = _value(node, point)
        if v is None or not cmath.isfinite(v):
            return None
        values.append(v)
    return tuple(values)


def same_root(a: Fingerprint | None, b: Fingerprint | None) -> bool:
    """Proportional fingerprints (and neither identically zero)."""
    if a is None or b is None:
        return False
    scale = max(abs(x) for x in (*a, *b))
    if scale == 0 or min(abs(x) for x in (*a, *b)) < 1e-12 * scale:
        return False
    return abs(a[0] * b[1] - a[1] * b[0]) <= _REL_TOL * scale * scale
